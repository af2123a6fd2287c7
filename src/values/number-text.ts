/**
 * A number as the user wrote it in YAML, for messages. JavaScript's own text of a non-finite
 * number ("NaN", "Infinity") is not what the file says and reads like an internal leak; YAML
 * spells these `.nan`, `.inf` and `-.inf`.
 */
export function yamlNumberText(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  return String(n);
}
