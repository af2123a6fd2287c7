/**
 * A runtime failure that Flink raises while evaluating an expression (division by zero, a CAST
 * that cannot parse its input, ...). The engine catches it and shows it as a user-visible error.
 */
export class SqlRuntimeError extends Error {
  readonly hint?: string;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = 'SqlRuntimeError';
    if (hint !== undefined) this.hint = hint;
  }
}
