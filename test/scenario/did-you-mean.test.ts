import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, suggestionHint } from '../../src/scenario/did-you-mean.js';

describe('edit distance', () => {
  it('counts an adjacent transposition as one edit', () => {
    expect(editDistance('evnets', 'events')).toBe(1);
    expect(editDistance('ab', 'ba')).toBe(1);
  });
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});

describe('did you mean', () => {
  const keys = ['name', 'description', 'date', 'flink-version', 'watermarks', 'partitions', 'config', 'sql', 'events', 'expect'];
  it('suggests the closest key for typos', () => {
    expect(didYouMean('evnets', keys)).toBe('events');
    expect(didYouMean('flink_version', keys)).toBe('flink-version');
    expect(didYouMean('watermark', keys)).toBe('watermarks');
    expect(didYouMean('descripton', keys)).toBe('description');
  });
  it('ignores case', () => {
    expect(didYouMean('NAME', keys)).toBe('name');
  });
  it('suggests nothing for unrelated words', () => {
    expect(didYouMean('banana', keys)).toBeUndefined();
    expect(didYouMean('zz', ['sql'])).toBeUndefined();
  });
  it('matches a dotted config key given without its prefix', () => {
    expect(didYouMean('state.ttl', ['table.exec.state.ttl', 'table.local-time-zone'])).toBe('table.exec.state.ttl');
  });
  it('matches a patch version to its minor version, not to a minor one edit away', () => {
    // `2.3.0` is as far from `2.0` as from `2.3` by edits; the dotted prefix decides.
    expect(didYouMean('2.3.0', ['2.0', '2.1', '2.2', '2.3'])).toBe('2.3');
    expect(didYouMean('2.2.1', ['2.0', '2.1', '2.2', '2.3'])).toBe('2.2');
  });
  it('writes a hint with the guess, or the list of valid names', () => {
    expect(suggestionHint('evnets', keys, 'keys are', 'there are no keys')).toBe('did you mean `events`?');
    expect(suggestionHint('qqq', ['a', 'b'], 'tables are', 'no tables')).toBe('tables are: a, b');
    // With no candidates the hint is the caller's own sentence, not "there are no <list lead-in>".
    expect(suggestionHint('qqq', [], 'the queries are', 'the scenario has no queries')).toBe('the scenario has no queries');
  });
});
