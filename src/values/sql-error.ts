/**
 * A runtime failure that Flink raises while evaluating an expression (division by zero, a CAST
 * that cannot parse its input, ...). The engine catches it and shows it as a user-visible error.
 */
import { printable } from './printable.js';

export class SqlRuntimeError extends Error {
  readonly hint?: string;
  constructor(message: string, hint?: string) {
    // a failed CAST quotes the row's value, which may hold ESC or other invisible characters
    super(printable(message));
    this.name = 'SqlRuntimeError';
    if (hint !== undefined) this.hint = printable(hint);
  }
}
