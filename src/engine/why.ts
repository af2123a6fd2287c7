/**
 * Whys in bulk runs: a run without traces (`Collector.tracing` false) keeps only each
 * emitted row's rule, so that a million-event run builds no text. The full reason is rebuilt on
 * demand by replaying the row's step with tracing on (Timeline.whyOf / changelogRange).
 */
import type { Collector, Why } from './types.js';

const BULK = new Map<string, Why>();

/**
 * The last two rules asked for and their Whys: a bulk run asks once per emitted row, mostly for
 * one or two rules in turn (matched and padded), and comparing a rule name costs less than the
 * map's lookup.
 */
let lastRule: string | undefined;
let lastWhy: Why | undefined;
let otherRule: string | undefined;
let otherWhy: Why | undefined;

/** The shared, text-free Why of a rule (one frozen object per rule). */
export function bulkWhy(rule: string): Why {
  if (rule === lastRule) return lastWhy!;
  let w: Why | undefined;
  if (rule === otherRule) w = otherWhy!;
  else {
    w = BULK.get(rule);
    if (w === undefined) {
      w = Object.freeze({ rule, text: '' });
      BULK.set(rule, w);
    }
  }
  otherRule = lastRule;
  otherWhy = lastWhy;
  lastRule = rule;
  lastWhy = w;
  return w;
}

/** A Why whose text and rows are built only when the collector keeps them. */
export function whyOf(out: Collector, rule: string, text: () => string, rows?: () => readonly string[]): Why {
  if (!out.tracing) return bulkWhy(rule);
  return rows === undefined ? { rule, text: text() } : { rule, text: text(), rows: rows() };
}

/** A bulk Why carries no text: its full form must be rebuilt by a traced replay. */
export function isBulkWhy(w: Why): boolean {
  return BULK.get(w.rule) === w;
}
