/**
 * The thread that compiles schema batches beside the main one (compile-thread.ts starts it). Its
 * input is data (each batch's schemas, their `$id`s, the targets), its output the failures as data,
 * so what it answers is exactly what the same batch compiled on the main thread would give.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { compileJob, type CompileJob } from './compile-job.js';

interface Start {
  jobs: CompileJob[];
  port: MessagePort;
  /** [0]: batches answered so far, or -1 once the thread has failed. */
  progress: Int32Array;
}

const { jobs, port, progress } = workerData as Start;
try {
  for (const job of jobs) {
    port.postMessage({ key: job.key, failures: compileJob(job) });
    Atomics.add(progress, 0, 1);
    Atomics.notify(progress, 0);
  }
} catch (error) {
  port.postMessage({ error: error instanceof Error ? error.message : String(error) });
  Atomics.store(progress, 0, -1);
  Atomics.notify(progress, 0);
}
parentPort?.close();
