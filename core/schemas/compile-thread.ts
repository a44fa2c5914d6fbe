/**
 * Compiling schemas on a second thread while the main one parses, plans and runs the other gates.
 * ajv's compile is most of a cold run on a corpus with large schemas, and the machines it runs on
 * (a laptop, a CI runner) have at least two cores. The thread is started as soon as the corpus is
 * loaded; the gate that needs its answers waits for them, synchronously (Atomics.wait), since
 * gates are synchronous. Whatever stops the thread from answering (it cannot be started, it
 * fails, it is silent too long) leaves the batch to be compiled on the main thread, so the answer
 * never depends on the thread.
 *
 * It is off unless OPENWOP_SPEC_THREADS=1. Measured on the two-vCPU machines this project runs on,
 * two CPU-bound processes at once each take twice as long as one alone (the vCPUs share one core's
 * throughput), so the thread saved no wall time and cost a third more CPU and 50 MiB; where two
 * real cores are free it overlaps the compile with the rest of the run.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { MessagePort, Worker } from 'node:worker_threads';
import { toolRoot } from '../tool/index.js';
import type { CompileJob, JobFailure } from './compile-job.js';

/** How long the thread may go without answering a batch before the main thread stops waiting. */
const SILENCE_MS = 120_000;

export class CompileThread {
  private readonly answers = new Map<string, JobFailure[]>();
  private received = 0;
  private failed = false;

  private constructor(
    private readonly worker: Worker,
    private readonly port: MessagePort,
    /** [0]: batches the thread has answered, or -1 once it has failed. */
    private readonly progress: Int32Array,
    private readonly keys: ReadonlySet<string>,
  ) {}

  /** Whether a thread can be started at all (it is opt-in): when not, nothing should be prepared for it. */
  static available(): boolean {
    return workerEntry() !== undefined;
  }

  /** Starts compiling `jobs` on a thread; undefined when no thread can run them (then the caller compiles). */
  static start(jobs: CompileJob[]): CompileThread | undefined {
    const entry = workerEntry();
    if (!entry || jobs.length === 0) return undefined;
    // Loaded only here: the thread is opt-in, and a run without it never pays for loading worker_threads.
    const { MessageChannel, Worker } = workerThreads();
    const { port1, port2 } = new MessageChannel();
    const progress = new Int32Array(new SharedArrayBuffer(4));
    let worker: Worker;
    try {
      worker = new Worker(entry, { workerData: { jobs, port: port2, progress }, transferList: [port2], stdout: true, stderr: true });
    } catch {
      return undefined;
    }
    // The process ends when the main thread is done, whether or not the thread still compiles.
    worker.unref();
    port1.unref();
    return new CompileThread(worker, port1, progress, new Set(jobs.map((job) => job.key)));
  }

  /** The failures of the batch under `key`, once the thread has compiled it; undefined if it will not. */
  failuresOf(key: string): JobFailure[] | undefined {
    if (!this.keys.has(key)) return undefined;
    while (!this.failed && !this.answers.has(key)) {
      this.drain();
      if (this.answers.has(key) || this.failed) break;
      const seen = Atomics.load(this.progress, 0);
      if (seen === -1) {
        this.drain();
        this.stop();
        break;
      }
      if (seen > this.received) continue;
      if (Atomics.wait(this.progress, 0, seen, SILENCE_MS) === 'timed-out') this.stop();
    }
    return this.answers.get(key);
  }

  private drain(): void {
    const { receiveMessageOnPort } = workerThreads();
    for (let message = receiveMessageOnPort(this.port); message; message = receiveMessageOnPort(this.port)) {
      const answer = message.message as { key?: string; failures?: JobFailure[]; error?: string };
      if (typeof answer.key === 'string' && Array.isArray(answer.failures)) {
        this.answers.set(answer.key, answer.failures);
        this.received++;
      } else {
        this.failed = true;
      }
    }
  }

  private stop(): void {
    this.failed = true;
    void this.worker.terminate();
  }
}

function workerThreads(): typeof import('node:worker_threads') {
  return process.getBuiltinModule('node:worker_threads');
}

/**
 * The thread's module: the bundled one beside the bundled command line, else tsc's. Under vitest
 * (the sources run as TypeScript) there is none to load, and everything compiles on the main thread.
 */
function workerEntry(): string | undefined {
  if (process.env.OPENWOP_SPEC_THREADS !== '1' || import.meta.url.endsWith('.ts')) return undefined;
  for (const candidate of [path.join(toolRoot(), 'dist', 'scripts', 'compile-worker.js'), path.join(toolRoot(), 'dist', 'core', 'schemas', 'compile-worker.js')]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
