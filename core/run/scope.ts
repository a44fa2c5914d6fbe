/**
 * What `check FILE…` judges: the files named, and the files whose findings can change with them.
 * The run still loads and checks the whole corpus, since a gate's view of a file depends on the
 * others; only the report is narrowed, to the findings located (or with a related location) in
 * these files.
 *
 * A file changes with the named ones when it is generated from them (a registry's row is quoted in
 * a generated table or count; the stamp digests every file), and so on through what is generated
 * from those outputs. A file's findings change with one of those when it points into it: a link
 * (in markdown, or in a string of a JSON or YAML document: a renamed heading breaks it), a `$ref`
 * (by relative path or by `$id` URL), or its path or name written out (a section citation
 * `spec/v2/core/x.md §Heading` or `x.md §Heading`). The documents that name a registry's entries are added by the
 * registries layer (registryMentionDependents, through the catalog), which reads the mentions.
 */
import type { Corpus, CorpusFile } from '../model/index.js';
import { dataStringLinks } from '../model/index.js';
import { resolveLink } from '../markdown/index.js';
import { inputCovers, type Generator } from './define.js';
import type { GenerationPlan } from './generation.js';

export function dependentScope(
  corpus: Corpus,
  selected: ReadonlySet<string>,
  plan: GenerationPlan | undefined,
  generators: readonly Generator[],
): Set<string> {
  const changing = withOutputs(selected, plan, generators);
  // A region filled in a document (a count, a table) changes no heading of it and no pointer into
  // it: what links there still finds what it found. A whole generated file can change anything.
  const pointedAt = new Set(
    [...changing].filter((file) => selected.has(file) || !(corpus.markdown(file)?.regions.length ?? 0)),
  );
  const scope = new Set(changing);
  for (const file of corpus.all()) {
    if (scope.has(file.path)) continue;
    if (pointsInto(file, pointedAt, corpus)) scope.add(file.path);
  }
  return scope;
}

/** The files and every output generated from them, through outputs of outputs (a bounded closure: each round adds a file or ends). */
function withOutputs(
  selected: ReadonlySet<string>,
  plan: GenerationPlan | undefined,
  generators: readonly Generator[],
): Set<string> {
  const changing = new Set(selected);
  for (let grew = true; grew;) {
    grew = false;
    const reading = new Set(
      generators
        .filter((g) => g.runsLast || g.inputs.some((input) => [...changing].some((file) => inputCovers(input, file))))
        .map((g) => g.id),
    );
    for (const file of plan?.files ?? []) {
      if (!changing.has(file.path) && file.generators.some((id) => reading.has(id))) {
        changing.add(file.path);
        grew = true;
      }
    }
  }
  return changing;
}

/** Whether the file links to, `$ref`s or names by path one of `targets`. */
function pointsInto(file: CorpusFile, targets: ReadonlySet<string>, corpus: Corpus): boolean {
  if (file.kind === 'binary') return false;
  const linksTo = (url: string): boolean => {
    const target = resolveLink(file.path, url);
    return target.kind === 'local' && targets.has(target.target);
  };
  if (file.kind === 'markdown' && file.links.some((link) => linksTo(link.url))) return true;
  if (file.kind === 'json' || file.kind === 'yaml') {
    if (file.problems.length === 0 && dataStringLinks(file).some((link) => linksTo(link.url))) return true;
    if (file.problems.length === 0 && refTargets(file).some((ref) => linksTo(ref) || refById(ref, targets, corpus)))
      return true;
  }
  // A path or a document's name written out in prose, a table or a string: a section citation
  // (`events.md §"Payloads"`), a `source` field. A name two documents share widens the scope to
  // the mentions of both, which only reports more of what the full run reports.
  return [...targets].some((target) => namedIn(file.text, target));
}

/** Whether the text names the file by its base name (`events.md`, or a path ending in it), as a word of its own. */
function namedIn(text: string, target: string): boolean {
  const base = target.slice(target.lastIndexOf('/') + 1);
  for (let at = text.indexOf(base); at !== -1; at = text.indexOf(base, at + 1)) {
    const before = text[at - 1];
    const after = text[at + base.length];
    if ((before === undefined || !/[\w-]/.test(before)) && (after === undefined || !/[\w-]/.test(after))) return true;
  }
  return false;
}

/** The `$ref` values of a JSON or YAML document, their fragments dropped. */
function refTargets(file: Extract<CorpusFile, { kind: 'json' | 'yaml' }>): string[] {
  if (!file.text.includes('$ref')) return [];
  const refs: string[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (depth > 200 || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const bare = value.split('#')[0] ?? '';
        if (bare !== '') refs.push(bare);
      } else walk(value, depth + 1);
    }
  };
  walk(file.value, 0);
  return refs;
}

/** A `$ref` by absolute URL (a schema's `$id`) whose path ends in the target's path. */
function refById(ref: string, targets: ReadonlySet<string>, corpus: Corpus): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(ref)) return false;
  let pathname: string;
  try {
    pathname = new URL(ref).pathname;
  } catch {
    return false;
  }
  return [...targets].some(
    (target) => corpus.files.has(target) && pathname.endsWith(`/${target.split('/').slice(-2).join('/')}`),
  );
}
