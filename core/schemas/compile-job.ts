/**
 * One batch of schemas compiled in a throwaway ajv, as plain data in and out, so that the same
 * function serves the main thread and the compile thread.
 */
import { createAjv } from './json-schema.js';

export interface CompileJob {
  /** The batch's cache key: a digest of everything its answer depends on. */
  key: string;
  keywords: readonly string[];
  /** Every schema the batch reaches, with the `$id` it is registered under. */
  schemas: { id: string; value: object }[];
  targets: { file: string; pointer: string; id: string }[];
}

export interface JobFailure {
  file: string;
  pointer: string;
  message: string;
  missingRef: boolean;
  stackOverflow: boolean;
}

export function compileJob(job: CompileJob): JobFailure[] {
  // Every schema has already been held to the meta-schema where the corpus registered it.
  const ajv = createAjv(job.keywords, { validateSchema: false });
  for (const { id, value } of job.schemas) {
    try {
      ajv.addSchema(value, id);
    } catch {
      // Registering it failed in the corpus ajv as well, where it is reported.
    }
  }
  const failures: JobFailure[] = [];
  for (const target of job.targets) {
    try {
      if (!ajv.getSchema(target.pointer ? `${target.id}#${target.pointer}` : target.id)) throw new Error(`cannot compile ${target.id}#${target.pointer}`);
    } catch (error) {
      failures.push({
        file: target.file,
        pointer: target.pointer,
        message: error instanceof Error ? error.message : String(error),
        missingRef: error instanceof Error && 'missingRef' in error,
        stackOverflow: error instanceof RangeError,
      });
    }
  }
  return failures;
}
