/**
 * A literal model of java.util.HashMap's bucket table, for checking the order in which joinstep
 * hands out several matches: a table of chains, put appends a new key at its chain's tail (an
 * existing key keeps its node), remove unlinks, the table doubles when the size passes 0.75 x its
 * length (each chain split into a low and a high chain, keeping order), a chain reaching 8 nodes
 * in a table under 64 doubles it too, and iteration walks the buckets in order. Heap MapState
 * drops a key's map when it empties: `remove` of the last key resets the table.
 *
 * It is independent of src/engine/state/flink-map-order.ts (which derives the order from the
 * entries and a peak size instead of replaying operations); only the key hash is shared, and that
 * is checked against real Flink's hash values in flink-map-order.test.ts.
 */
export class JavaHashMapModel<V> {
  private table: { hash: number; key: string; value: V }[][] = [];

  constructor(private readonly hashOf: (key: string) => number) {}

  private index(hash: number, length: number): number {
    return (hash ^ (hash >>> 16)) & (length - 1);
  }

  private resize(): void {
    const length = this.table.length === 0 ? 16 : this.table.length * 2;
    const next: { hash: number; key: string; value: V }[][] = Array.from({ length }, () => []);
    for (const chain of this.table) for (const node of chain) next[this.index(node.hash, length)]?.push(node);
    this.table = next;
  }

  get size(): number {
    return this.table.reduce((n, c) => n + c.length, 0);
  }

  put(key: string, value: V): void {
    if (this.table.length === 0) this.resize();
    const hash = this.hashOf(key);
    const chain = this.table[this.index(hash, this.table.length)] as { hash: number; key: string; value: V }[];
    const node = chain.find((n) => n.key === key);
    if (node !== undefined) {
      node.value = value;
      return;
    }
    chain.push({ hash, key, value });
    // treeifyBin on a table under 64 buckets resizes instead
    if (chain.length > 8 && this.table.length < 64) this.resize();
    if (this.size > this.table.length * 0.75) this.resize();
  }

  get(key: string): V | undefined {
    if (this.table.length === 0) return undefined;
    return this.table[this.index(this.hashOf(key), this.table.length)]?.find((n) => n.key === key)?.value;
  }

  remove(key: string): void {
    if (this.table.length === 0) return;
    const chain = this.table[this.index(this.hashOf(key), this.table.length)] as { key: string }[];
    const at = chain.findIndex((n) => n.key === key);
    if (at >= 0) chain.splice(at, 1);
    if (this.size === 0) this.table = [];
  }

  /** Entries in iteration order. */
  entries(): [string, V][] {
    return this.table.flatMap((chain) => chain.map((n): [string, V] => [n.key, n.value]));
  }
}
