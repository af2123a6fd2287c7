/**
 * A line diff (longest common subsequence) between expected and actual rows, printed the way
 * people read test failures: `-` expected but missing, `+` produced but not expected.
 */
export function diffLines(expected: readonly string[], actual: readonly string[]): string[] {
  const n = expected.length;
  const m = actual.length;
  // lcs[i][j] = LCS length of expected[i..] and actual[j..]; scenarios are small, O(n*m) is fine.
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i]![j] = expected[i] === actual[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && expected[i] === actual[j]) {
      out.push(`  ${expected[i]}`);
      i++;
      j++;
    } else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      out.push(`+ ${actual[j]}`);
      j++;
    } else {
      out.push(`- ${expected[i]}`);
      i++;
    }
  }
  return out;
}

/** Multiset comparison for `expect.result` (any order): both sides sorted, then diffed. */
export function sameMultiset(expected: readonly string[], actual: readonly string[]): boolean {
  if (expected.length !== actual.length) return false;
  const a = [...expected].sort();
  const b = [...actual].sort();
  return a.every((line, i) => line === b[i]);
}
