/**
 * The rule tester: one way to test a gate, after ESLint's RuleTester. A case is a small corpus (a
 * base fixture corpus with a few files added, replaced, removed or edited: never a copied folder),
 * and the tester runs one rule over it through the run the command line uses (the config read from
 * the corpus root, the rule chosen as `--rule` chooses it, core/run's pipeline, and for fixes its
 * fix loop), so that the config's severities and options apply as they do for a user.
 *
 * - a `valid` case must give no finding of the rule;
 * - an `invalid` case must give exactly the findings listed, in report order, each by message id
 *   and location (and data and severity where the case states them), never by wording;
 * - an `invalid` case of a fixable rule must state the exact text of every file its fixes change
 *   (`output`), or `output: null` when its findings carry no fix;
 * - a case whose corpus is the same as another case's is refused: it tests nothing new;
 * - a case may give the files of a previous release, which the run compares with as
 *   `--previous-release DIR` names one (for the rules that judge a change between releases).
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Diagnostic, Severity } from '../core/output/diagnostics.js';
import { fixCorpus, runCorpus, type FixOutcome, type RunResult } from '../core/run/index.js';
import { openCorpus } from '../scripts/common.js';
import { ALL_RULES } from '../scripts/catalog.js';
import { configureRun } from '../scripts/run-setup.js';
import { fixture, readTree, tempTree } from './helpers.js';

/** The corpus every case extends unless it names another: a small corpus every gate passes. */
const BASE = 'good';

const CONFIG_FILE = 'openwop-spec.config.json';

/** A replacement of the first occurrence of `find` in one file of the base (every one, for a global RegExp). */
export interface Edit {
  file: string;
  find: string | RegExp;
  replace: string;
}

export interface CorpusCase {
  /** What the case shows, as the test's title. */
  name: string;
  /** The fixture corpus (a folder under test/fixtures) the case extends; `good` by default. */
  base?: string;
  /** Files added or replaced (root-relative, `/` separators); null removes a file of the base. */
  files?: Readonly<Record<string, string | null>>;
  /** Edits of files of the base (or of `files`), applied in order. */
  edits?: readonly Edit[];
  /** Merged over the base's openwop-spec.config.json (top-level keys; `rules` merged by rule id). */
  config?: Readonly<Record<string, unknown>>;
  /** The files of a previous release, compared with as `--previous-release DIR` names one. */
  previous?: Readonly<Record<string, string>>;
}

/** A finding the case expects: selected by rule and message id, located by file, line and column. */
export interface ExpectedFinding {
  messageId: string;
  file: string;
  line: number;
  column: number;
  /** The values the message is rendered from; compared whole when stated. */
  data?: Readonly<Record<string, string | number | boolean>>;
  severity?: Severity;
  endLine?: number;
  endColumn?: number;
  /** What the finding tells the author to do; compared whole when stated. */
  hint?: string;
}

export interface InvalidCase extends CorpusCase {
  errors: readonly ExpectedFinding[];
  /** For a fixable rule: every file the fixes change and its exact text after them; null: no fix. */
  output?: Readonly<Record<string, string>> | null;
}

export interface RuleCases {
  valid: readonly CorpusCase[];
  invalid: readonly InvalidCase[];
}

/** The files of a case's corpus: its base with the case's files and edits over it. */
export function caseFiles(corpusCase: Omit<CorpusCase, 'name'>): Record<string, string> {
  const files = { ...baseFiles(corpusCase.base ?? BASE) };
  for (const [file, text] of Object.entries(corpusCase.files ?? {})) {
    if (text === null) {
      if (!(file in files)) throw new Error(`the case removes ${file}, which its base does not have`);
      delete files[file];
    } else files[file] = text;
  }
  for (const edit of corpusCase.edits ?? []) {
    const text = files[edit.file];
    if (text === undefined) throw new Error(`the case edits ${edit.file}, which its corpus does not have`);
    const found =
      typeof edit.find === 'string'
        ? text.includes(edit.find)
        : new RegExp(edit.find.source, edit.find.flags.replace('g', '')).test(text);
    // An edit that changes nothing would leave the case testing the base.
    if (!found) throw new Error(`the case edits ${edit.file}, which does not contain ${String(edit.find)}`);
    files[edit.file] = text.replace(edit.find, edit.replace);
  }
  if (corpusCase.config)
    files[CONFIG_FILE] = JSON.stringify(mergeConfig(files[CONFIG_FILE], corpusCase.config), null, 2);
  return files;
}

const bases = new Map<string, Readonly<Record<string, string>>>();

function baseFiles(name: string): Readonly<Record<string, string>> {
  let files = bases.get(name);
  if (!files) bases.set(name, (files = readTree(fixture(name))));
  return files;
}

function mergeConfig(text: string | undefined, over: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const base = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  const rules = over.rules ? { rules: { ...(base.rules as object | undefined), ...over.rules } } : {};
  return { ...base, ...over, ...rules };
}

/** The date suppressions expire against, fixed so that a case means the same on any day. */
export const TODAY = '2026-01-01';

/** Writes the files of a case into a fresh root, runs `work` on it and removes it. */
function inRoot<T>(files: Readonly<Record<string, string>>, work: (root: string) => T): T {
  const root = tempTree(files, 'openwop-rule-');
  try {
    return work(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The run's setup for one rule over a case's root, with the case's previous release beside it. */
function setUp(rule: string, root: string, previous: string | undefined): ReturnType<typeof configureRun> {
  return configureRun({ root, rule: [rule], today: TODAY, ...(previous ? { previousRelease: previous } : {}) });
}

/** One rule over a case's corpus, as `check --rule RULE` runs it. */
export function runRule(rule: string, corpusCase: Omit<CorpusCase, 'name'>): RunResult {
  return inRoot(caseFiles(corpusCase), (root) =>
    inPrevious(corpusCase.previous, (previous) => {
      const run = setUp(rule, root, previous);
      return runCorpus(openCorpus(root, { cache: false, config: run.config }), run.options);
    }),
  );
}

/** One rule's fixes over a case's corpus, as `check --rule RULE --fix` works them out (nothing is written). */
export function fixRule(rule: string, corpusCase: Omit<CorpusCase, 'name'>): FixOutcome {
  return inRoot(caseFiles(corpusCase), (root) =>
    inPrevious(corpusCase.previous, (previous) => {
      const run = setUp(rule, root, previous);
      return fixCorpus(openCorpus(root, { cache: false, config: run.config }), run.options);
    }),
  );
}

/** Writes a case's previous release into a root of its own (none: undefined) for the time of `work`. */
function inPrevious<T>(
  files: Readonly<Record<string, string>> | undefined,
  work: (previous: string | undefined) => T,
): T {
  return files ? inRoot(files, work) : work(undefined);
}

/** The findings of a run in the form a case states them: what the stated fields of `like` say. */
export function asExpected(found: readonly Diagnostic[], like: readonly ExpectedFinding[] = []): ExpectedFinding[] {
  return found.map((d, index) => {
    const stated = like[index];
    const out: Record<string, unknown> = {
      messageId: d.messageId ?? `(no messageId: ${d.message})`,
      file: d.file,
      line: d.line,
      column: d.column,
    };
    for (const key of ['data', 'severity', 'endLine', 'endColumn', 'hint'] as const)
      if (stated && key in stated) out[key] = d[key];
    return out as unknown as ExpectedFinding;
  });
}

/** Findings as a reader of a failed case wants them: rule, place, id and words. */
function described(found: readonly Diagnostic[]): string[] {
  return found.map((d) => `${d.rule} ${d.file}:${d.line}:${d.column} ${d.messageId ?? '(no messageId)'}: ${d.message}`);
}

/** A key of what a case runs on: two cases with the same key test the same thing. */
function caseKey(corpusCase: CorpusCase): string {
  const { name: _name, ...input } = corpusCase;
  const { errors: _errors, output: _output, ...corpus } = input as Partial<InvalidCase>;
  return JSON.stringify({ base: BASE, ...corpus }, (_key, value: unknown) =>
    value instanceof RegExp ? `/${value.source}/${value.flags}` : value,
  );
}

/** Refuses a case list where two cases run on the same corpus or share a title. */
export function refuseDuplicates(cases: RuleCases): void {
  const seen = new Map<string, string>();
  const names = new Set<string>();
  for (const corpusCase of [...cases.valid, ...cases.invalid]) {
    if (names.has(corpusCase.name)) throw new Error(`two cases are named "${corpusCase.name}"`);
    names.add(corpusCase.name);
    const key = caseKey(corpusCase);
    const other = seen.get(key);
    if (other !== undefined) throw new Error(`case "${corpusCase.name}" runs on the same corpus as "${other}"`);
    seen.set(key, corpusCase.name);
  }
}

/** Registers one test per case of `rule`, as ESLint's RuleTester.run does. */
export function testRule(rule: string, cases: RuleCases): void {
  refuseDuplicates(cases);
  describe(rule, () => {
    for (const corpusCase of cases.valid) {
      it(`valid: ${corpusCase.name}`, () => {
        // Nothing at all: only the rule runs, and a corpus that does not parse tests nothing of it.
        expect(described(runRule(rule, corpusCase).diagnostics)).toEqual([]);
      });
    }
    for (const corpusCase of cases.invalid) {
      it(`invalid: ${corpusCase.name}`, () => {
        if (corpusCase.errors.length === 0)
          throw new Error('an invalid case lists the findings it expects; a case with none is valid');
        const result = runRule(rule, corpusCase);
        const fixable = ALL_RULES.some((entry) => entry.id === rule && entry.fixable);
        expect(described(result.diagnostics.filter((d) => d.rule !== rule))).toEqual([]);
        expect(asExpected(result.diagnostics, corpusCase.errors)).toEqual(corpusCase.errors);
        if (corpusCase.output === undefined) {
          if (fixable)
            throw new Error(
              `${rule} is fixable: state the case's output (the text of each file its fixes change), or output: null`,
            );
          return;
        }
        const outcome = fixRule(rule, corpusCase);
        expect(Object.fromEntries(outcome.files.map((file) => [file.path, file.after]))).toEqual(
          corpusCase.output ?? {},
        );
      });
    }
  });
}
