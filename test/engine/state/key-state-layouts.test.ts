/**
 * The flat key states of the interval join (state/interval-state.ts) and the temporal join
 * (state/temporal-state.ts) against plain models: what each accessor reads after any sequence of
 * changes, and persistence — a key state handed out before the current edit (or outside one)
 * never changes, while one created in the current edit may change in place.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newEdit, useEdit } from '../../../src/engine/collections/edit.js';
import * as iv from '../../../src/engine/state/interval-state.js';
import * as tp from '../../../src/engine/state/temporal-state.js';
import type { Side } from '../../../src/planner/plan.js';
import type { Row, RowKind } from '../../../src/values/types.js';

type IOp = { k: 'add'; side: Side; time: number } | { k: 'drop'; side: Side; n: number } | { k: 'join'; side: Side; i: number } | { k: 'clean'; side: Side; at: number | undefined };

interface IModel {
  rows: [{ time: number; row: Row; joined: boolean }[], { time: number; row: Row; joined: boolean }[]];
  cleanup: [number | undefined, number | undefined];
}

const sideArb = fc.constantFrom<Side>(0, 1);
const iOpArb: fc.Arbitrary<IOp> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ k: fc.constant('add' as const), side: sideArb, time: fc.integer({ min: -5, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('drop' as const), side: sideArb, n: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('join' as const), side: sideArb, i: fc.nat(40) }) },
  { weight: 1, arbitrary: fc.record({ k: fc.constant('clean' as const), side: sideArb, at: fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined }) }) },
);

let rowId = 0;
const newRow = (): Row => [`r${rowId++}`];

function iApply(ks: iv.IntervalKeyState, m: IModel, op: IOp): iv.IntervalKeyState {
  const rows = m.rows[op.side];
  if (op.k === 'add') {
    const row = newRow();
    let at = rows.length;
    while (at > 0 && (rows[at - 1]?.time ?? 0) > op.time) at--;
    // A late put: a time new to the side, put while a later one is cached; reported with the latest.
    const late = at < rows.length && !rows.some((r) => r.time === op.time) ? rows[rows.length - 1]?.time : undefined;
    rows.splice(at, 0, { time: op.time, row, joined: op.time % 2 === 0 });
    m.cleanup[op.side] = op.time + 100;
    const put: iv.PutOutcome = { latestAtLatePut: -1 };
    const next = iv.withRow(ks, op.side, op.time, row, op.time % 2 === 0, op.time + 100, put);
    expect(put.latestAtLatePut).toBe(late);
    return next;
  }
  if (op.k === 'drop') {
    const n = Math.min(op.n, rows.length);
    rows.splice(0, n);
    return iv.withoutFirst(ks, op.side, n);
  }
  if (op.k === 'join') {
    if (rows.length === 0) return ks;
    const i = op.i % rows.length;
    (rows[i] as { joined: boolean }).joined = true;
    const w = iv.writable(ks);
    iv.setJoined(w, op.side, i);
    return w;
  }
  m.cleanup[op.side] = op.at;
  const w = iv.writable(ks);
  iv.setCleanup(w, op.side, op.at);
  return w;
}

function iRead(ks: iv.IntervalKeyState): string {
  const sides = ([0, 1] as const).map((s) => {
    const out: string[] = [];
    for (let i = 0; i < iv.cacheSize(ks, s); i++) out.push(`${iv.timeAt(ks, s, i)}:${String(iv.rowAt(ks, s, i)[0])}:${iv.joinedAt(ks, s, i)}`);
    return `${out.join(',')}|${iv.cleanupOf(ks, s)}`;
  });
  return `${iv.keySideOf(ks)} ${String(iv.keyRowOf(ks)[0])} ${sides.join(' / ')} ${iv.isEmptyKey(ks)}`;
}

/** An inner side keeps no joined flag (nothing reads it): it reads as false. */
function iModelRead(m: IModel, keySide: Side, keyRow: Row, outer: readonly [boolean, boolean]): string {
  const sides = ([0, 1] as const).map((s) => `${m.rows[s].map((r) => `${r.time}:${String(r.row[0])}:${r.joined && outer[s]}`).join(',')}|${m.cleanup[s]}`);
  const empty = m.rows[0].length === 0 && m.rows[1].length === 0 && m.cleanup[0] === undefined && m.cleanup[1] === undefined;
  return `${keySide} ${String(keyRow[0])} ${sides.join(' / ')} ${empty}`;
}

describe('interval key state (one flat array per key)', () => {
  it('reads like the model after any changes, and never changes a state handed out before the edit', () => {
    fc.assert(
      // Long enough scripts that caches pass the in-place growth threshold (16 rows).
      fc.property(sideArb, fc.array(iOpArb, { minLength: 80, maxLength: 250 }), fc.integer({ min: 1, max: 40 }), fc.boolean(), fc.boolean(), (side, ops, editEvery, o0, o1) => {
        const outer = [o0, o1] as const;
        const keyRow = newRow();
        const m: IModel = { rows: [[], []], cleanup: [undefined, undefined] };
        m.rows[side].push({ time: 0, row: keyRow, joined: false });
        m.cleanup[side] = 7;
        let ks: iv.IntervalKeyState = iv.newKeyState(iv.layoutOf(o0, o1), side, keyRow, 0, false, 7);
        const kept: { ks: iv.IntervalKeyState; read: string }[] = [];
        let edit = newEdit();
        try {
          ops.forEach((op, i) => {
            if (i % editEvery === 0) {
              kept.push({ ks, read: iRead(ks) });
              edit = newEdit();
            }
            useEdit(i % 5 === 2 ? null : edit);
            ks = iApply(ks, m, op);
            useEdit(null);
            expect(iRead(ks)).toBe(iModelRead(m, side, keyRow, outer));
          });
        } finally {
          useEdit(null);
        }
        for (const k of kept) expect(iRead(k.ks)).toBe(k.read);
      }),
      { numRuns: 200 },
    );
  });

  it('grows a large state created in the current edit in place, and copies one from before', () => {
    let ks: iv.IntervalKeyState = iv.newKeyState(iv.layoutOf(true, false), 0, newRow(), 0, false, 5);
    const put: iv.PutOutcome = { latestAtLatePut: undefined };
    const edit = newEdit();
    useEdit(edit);
    try {
      for (let t = 1; t < 40; t++) ks = iv.withRow(ks, 0, t, newRow(), false, 5, put);
      const big = ks;
      expect(iv.withRow(big, 1, 3, newRow(), false, 9, put)).toBe(big);
      useEdit(newEdit());
      const copy = iv.withRow(big, 1, 4, newRow(), false, 9, put);
      expect(copy).not.toBe(big);
      expect(iv.cacheSize(big, 1)).toBe(1);
      expect(iv.cacheSize(copy, 1)).toBe(2);
    } finally {
      useEdit(null);
    }
  });
});

type TOp = { k: 'probe'; time: number } | { k: 'version'; time: number; kind: RowKind } | { k: 'release'; wm: number };

interface TModel {
  probes: { seq: number; time: number; row: Row }[];
  versions: { time: number; kind: RowKind; row: Row }[];
  seq: number;
}

const tOpArb: fc.Arbitrary<TOp> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ k: fc.constant('probe' as const), time: fc.integer({ min: 0, max: 40 }) }) },
  { weight: 3, arbitrary: fc.record({ k: fc.constant('version' as const), time: fc.integer({ min: 0, max: 40 }), kind: fc.constantFrom<RowKind>('+I', '+U', '-D') }) },
  { weight: 2, arbitrary: fc.record({ k: fc.constant('release' as const), wm: fc.integer({ min: 0, max: 40 }) }) },
);

function tApply(ks: tp.TemporalKeyState, m: TModel, op: TOp): tp.TemporalKeyState {
  const row = newRow();
  if (op.k === 'probe') {
    m.probes.push({ seq: m.seq, time: op.time, row });
    const w = tp.withProbe(ks, m.seq, op.time, '+I', row);
    m.seq++;
    tp.setNextSeq(w, m.seq);
    return w;
  }
  if (op.k === 'version') {
    const same = m.versions.findIndex((v) => v.time === op.time);
    if (same >= 0) m.versions[same] = { time: op.time, kind: op.kind, row };
    else {
      m.versions.push({ time: op.time, kind: op.kind, row });
      m.versions.sort((a, b) => a.time - b.time);
    }
    return tp.withVersion(ks, op.time, op.kind, row);
  }
  // Flink's cleanupExpiredVersionInState on the model: keep the last version <= wm and newer ones.
  const gone = tp.expiredVersions(ks, op.wm);
  const lastOld = m.versions.filter((v) => v.time <= op.wm).length - 1;
  expect(gone).toBe(Math.max(lastOld, 0));
  m.probes = m.probes.filter((p) => p.time > op.wm);
  m.versions = m.versions.slice(gone);
  return tp.withReleased(ks, op.wm, gone);
}

function tRead(ks: tp.TemporalKeyState, at: number): string {
  const probes: string[] = [];
  for (let i = 0; i < tp.probeCount(ks); i++) probes.push(`${tp.probeSeq(ks, i)}@${tp.probeTime(ks, i)}:${String(tp.probeRow(ks, i)[0])}:${tp.probeKind(ks, i)}`);
  const versions: string[] = [];
  for (let i = 0; i < tp.versionCount(ks); i++) versions.push(`${tp.versionTime(ks, i)}:${tp.versionKind(ks, i)}:${String(tp.versionRow(ks, i)[0])}`);
  return `${tp.printedKeyOf(ks)} ${tp.nextSeqOf(ks)} ${probes.join(',')} | ${versions.join(',')} | at ${at}: ${tp.versionAt(ks, at)}`;
}

function tModelRead(m: TModel, at: number): string {
  const probes = m.probes.map((p) => `${p.seq}@${p.time}:${String(p.row[0])}:+I`);
  const versions = m.versions.map((v) => `${v.time}:${v.kind}:${String(v.row[0])}`);
  const inUse = m.versions.filter((v) => v.time <= at).length - 1;
  return `K ${m.seq === 0 ? undefined : m.seq} ${probes.join(',')} | ${versions.join(',')} | at ${at}: ${inUse}`;
}

describe('temporal key state (one flat array per key)', () => {
  it('reads like the model after any changes, and never changes a state handed out before the edit', () => {
    fc.assert(
      fc.property(fc.array(tOpArb, { minLength: 40, maxLength: 250 }), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 40 }), (ops, editEvery, at) => {
        const m: TModel = { probes: [], versions: [], seq: 0 };
        let ks: tp.TemporalKeyState = tp.newTKey('K');
        expect(tp.isEmptyTKey(ks)).toBe(true);
        const kept: { ks: tp.TemporalKeyState; read: string }[] = [];
        let edit = newEdit();
        try {
          ops.forEach((op, i) => {
            if (i % editEvery === 0) {
              kept.push({ ks, read: tRead(ks, at) });
              edit = newEdit();
            }
            useEdit(i % 5 === 2 ? null : edit);
            ks = tApply(ks, m, op);
            useEdit(null);
            expect(tRead(ks, at)).toBe(tModelRead(m, at));
          });
        } finally {
          useEdit(null);
        }
        for (const k of kept) expect(tRead(k.ks, at)).toBe(k.read);
      }),
      { numRuns: 200 },
    );
  });
});
