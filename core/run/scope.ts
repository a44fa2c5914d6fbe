/**
 * What `check FILE…` looks at: the files named, and the files whose findings can change with
 * them: a document with a link into one (a renamed heading breaks it), and the outputs of every
 * generator that reads one (a registry's row is quoted in a generated table or count; the stamp
 * digests every file). The documents that name a registry's entries are added by the registries
 * layer (registryMentionDependents), which reads the mentions. The run still loads and checks the whole corpus, since a gate's view of a
 * file depends on the others; only the report is narrowed.
 */
import type { Corpus } from '../model/index.js';
import { resolveLink } from '../markdown/index.js';
import { inputCovers, type Generator } from './define.js';
import type { GenerationPlan } from './generation.js';

export function dependentScope(corpus: Corpus, selected: ReadonlySet<string>, plan: GenerationPlan | undefined, generators: readonly Generator[]): Set<string> {
  const scope = new Set(selected);
  for (const markdown of corpus.markdownFiles()) {
    if (scope.has(markdown.path)) continue;
    for (const link of markdown.links) {
      const target = resolveLink(markdown.path, link.url);
      if (target.kind === 'local' && selected.has(target.target)) {
        scope.add(markdown.path);
        break;
      }
    }
  }
  const reading = new Set(generators.filter((g) => g.runsLast || g.inputs.some((input) => [...selected].some((file) => inputCovers(input, file)))).map((g) => g.id));
  for (const file of plan?.files ?? []) if (file.generators.some((id) => reading.has(id))) scope.add(file.path);
  return scope;
}
