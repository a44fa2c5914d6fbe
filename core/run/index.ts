/** The contracts of gates and generators, the engine that runs them over one model, generation planning, the fixes findings carry, and the run every verb calls (pipeline.ts). */
export { countOutputs, countRegionId, regionOutputs } from './counts.js';
export {
  type Check,
  type CheckContext,
  type GenerationContext,
  type Generator,
  type GeneratorOutput,
  defineCheck,
  defineGenerator,
} from './define.js';
export { heapAfter, selectRules, timed, timings } from './engine.js';
export {
  type BaselineEntry,
  FindingsBaselineError,
  parseFindingsBaseline,
  renderFindingsBaseline,
} from './findings-baseline.js';
export { FIX_RULE, type FixOutcome, fixCorpus } from './fix-loop.js';
export {
  DRIFT_RULE,
  type GenerationPlan,
  REGION_RULE,
  firstDifferingLine,
  planGeneration,
  plannedContent,
} from './generation.js';
export { enabledByOverride, overrideSettings } from './overrides.js';
export {
  type Catalog,
  type PipelineOptions,
  type RunResult,
  generationRules,
  generatorRule,
  judgedAgainst,
  runCorpus,
  runGeneration,
} from './pipeline.js';
export {
  SUPPRESSION_RULES,
  SuppressionsFileError,
  addSuppressionEntries,
  removeSuppressionEntries,
} from './suppressions.js';
