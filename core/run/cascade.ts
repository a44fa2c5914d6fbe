/**
 * The cause first. A file that does not parse is the cause of what follows from it: it is listed
 * before anything else, and the findings that only follow from it are left out, since each goes
 * away with the fix and together they bury it (one YAML typo otherwise gives dozens of errors
 * with the parse error among them).
 *
 * What follows from a broken file B is what the gates would not say if B could be read. So B is
 * read as far as the parser gets (YAML's parser and its error recovery, for JSON too), the gates
 * that found something are run again over the corpus with that reading of B in its place, and a
 * finding they do not repeat is left out. That covers a finding that names nothing of B: "`tenantId`
 * names no id field of any API document" only because the one document that has it is B.
 *
 * (A byte that is not UTF-8 is read as U+FFFD for this.) Where B cannot be read at all (a markdown
 * nest too deep, a YAML error at its first line, NUL bytes), the rules of thumb stand in: other gates' findings in B itself; a finding elsewhere
 * that names B (a `$ref` into it), and the findings of the same rule family in that file. Either
 * way, drift of an output whose generator reads B, or digests everything (the stamp), follows.
 */
import { parseDocument, stringify } from 'yaml';
import { Corpus, MAX_YAML_ALIASES, parseFile, type CorpusFile } from '../model/index.js';
import type { Diagnostic } from '../output/index.js';
import { inputCovers } from './define.js';
import { isGateFailure } from './engine.js';

const PARSE_RULE = 'corpus/parse';
const DRIFT = 'generated/drift';

export interface CauseOptions {
  /** For each generated output, the files its generators read (`*` for a generator that digests every file). */
  derivedFrom?: ReadonlyMap<string, readonly string[]>;
  /** The findings of these rules over `corpus` (the broken files read as far as they go). */
  rerun?: (corpus: Corpus, rules: ReadonlySet<string>) => Diagnostic[];
}

export function causeFirst(
  corpus: Corpus | undefined,
  diagnostics: readonly Diagnostic[],
  options: CauseOptions = {},
): Diagnostic[] {
  const causes = diagnostics.filter((d) => d.rule === PARSE_RULE);
  if (causes.length === 0) return [...diagnostics];
  const broken = new Set(causes.map((d) => d.file));
  const derivedFrom = options.derivedFrom ?? new Map<string, readonly string[]>();
  const recovery = corpus && options.rerun ? recoverBroken(corpus, broken) : undefined;
  // The files no reading could be had of: for them, the rules of thumb.
  const unread = new Set([...broken].filter((file) => !recovery?.recovered.has(file)));
  const names = (d: Diagnostic): boolean => [...unread].some((file) => refersTo(d, file));
  const family = (d: Diagnostic): string => d.rule.split('/')[0] ?? d.rule;
  const affected = new Set(
    diagnostics
      .filter((d) => !broken.has(d.file) && d.rule !== PARSE_RULE && names(d))
      .map((d) => `${d.file}\u0000${family(d)}`),
  );
  const judged = (d: Diagnostic): boolean => !broken.has(d.file) && d.rule !== DRIFT && !d.rule.startsWith('corpus/');

  let repeated: Set<string> | undefined;
  // A gate that threw over the second reading says nothing about it: its findings are judged by the rules of thumb.
  const failed = new Set<string>();
  if (recovery && options.rerun) {
    const rules = new Set(diagnostics.filter(judged).map((d) => d.rule));
    if (rules.size > 0) {
      const again = options.rerun(recovery.corpus, rules);
      for (const d of again) if (isGateFailure(d)) failed.add(d.rule);
      repeated = new Set(again.map(key));
    }
  }

  const follows = (d: Diagnostic): boolean => {
    if (broken.has(d.file)) return !d.rule.startsWith('corpus/');
    if (d.rule === DRIFT)
      return (derivedFrom.get(d.file) ?? []).some(
        (input) => input === '*' || [...broken].some((file) => inputCovers(input, file)),
      );
    if (repeated && judged(d) && !failed.has(d.rule))
      return !repeated.has(key(d)) || affected.has(`${d.file}\u0000${family(d)}`);
    return (
      affected.has(`${d.file}\u0000${family(d)}`) ||
      (failed.has(d.rule) && [...broken].some((file) => refersTo(d, file)))
    );
  };
  return [...causes, ...diagnostics.filter((d) => d.rule !== PARSE_RULE && !follows(d))];
}

/** Parse failures first, the rest in their order: for the report, after everything is decided. */
export function parseFailuresFirst(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics.filter((d) => d.rule === PARSE_RULE), ...diagnostics.filter((d) => d.rule !== PARSE_RULE)];
}

/** A finding is the same finding when the same rule says the same thing (its message id and data) at the same place. */
function key(d: Diagnostic): string {
  return JSON.stringify([
    d.rule,
    d.file,
    d.line,
    d.column,
    d.messageId ?? d.message,
    d.messageId !== undefined ? d.data : undefined,
  ]);
}

/**
 * Whether a finding is about `file` besides its own place: a related location there, or a value of
 * its data that names it (a `$ref` target, a linked path, a schema an example names). Decided from
 * the finding's data, never from its wording.
 */
function refersTo(d: Diagnostic, file: string): boolean {
  if (d.related?.some((r) => r.file === file)) return true;
  return Object.values(d.data ?? {}).some(
    (value) => typeof value === 'string' && (value === file || value.includes(file) || mentionsByName(value, file)),
  );
}

/**
 * A reference (a data value) to the file by a shorter path that ends its path (`ids.schema.json#/$defs/x`, or a
 * `$id` URL that ends in it): a `$ref` resolved against another document names it so.
 */
function mentionsByName(message: string, file: string): boolean {
  const base = file.slice(file.lastIndexOf('/') + 1);
  for (let at = message.indexOf(base); at !== -1; at = message.indexOf(base, at + 1)) {
    const before = message[at - 1];
    const after = message[at + base.length];
    if ((before === undefined || /[\s/`'"(]/.test(before)) && (after === undefined || /[\s#`'"),;:]/.test(after))) {
      // The path written before the name must be a tail of the file's path.
      const written = /[^\s`'"(]*$/.exec(message.slice(0, at))?.[0] ?? '';
      const tail = written.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*\//i, '').replace(/^(\.\.?\/)+/, '');
      if (file === `${tail}${base}` || file.endsWith(`/${tail}${base}`) || tail === '') return true;
    }
  }
  return false;
}

/**
 * The corpus with each broken JSON or YAML file replaced by what its parser could read of it, or
 * undefined when none could be read. The other files are the same objects: nothing is parsed again.
 */
function recoverBroken(
  corpus: Corpus,
  broken: ReadonlySet<string>,
): { corpus: Corpus; recovered: Set<string> } | undefined {
  const files = new Map<string, CorpusFile>(corpus.files);
  const recovered = new Set<string>();
  for (const file of broken) {
    const entry = corpus.get(file);
    const kind = /\.json$/i.test(file) ? 'json' : /\.ya?ml$/i.test(file) ? 'yaml' : undefined;
    if (!entry || !kind) continue;
    // A file refused for its size of nesting or aliases is not read again.
    if (entry.problems.some((problem) => problem.kind === 'refused')) continue;
    // A byte that is not UTF-8 is read as U+FFFD, as an editor shows it; a file with NUL bytes is not text.
    const source =
      entry.kind !== 'binary'
        ? entry.text
        : entry.problems.some((problem) => problem.kind === 'encoding')
          ? new TextDecoder('utf-8').decode(entry.bytes)
          : undefined;
    if (source === undefined) continue;
    const value = readAsFarAsItGoes(source, kind);
    if (typeof value !== 'object' || value === null) continue;
    const text =
      kind === 'json'
        ? `${JSON.stringify(value, null, 2)}\n`
        : stringify(value, { aliasDuplicateObjects: false, lineWidth: 0 });
    const reading = parseFile(file, Buffer.from(text, 'utf8'));
    if (reading.problems.length > 0) continue;
    files.set(file, reading);
    recovered.add(file);
  }
  if (recovered.size === 0) return undefined;
  return {
    corpus: new Corpus(corpus.root, files, corpus.cacheDir, corpus.config, corpus.irregular, corpus.irregularKinds),
    recovered,
  };
}

function readAsFarAsItGoes(text: string, kind: 'json' | 'yaml'): unknown {
  // JSON that JSON.parse takes (broken only by a duplicate key, say) is read by it: native, and in
  // memory near the file's size, where yaml's document of a 30 MB file takes gigabytes.
  if (kind === 'json') {
    try {
      return JSON.parse(text);
    } catch {
      // Not JSON at all: yaml's recovery reads what it can.
    }
  }
  try {
    return parseDocument(text, { uniqueKeys: false, prettyErrors: false }).toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch {
    return undefined;
  }
}
