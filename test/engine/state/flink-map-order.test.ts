/**
 * Flink's MapState order (src/engine/state/flink-map-order.ts). The hash values are real Flink's:
 * BinaryRowData.hashCode of rows built by the harness on Flink 2.3.0 (documented in the harness
 * findings for regular-segment-upgrade.yaml). Orders are checked against a literal model of
 * java.util.HashMap (java-hash-map-model.ts).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { binaryRowBytes, binaryRowHash, hashMapBucket, hashMapCapacity, inHashMapOrder, longHash } from '../../../src/engine/state/flink-map-order.js';
import type { SqlType } from '../../../src/values/types.js';
import { JavaHashMapModel } from '../joins/java-hash-map-model.js';

const STR: SqlType = { kind: 'STRING', nullable: true };
const DEC10: SqlType = { kind: 'DECIMAL', nullable: true, precision: 10, scale: 2 };
const INT: SqlType = { kind: 'INT', nullable: true };

describe('BinaryRowData hash', () => {
  it("matches real Flink's hashCode for two order rows", () => {
    expect(binaryRowHash(['o1', 'c1', '100.00'], [STR, STR, DEC10])).toBe(266702400);
    expect(binaryRowHash(['o2', 'c1', '50.00'], [STR, STR, DEC10])).toBe(-450338853);
    // and the buckets the findings derive from them: o2 (3) before o1 (5) in 16 buckets
    expect(hashMapBucket(266702400, 16)).toBe(5);
    expect(hashMapBucket(-450338853, 16)).toBe(3);
  });

  it('lays a row out as BinaryRowWriter does', () => {
    // 3 fields: one null-bit word (row kind byte 0, null bits from bit 8), three 8-byte slots
    const short = binaryRowBytes(['abc', null, 7], [STR, INT, INT]);
    expect(short.length).toBe(8 + 3 * 8);
    expect(short[0]).toBe(0); // RowKind INSERT
    expect(short[1]).toBe(0b10); // field 1 is null: bit 9
    expect([...short.slice(8, 16)]).toEqual([0x61, 0x62, 0x63, 0, 0, 0, 0, 0x83]); // inline string, 0x80 | length
    expect([...short.slice(24, 28)]).toEqual([7, 0, 0, 0]);
    // a string of 8+ bytes goes to the variable part, padded to a word; the slot holds offset << 32 | length
    const long = binaryRowBytes(['abcdefghi'], [STR]);
    expect(long.length).toBe(8 + 8 + 16);
    expect([...long.slice(8, 16)]).toEqual([9, 0, 0, 0, 16, 0, 0, 0]);
    expect(new TextDecoder().decode(long.slice(16, 25))).toBe('abcdefghi');
  });
});

describe('HashMap order', () => {
  it('grows 16 -> 32 past 12 entries, 32 -> 64 past 24', () => {
    expect([1, 12, 13, 24, 25, 48, 49].map(hashMapCapacity)).toEqual([16, 16, 32, 32, 64, 64, 128]);
  });

  it('orders entries as a java.util.HashMap that received the same puts iterates them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 12 }), { minLength: 2, maxLength: 40 }), (keys) => {
        const hash = (k: string) => binaryRowHash([k], [STR]);
        const model = new JavaHashMapModel<number>(hash);
        keys.forEach((k, i) => model.put(k, i));
        // the model resizes early for a 9-node chain (tree bins), which the module does not model
        fc.pre(model.entries().length === keys.length && hashMapCapacity(keys.length) === capacityOf(model, keys.length));
        const ordered = inHashMapOrder(keys.map((k, seq) => ({ k, seq })), keys.length, (e) => hash(e.k), (e) => e.seq);
        expect(ordered.map((e) => e.k)).toEqual(model.entries().map(([k]) => k));
      }),
    );
  });
});

describe('Long keys (the interval join time maps)', () => {
  // java.lang.Long.hashCode as the JDK defines it: (int) (value ^ (value >>> 32)), in 64-bit arithmetic.
  const javaLongHash = (v: number): number => {
    const u = BigInt.asUintN(64, BigInt(v));
    return Number(BigInt.asIntN(32, u ^ (u >> 32n)));
  };

  it('hashes as Long.hashCode', () => {
    expect(longHash(1000)).toBe(1000);
    expect(longHash(-1)).toBe(0);
    expect(longHash(2 ** 32)).toBe(1);
    expect(longHash(-2)).toBe(1);
    fc.assert(fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (v) => {
        expect(longHash(v)).toBe(javaLongHash(v));
      }),
    );
  });

  it('orders row times put in ascending order as a java.util.HashMap iterates them', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 41 }), { minLength: 2, maxLength: 40 }), (times) => {
        const sorted = [...times].sort((a, b) => a - b);
        const model = new JavaHashMapModel<number>((k) => longHash(Number(k)));
        sorted.forEach((t) => model.put(String(t), t));
        fc.pre(model.entries().length === sorted.length && hashMapCapacity(sorted.length) === capacityOf(model, sorted.length));
        const ordered = inHashMapOrder(sorted, sorted.length, longHash, (t) => t);
        expect(ordered.map(String)).toEqual(model.entries().map(([k]) => k));
      }),
    );
  });
});

function capacityOf(model: JavaHashMapModel<number>, size: number): number {
  return (model as unknown as { table: unknown[] }).table.length || hashMapCapacity(size);
}
