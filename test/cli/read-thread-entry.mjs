// The worker's entry for read-thread-runner.ts: a worker does not inherit `--import tsx`, so it
// registers tsx itself before loading the runner (which then serves as the read thread).
import { register } from 'tsx/esm/api';

register();
await import('./read-thread-runner.ts');
