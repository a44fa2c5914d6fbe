/**
 * The one place the language server meets the run: core/run's runCorpus, configured as `check`
 * configures it (run-setup.ts: the config, its rules and severities, the previous release, the
 * suppressions file, the findings baseline), over the model the server holds instead of one read
 * from disk; messages worded for this place as check's report words them.
 */
import { DEFAULT_SUPPRESSIONS } from '../core/config/index.js';
import type { Corpus } from '../core/model/index.js';
import { planGeneration, runCorpus } from '../core/run/index.js';
import type { CorpusRun, RunResult } from '../lsp/index.js';
import { ALL_RULES, CATALOG } from './catalog.js';
import { say } from './common.js';
import { configureRun } from './run-setup.js';

/** What `check --format json` reports for a model, with no file arguments and no flags: the config alone decides. */
export function corpusRun(root: string): CorpusRun & { config: ReturnType<typeof configureRun>['config'] } {
  const { config, options } = configureRun({ root });
  return {
    config,
    rules: ALL_RULES.map((rule) => rule.id),
    // A change to either changes how the run is configured, not the corpus.
    configuration: ['openwop-spec.config.json', config.policy.suppressions ?? DEFAULT_SUPPRESSIONS],
    generate: (corpus: Corpus) => planGeneration(corpus, CATALOG.generators),
    run(corpus: Corpus, since): RunResult {
      // Every run records what its gates read, so that the next one (after an edit) re-runs only what the edit touches.
      const result = runCorpus(corpus, {
        ...options,
        reuse: {
          ...(since?.previous.pipeline ? { previous: since.previous.pipeline } : {}),
          ...(since?.changed ? { changed: since.changed } : {}),
        },
      });
      const diagnostics = result.diagnostics.map((d) => ({
        ...d,
        message: say(d.message),
        ...(d.hint !== undefined ? { hint: say(d.hint) } : {}),
      }));
      return { diagnostics, plan: result.plan ?? planGeneration(corpus, CATALOG.generators), pipeline: result };
    },
  };
}
