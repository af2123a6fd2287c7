/**
 * The order in which Flink's heap MapState hands out a join key's records (and, for the interval
 * join, its row times: see longHash; the bucket and chain rules below are the same).
 *
 * The regular and semi/anti joins keep a side whose layout is InputSideHasNoUniqueKey (record ->
 * count) or InputSideHasUniqueKey (unique key -> record) in a MapState. On the heap state backend
 * the map of one join key is a java.util.HashMap whose keys are BinaryRowData: the whole record
 * (its RowKind erased to INSERT before the state is written) or the unique key's projection. So
 * several matches come out in that HashMap's iteration order, which follows from the rows' bytes:
 *
 *   hash     BinaryRowData.hashCode: Murmur3 (seed 42) over the row's bytes, 4 bytes at a time;
 *   bucket   (h ^ h >>> 16) & (capacity - 1), capacity 16 doubling whenever the size passes
 *            0.75 x capacity (a key's map is dropped when its last entry is removed, so an emptied
 *            key starts again at 16);
 *   chain    within a bucket, the order the keys were first put (a put on an existing key keeps
 *            its place; a resize splits a chain keeping relative order).
 *
 * The row's bytes (BinaryRowWriter's layout): a null-bit region of ((arity + 63 + 8) / 64) words
 * whose first byte is the RowKind; one 8-byte little-endian slot per field (ints, longs, floats,
 * compact DECIMAL(p <= 18) as the unscaled long, compact TIMESTAMP(p <= 3) as epoch millis; a
 * string of at most 7 UTF-8 bytes inline with 0x80 | length in the slot's last byte); then a
 * variable part, each value padded to a word, its slot holding (offset << 32 | length).
 *
 * Not modelled: HashMap's tree bins (a chain of 8+ colliding keys: below 64 buckets the map
 * doubles instead, above it the chain becomes a tree ordered otherwise); with 32-bit hashes that
 * takes dozens of records under one join key, each colliding on the low bits.
 */
import type { Row, SqlType, Value } from '../../values/types.js';

/** The bytes of a BinaryRowData holding `values` of `types`, RowKind INSERT. */
export function binaryRowBytes(values: readonly Value[], types: readonly SqlType[]): Uint8Array {
  const arity = values.length;
  const nullBytes = Math.floor((arity + 63 + 8) / 64) * 8;
  const fixed = nullBytes + 8 * arity;
  const vars: Uint8Array[] = [];
  let varLen = 0;
  const head = new Uint8Array(fixed);
  const view = new DataView(head.buffer);
  const putVar = (i: number, bytes: Uint8Array, reserved: number): void => {
    // Offset from the row's start, then length (or nano-of-milli for a long timestamp).
    view.setUint32(nullBytes + 8 * i + 4, fixed + varLen, true);
    const padded = new Uint8Array(Math.ceil(reserved / 8) * 8);
    padded.set(bytes);
    vars.push(padded);
    varLen += padded.length;
  };
  for (let i = 0; i < arity; i++) {
    const v = values[i] ?? null;
    const t = types[i] as SqlType;
    const slot = nullBytes + 8 * i;
    if (v === null) {
      const bit = i + 8;
      head[bit >>> 3] = (head[bit >>> 3] as number) | (1 << (bit & 7));
      continue;
    }
    switch (t.kind) {
      case 'BOOLEAN':
        head[slot] = v === true ? 1 : 0;
        break;
      case 'TINYINT':
        view.setInt8(slot, Number(v));
        break;
      case 'SMALLINT':
        view.setInt16(slot, Number(v), true);
        break;
      case 'INT':
      case 'DATE':
      case 'TIME':
        view.setInt32(slot, Number(v), true);
        break;
      case 'BIGINT':
        view.setBigInt64(slot, BigInt(Math.trunc(Number(v))), true);
        break;
      case 'FLOAT':
        view.setFloat32(slot, Number(v), true);
        break;
      case 'DOUBLE':
        view.setFloat64(slot, Number(v), true);
        break;
      case 'DECIMAL': {
        const unscaled = unscaledOf(String(v), t.scale ?? 0);
        if ((t.precision ?? 10) <= 18) view.setBigInt64(slot, unscaled, true);
        else {
          const bytes = twosComplementBytes(unscaled);
          putVar(i, bytes, 16);
          view.setUint32(slot, bytes.length, true);
        }
        break;
      }
      case 'TIMESTAMP':
      case 'TIMESTAMP_LTZ': {
        const n = Number(v);
        const millis = Math.floor(n);
        if ((t.precision ?? 6) <= 3) view.setBigInt64(slot, BigInt(millis), true);
        else {
          const word = new Uint8Array(8);
          new DataView(word.buffer).setBigInt64(0, BigInt(millis), true);
          putVar(i, word, 8);
          view.setUint32(slot, Math.round((n - millis) * 1e6), true);
        }
        break;
      }
      default: {
        const bytes = new TextEncoder().encode(String(v));
        if (bytes.length <= 7) {
          head.set(bytes, slot);
          head[slot + 7] = 0x80 | bytes.length;
        } else {
          putVar(i, bytes, bytes.length);
          view.setUint32(slot, bytes.length, true);
        }
      }
    }
  }
  const out = new Uint8Array(fixed + varLen);
  out.set(head);
  let at = fixed;
  for (const b of vars) {
    out.set(b, at);
    at += b.length;
  }
  return out;
}

/** A DECIMAL's canonical text ("-12.50") as its unscaled integer at `scale`. */
function unscaledOf(text: string, scale: number): bigint {
  const neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  const [whole = '0', frac = ''] = body.split('.');
  const digits = whole + frac.padEnd(scale, '0').slice(0, scale);
  const n = BigInt(digits === '' ? '0' : digits);
  return neg ? -n : n;
}

/** java.math.BigInteger.toByteArray: minimal big-endian two's complement. */
function twosComplementBytes(n: bigint): Uint8Array {
  let len = 1;
  while (n >= 1n << BigInt(8 * len - 1) || n < -(1n << BigInt(8 * len - 1))) len++;
  const out = new Uint8Array(len);
  let x = BigInt.asUintN(8 * len, n);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return out;
}

/** Murmur3 x86 32-bit, seed 42, over `bytes` (a multiple of 4 long) read as little-endian ints. */
export function murmurWords(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let h = 42;
  for (let i = 0; i < bytes.length; i += 4) {
    let k = view.getInt32(i, true);
    k = Math.imul(k, 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/** BinaryRowData.hashCode of `values` (RowKind INSERT). */
export function binaryRowHash(values: readonly Value[], types: readonly SqlType[]): number {
  return murmurWords(binaryRowBytes(values, types));
}

/**
 * java.lang.Long.hashCode: (int) (v ^ (v >>> 32)), the key hash of the interval join's time maps
 * (TimeIntervalJoin keeps each side's rows in a MapState from row time, a Long, to rows).
 */
export function longHash(v: number): number {
  const high = Math.floor(v / 4294967296);
  return ((v - high * 4294967296) | 0) ^ (high | 0);
}

/** The capacity of a HashMap that has grown to `size` entries from the default 16. */
export function hashMapCapacity(size: number): number {
  let cap = 16;
  while (size > cap * 0.75) cap *= 2;
  return cap;
}

/** The bucket of hash `h` in a HashMap of `capacity` buckets. */
export function hashMapBucket(h: number, capacity: number): number {
  return (h ^ (h >>> 16)) & (capacity - 1);
}

const hashes = new WeakMap<object, WeakMap<Row, number>>();

/**
 * The map-key hash of a stored row, remembered per row object and per `owner` (the side whose
 * layout decides what the map key is): each row is hashed at most once per side.
 */
export function cachedMapKeyHash(owner: object, row: Row, compute: (row: Row) => number): number {
  let m = hashes.get(owner);
  if (m === undefined) {
    m = new WeakMap();
    hashes.set(owner, m);
  }
  let h = m.get(row);
  if (h === undefined) {
    h = compute(row);
    m.set(row, h);
  }
  return h;
}

/**
 * Entries (each with its map-key hash and the sequence number of its first put) in a HashMap's
 * iteration order: by bucket under the capacity the map's largest size since it was created
 * implies (`peakSize`), then by first put.
 */
export function inHashMapOrder<E>(entries: readonly E[], peakSize: number, hashOf: (e: E) => number, seqOf: (e: E) => number): E[] {
  const cap = hashMapCapacity(peakSize);
  const keyed = entries.map((e) => ({ e, b: hashMapBucket(hashOf(e), cap), s: seqOf(e) }));
  keyed.sort((x, y) => x.b - y.b || x.s - y.s);
  return keyed.map((k) => k.e);
}
