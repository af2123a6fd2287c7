/** The teaching commands' arguments and refusals, through the built CLI (no TTY here). */
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

describe('joinstep practice / diff / diagram arguments', () => {
  it('--help lists the three commands', () => {
    const r = cli(['--help']);
    expect(r.stdout).toContain('joinstep practice FILE [--score-out FILE]');
    expect(r.stdout).toContain('joinstep diff FILE --flink-version A [B]');
    expect(r.stdout).toContain('joinstep diagram FILE --svg OUT [--step N]');
  });

  it.each([
    [['practice', 'scenarios/temporal-eur-rate.yaml'], 'needs a terminal'],
    [['practice', 'scenarios'], 'is a directory'],
    [['practice', 'scenarios/temporal-eur-rate.yaml', '--score-out', 'scenarios/temporal-eur-rate.yaml'], '--score-out names the scenario file itself'],
    [['practice', 'scenarios/temporal-eur-rate.yaml', '--svg', 'x.svg'], "Unknown option '--svg' for `joinstep practice`: it belongs to `joinstep record` and `joinstep diagram`"],
    [['practice'], 'takes exactly one scenario file'],
    [['diagram', 'scenarios/temporal-eur-rate.yaml', '--svg', 'x.svg', '--flink-version', '2.1'], "Unknown option '--flink-version'"],
    [['diagram', 'no-such.yaml', '--svg', '/tmp/x.svg'], 'no-such.yaml:1:1: error: no such file'],
  ])('%j exits 2 with a message', (args, message) => {
    const r = cli(args);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toContain('internal error');
  });
});
