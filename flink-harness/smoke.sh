#!/bin/sh
# Builds the harness for one Flink minor (default 2.3) if needed and runs smoke.jsonl through it:
# the EUR temporal-join scenario must print +I[o1, 2026-10-01T09:30, 110.000000] on real Flink,
# and a query naming an unknown column must come back as Flink's ValidationException.
#   flink-harness/smoke.sh [MINOR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
minor=${1:-2.3}
version=$(sed -n "s/.*\"$minor\": *\"\([^\"]*\)\".*/\1/p" "$here/versions.json")
[ -n "$version" ] || { echo "no Flink version for minor $minor in versions.json" >&2; exit 2; }
out="$here/target/$minor"
if [ ! -f "$out/joinstep-flink-harness.jar" ] || [ ! -f "$out/classpath.txt" ]; then
  mvn -B -q -f "$here/pom.xml" -Dflink.version="$version" -Dharness.minor="$minor" package -DskipTests
fi
answers=$(java $(tr '\n' ' ' < "$here/jvm-options.txt") -cp "$out/joinstep-flink-harness.jar:$(cat "$out/classpath.txt")" \
  dev.joinstep.harness.Main < "$here/smoke.jsonl")
echo "$answers" | grep -q '"id":"eur-plan","ok":true' || { echo "FAIL: plan"; echo "$answers"; exit 1; }
echo "$answers" | grep -q '"text":"+I\[o1, 2026-10-01T09:30, 110.000000\]"' || { echo "FAIL: run"; echo "$answers"; exit 1; }
echo "$answers" | grep -q '"id":"bad-sql","ok":false,"phase":"plan","error":{"class":"org.apache.flink.table.api.ValidationException"' || { echo "FAIL: rejection"; echo "$answers"; exit 1; }
echo "ok: Flink $version plans the EUR scenario, prints +I[o1, 2026-10-01T09:30, 110.000000], and rejects the bad query"
