/**
 * The JVMs of one command: started lazily, one per Flink minor version, shared by every scenario
 * the command runs, all closed at the end. A version whose harness cannot be built or started is
 * remembered, so a directory of scenarios reports it once per file without retrying the build.
 */
import { HarnessBuildError } from './harness-build.js';
import { FlinkHarness, HarnessError } from './harness-client.js';

export type PoolEntry = { readonly ok: true; readonly harness: FlinkHarness } | { readonly ok: false; readonly message: string; readonly hint: string };

export class HarnessPool {
  private readonly started = new Map<string, Promise<PoolEntry>>();

  get(minor: string): Promise<PoolEntry> {
    let entry = this.started.get(minor);
    if (entry === undefined) {
      entry = FlinkHarness.start(minor).then(
        (harness): PoolEntry => ({ ok: true, harness }),
        (error: unknown): PoolEntry => {
          if (error instanceof HarnessError || error instanceof HarnessBuildError) return { ok: false, message: error.message, hint: error.hint };
          throw error;
        },
      );
      this.started.set(minor, entry);
    }
    return entry;
  }

  async closeAll(): Promise<void> {
    const entries = await Promise.allSettled([...this.started.values()]);
    await Promise.all(entries.map((e) => (e.status === 'fulfilled' && e.value.ok ? e.value.harness.close() : undefined)));
    this.started.clear();
  }
}
