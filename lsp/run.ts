/** What the server needs of the run: a model in, the findings `check --format json` reports for it (and the generation plan) out. */
import type { Corpus } from '../core/model/index.js';
import type { Diagnostic } from '../core/output/index.js';
import type { GenerationPlan, RunResult as PipelineResult } from '../core/run/index.js';

export interface RunResult {
  /** Every finding, sorted as `check` sorts them; suppressed and baseline-accepted ones marked as such. */
  diagnostics: Diagnostic[];
  plan: GenerationPlan;
  /** The pipeline's own result, handed back to the next run so that it re-runs only what the changes touch. */
  pipeline?: PipelineResult;
}

export interface CorpusRun {
  /** Every rule id, for completion inside a suppression comment. */
  rules: readonly string[];
  /** Root-relative files that configure the run (the config, the suppressions file): a change to one opens the root afresh. */
  configuration: readonly string[];
  /**
   * The findings for a model; `since`: the previous run's result and the paths changed outside the
   * model since (on disk), so that the run re-runs only the gates and generators the changes touch.
   */
  run(corpus: Corpus, since?: { previous: RunResult; changed?: readonly string[] }): RunResult;
  /** The generation plan alone, for edits that make generated output stale (a rename). */
  generate(corpus: Corpus): GenerationPlan;
}
