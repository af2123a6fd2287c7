package dev.joinstep.harness.job;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.ResultKind;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;

/**
 * Runs a Flink SQL script as `joinstep flink FILE --job DIR` writes it, on a local MiniCluster,
 * and prints the query's changelog to stdout, one {@code Row.toString()} per line (the print
 * connector's format). It stands in for Flink's SQL client so that joinstep's tests can check a
 * job without a cluster: `SET 'key' = 'value';` lines go into the table configuration, every
 * other statement through {@link TableEnvironment#executeSql}. Parallelism is 1 so that the
 * order of the printed rows is the order one source task reads its files in.
 *
 * <p>Usage: {@code java -cp <harness jar>:<classpath>:<flink-connector-files>:<flink-json>
 * dev.joinstep.harness.job.RunSqlScript job.sql}. Exit 0 when every statement ran; 1 with the
 * failure on stderr otherwise.
 */
public final class RunSqlScript {
    private static final Pattern SET =
            Pattern.compile("(?is)SET\\s+'((?:[^']|'')*)'\\s*=\\s*'((?:[^']|'')*)'");

    private RunSqlScript() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: RunSqlScript SCRIPT.sql");
            System.exit(2);
        }
        String script = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
        TableEnvironment env = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        env.getConfig().getConfiguration().setString("parallelism.default", "1");
        try {
            for (String statement : statements(script)) {
                run(env, statement);
            }
        } catch (Exception e) {
            System.err.println("RunSqlScript: " + e.getClass().getName() + ": " + e.getMessage());
            Throwable cause = e.getCause();
            while (cause != null && cause.getCause() != null) {
                cause = cause.getCause();
            }
            if (cause != null) {
                System.err.println("root cause: " + cause);
            }
            System.out.flush();
            System.exit(1);
        }
        System.out.flush();
        // The MiniCluster's threads would keep the JVM alive for a while.
        System.exit(0);
    }

    private static void run(TableEnvironment env, String statement) throws Exception {
        Matcher set = SET.matcher(statement);
        if (set.matches()) {
            env.getConfig()
                    .getConfiguration()
                    .setString(set.group(1).replace("''", "'"), set.group(2).replace("''", "'"));
            return;
        }
        TableResult result = env.executeSql(statement);
        if (result.getResultKind() == ResultKind.SUCCESS_WITH_CONTENT) {
            try (CloseableIterator<Row> rows = result.collect()) {
                while (rows.hasNext()) {
                    System.out.println(rows.next());
                }
            }
        } else if (result.getJobClient().isPresent()) {
            // An INSERT: its rows go to its sink (a print sink writes them to stdout).
            result.await();
        }
    }

    /**
     * The script's statements: split at semicolons outside string literals, quoted identifiers
     * and comments; comments dropped, blank statements skipped.
     */
    static List<String> statements(String script) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int i = 0;
        int n = script.length();
        while (i < n) {
            char c = script.charAt(i);
            if (c == '-' && i + 1 < n && script.charAt(i + 1) == '-') {
                while (i < n && script.charAt(i) != '\n') {
                    i++;
                }
                continue;
            }
            if (c == '/' && i + 1 < n && script.charAt(i + 1) == '*' && !(i + 2 < n && script.charAt(i + 2) == '+')) {
                int end = script.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
                current.append(' ');
                continue;
            }
            if (c == '\'' || c == '`' || c == '"') {
                int j = i + 1;
                while (j < n) {
                    if (script.charAt(j) == c) {
                        if (j + 1 < n && script.charAt(j + 1) == c) {
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    j++;
                }
                int end = Math.min(j + 1, n);
                current.append(script, i, end);
                i = end;
                continue;
            }
            if (c == ';') {
                add(out, current);
                i++;
                continue;
            }
            current.append(c);
            i++;
        }
        add(out, current);
        return out;
    }

    private static void add(List<String> out, StringBuilder current) {
        String text = current.toString().trim();
        if (!text.isEmpty()) {
            out.add(text);
        }
        current.setLength(0);
    }
}
