/**
 * A plain model of Flink's HeapPriorityQueueSet for the timer queue's tests: a 1-based binary
 * heap by timestamp only, dedup per (key, time) by a linear search, and add / poll / delete as
 * Flink moves timers. No persistence and no speed: written to be read against Flink's algorithm.
 */
export type Op = { k: 'add'; key: string; time: number } | { k: 'del'; key: string; time: number } | { k: 'pop'; upTo: number };

export interface T {
  time: number;
  key: string;
}

/** Flink's heap, plainly: slot 0 unused. */
export class ModelHeap {
  q: (T | undefined)[] = [undefined];
  size = 0;

  clone(): ModelHeap {
    const m = new ModelHeap();
    m.q = [...this.q];
    m.size = this.size;
    return m;
  }

  indexOf(key: string, time: number): number {
    for (let i = 1; i <= this.size; i++) if (this.q[i]!.key === key && this.q[i]!.time === time) return i;
    return -1;
  }

  add(t: T): void {
    if (this.indexOf(t.key, t.time) > 0) return;
    this.size++;
    this.q[this.size] = t;
    this.up(this.size);
  }

  removeAt(i: number): T {
    const removed = this.q[i]!;
    const last = this.size;
    if (i !== last) {
      const e = this.q[last]!;
      this.q[i] = e;
      this.down(i);
      if (this.q[i] === e) this.up(i);
    }
    this.q[last] = undefined;
    this.size--;
    return removed;
  }

  up(i: number): void {
    const e = this.q[i]!;
    while (i > 1 && e.time < this.q[i >> 1]!.time) {
      this.q[i] = this.q[i >> 1];
      i >>= 1;
    }
    this.q[i] = e;
  }

  down(i: number): void {
    const e = this.q[i]!;
    for (;;) {
      let c = 2 * i;
      if (c + 1 <= this.size && this.q[c + 1]!.time < this.q[c]!.time) c++;
      if (c > this.size || !(this.q[c]!.time < e.time)) break;
      this.q[i] = this.q[c];
      i = c;
    }
    this.q[i] = e;
  }

  apply(op: Op): T | undefined {
    if (op.k === 'add') this.add({ time: op.time, key: op.key });
    else if (op.k === 'del') {
      const i = this.indexOf(op.key, op.time);
      if (i > 0) this.removeAt(i);
    } else if (this.size > 0 && this.q[1]!.time <= op.upTo) return this.removeAt(1);
    return undefined;
  }

  /** Every timer, in the order successive polls give. */
  firing(): string[] {
    const m = this.clone();
    const out: string[] = [];
    while (m.size > 0) {
      const t = m.removeAt(1);
      out.push(`${t.time}:${t.key}`);
    }
    return out;
  }
}
