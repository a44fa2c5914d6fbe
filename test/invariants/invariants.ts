/**
 * What must hold after any edit of a corpus, whatever the edit: the verbs agree because they are
 * one run. Each holder drives the built CLI over a private copy and returns the broken invariants
 * in words (an empty list: all hold), so that a failing sequence is reported whole, with its seed.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Diagnostic } from '../../core/output/index.js';
import { unifiedHunks } from '../../core/release/index.js';
import { cli, type CliResult } from '../helpers.js';
import { changed, snapshotFiles } from '../trust/helpers.js';
import { editClaims, EDITS, Rng, type BaseName, type Edit } from './edits.js';

/** A corpus the edits apply to: its files, and the config it is checked with (undefined: the one at its root). */
export interface Base {
  name: BaseName;
  root: string;
  /** Files and folders of the corpus to copy. */
  entries: readonly string[];
  /** A config to copy in as openwop-spec.config.json. */
  config?: string;
  /** Where its stamp lives. */
  stamp: string;
}

export interface Sequence {
  base: Base;
  seed: number;
  edits: readonly Edit[];
}

/**
 * A copy of the base corpus under a fresh temporary root, with node_modules (the parse cache on).
 * `cache`: the node_modules of an earlier copy whose check filled the cache, copied in so that the
 * first run here parses only what the edits changed (the caches are keyed by content: a run with
 * them reports what a run without them does).
 */
export function copyBase(base: Base, cache?: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'openwop-edits-'));
  for (const entry of base.entries)
    if (existsSync(path.join(base.root, entry)))
      cpSync(path.join(base.root, entry), path.join(root, entry), { recursive: true });
  if (base.config) cpSync(base.config, path.join(root, 'openwop-spec.config.json'));
  if (cache && existsSync(cache)) cpSync(cache, path.join(root, 'node_modules'), { recursive: true });
  else mkdirSync(path.join(root, 'node_modules'));
  return root;
}

/** Seeded pairs and triples of the catalogue (and singles), the same for the same seed. */
export function sequences(base: Base, seed: number, count: number, sizes: readonly number[] = [1, 2, 3]): Sequence[] {
  const rng = new Rng(seed);
  const out: Sequence[] = [];
  const claimed = EDITS.filter((edit) => editClaims(edit, base.name));
  for (let i = 0; i < count; i++) {
    const size = rng.pick(sizes) ?? 1;
    const edits: Edit[] = [];
    for (let j = 0; j < size; j++) edits.push(rng.pick(claimed) as Edit);
    out.push({ base, seed: Math.floor(rng.next() * 2 ** 31), edits });
  }
  return out;
}

export function describeSequence(sequence: Sequence): string {
  return `${sequence.base.name} seed ${sequence.seed}: ${sequence.edits.map((edit) => edit.id).join(' + ')}`;
}

/** A finding as the report has it, for comparing two reports. */
const findingIdentity = (d: Diagnostic): string =>
  JSON.stringify([d.rule, d.file, d.line, d.column, d.message, d.suppression !== undefined]);
/** A finding apart from where its line moved to and the figures it quotes (by its message id), for telling new findings from old ones. */
const what = (d: Diagnostic): string =>
  JSON.stringify([
    d.rule,
    d.file,
    d.messageId ?? d.message,
    d.messageId !== undefined && d.data ? Object.values(d.data).filter((v) => typeof v === 'string') : [],
  ]);

function jsonFindings(result: CliResult): Diagnostic[] {
  try {
    return (JSON.parse(result.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  } catch {
    throw new Error(`no JSON report (exit ${result.status}): ${result.stderr.trim()}`);
  }
}
const active = (d: Diagnostic): boolean =>
  d.suppression === undefined && (d.baselineState === undefined || d.baselineState === 'new');

/**
 * Applies the sequence to a copy of its base and checks every invariant; `before` is the full
 * check of the unedited base (for the findings the edits made). Returns what broke, in words.
 */
export async function holdInvariants(
  sequence: Sequence,
  before: readonly Diagnostic[],
  options: { pack?: boolean; thorough?: boolean; cache?: string } = {},
): Promise<string[]> {
  const broken: string[] = [];
  const fail = (what: string): void => {
    broken.push(what);
  };
  const root = copyBase(sequence.base, options.cache);
  try {
    const rng = new Rng(sequence.seed);
    const touched = new Set<string>();
    let applied = 0;
    for (const edit of sequence.edits) {
      const files = edit.apply(root, rng);
      if (files === undefined) continue;
      applied++;
      for (const file of files) touched.add(file);
    }
    // A sequence whose edits all found nothing to act on would check the unedited base: it tests nothing.
    if (applied === 0) return [`no edit of the sequence applied to ${sequence.base.name}: nothing was tested`];
    const check = (...args: string[]) => cli(['check', '--root', root, '--format', 'json', ...args]);

    // The full check of the edited corpus, and pack over the same corpus.
    const full = await check();
    if (full.status !== 0 && full.status !== 1) return [`check exited ${full.status}: ${full.stderr.trim()}`];
    const all = jsonFindings(full);
    if (options.pack !== false) await packAgrees(root, full.status, fail, 'after the edits');

    // check FILE…: the full run restricted to the named files and their dependents.
    // Only corpus files can be named (package.json, say, is not one: naming it is a usage error).
    let named = [...touched].filter((file) => existsSync(path.join(root, file)));
    let scopedRun = named.length > 0 ? await check(...named.map((file) => path.join(root, file))) : undefined;
    const outside =
      scopedRun?.status === 2
        ? named.filter((file) => scopedRun?.stderr.includes(`${path.join(root, file)} names no file of the corpus`))
        : [];
    if (outside.length > 0) {
      named = named.filter((file) => !outside.includes(file));
      scopedRun = named.length > 0 ? await check(...named.map((file) => path.join(root, file))) : undefined;
    }
    if (scopedRun) {
      const scoped = jsonFindings(scopedRun);
      const fullKeys = new Set(all.map(findingIdentity));
      const scopedKeys = new Set(scoped.map(findingIdentity));
      for (const d of scoped)
        if (!fullKeys.has(findingIdentity(d)))
          fail(`check FILE reports what the full check does not: ${findingIdentity(d)}`);
      for (const d of all) {
        const inNamed = named.includes(d.file) || d.related?.some((r) => named.includes(r.file));
        if (inNamed && !scopedKeys.has(findingIdentity(d)))
          fail(`check FILE leaves out a finding in a named file: ${findingIdentity(d)}`);
      }
      // What the edits broke, wherever it shows, is reported on the files edited (a pre-commit
      // hook's promise), when every file edited could be named: a deleted file, or one outside
      // the corpus (package.json), cannot, and what it broke shows only in the full run.
      const old = new Set(before.map(what));
      if (named.length === touched.size)
        for (const d of all)
          if (active(d) && d.severity === 'error' && !old.has(what(d)) && !scopedKeys.has(findingIdentity(d)))
            fail(`check FILE misses an error the edits made: ${findingIdentity(d)}`);
      const failing = scoped.some((d) => active(d) && d.severity === 'error');
      if (scopedRun.status !== (failing ? 1 : 0))
        fail(`check FILE exits ${scopedRun.status} with${failing ? '' : 'out'} errors`);
    }

    // generate twice = generate once (over a copy, so that --fix below starts from the edits).
    const twice = mkdtempSync(path.join(tmpdir(), 'openwop-edits-'));
    try {
      cpSync(root, twice, { recursive: true });
      const first = await cli(['generate', '--root', twice]);
      const once = snapshotFiles(twice);
      const second = await cli(['generate', '--root', twice]);
      if (changed(once, snapshotFiles(twice)).length > 0)
        fail(`generate a second time changed ${changed(once, snapshotFiles(twice)).join(', ')}`);
      if (first.status !== second.status) fail(`generate exited ${first.status}, then ${second.status}`);
    } finally {
      rmSync(twice, { recursive: true, force: true });
    }

    // --fix-dry-run prints what --fix writes, byte for byte.
    const edited = snapshotFiles(root);
    const dry = await cli(['check', '--root', root, '--fix-dry-run']);
    if (changed(edited, snapshotFiles(root)).length > 0) fail('--fix-dry-run wrote files');
    const fixRun = await cli(['check', '--root', root, '--fix', '--format', 'json']);
    const fixed = snapshotFiles(root);
    const written = changed(edited, fixed);
    const patch = written.map((file) => {
      const was = edited.get(file);
      const now = fixed.get(file);
      return `--- ${was ? `a/${file}` : '/dev/null'}\n+++ b/${file}\n${unifiedHunks(textOf(was), textOf(now))}`;
    });
    if (dry.stdout !== patch.join(''))
      fail(
        `--fix-dry-run's patch is not what --fix wrote (patched ${patchedFiles(dry.stdout).join(', ') || 'nothing'}; written ${written.join(', ') || 'nothing'})`,
      );

    // check --fix then check: only findings that carry no fix remain; nothing generated is stale unless a generator is in error.
    const after = await check();
    const remaining = jsonFindings(after);
    const blocked = /generated output not refreshed/.test(fixRun.stderr);
    for (const d of remaining) {
      if (d.fix && active(d)) fail(`after --fix a finding still carries a fix: ${findingIdentity(d)}`);
      if (d.rule === 'generated/drift' && !blocked) fail(`after --fix an output is stale: ${findingIdentity(d)}`);
    }
    if (fixRun.status !== after.status) fail(`check --fix exited ${fixRun.status} and check after it ${after.status}`);
    if (JSON.stringify(jsonFindings(fixRun).map(findingIdentity)) !== JSON.stringify(remaining.map(findingIdentity)))
      fail('check --fix reported other findings than the check after it');

    // The stamp on disk describes the files on disk, whenever a verb wrote it.
    if (written.includes(sequence.base.stamp))
      for (const problem of stampProblems(root, sequence.base.stamp)) fail(problem);

    // A second --fix changes nothing.
    const again = await cli(['check', '--root', root, '--fix-dry-run']);
    if (again.stdout !== '') fail(`a second --fix would change ${patchedFiles(again.stdout).join(', ')}`);
    if (options.thorough) {
      // The dry run stands for it otherwise: it was shown above to print what --fix writes.
      await cli(['check', '--root', root, '--fix']);
      if (changed(fixed, snapshotFiles(root)).length > 0)
        fail(`a second --fix changed ${changed(fixed, snapshotFiles(root)).join(', ')}`);
      if (options.pack !== false) await packAgrees(root, after.status, fail, 'after --fix');
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return broken;
}

async function packAgrees(
  root: string,
  checkStatus: number,
  fail: (what: string) => void,
  when: string,
): Promise<void> {
  const out = mkdtempSync(path.join(tmpdir(), 'openwop-edits-pack-'));
  try {
    const pack = await cli(['pack', '--root', root, '--unsigned', '--out', out]);
    const refusedOnFindings = /pack refused: `check` fails/.test(pack.stderr);
    if (checkStatus === 1 && !refusedOnFindings)
      fail(
        `${when}: check fails and pack does not refuse for it (exit ${pack.status}: ${pack.stderr.trim().split('\n').pop()})`,
      );
    if (checkStatus === 0 && pack.status !== 0)
      fail(`${when}: check passes and pack refuses: ${pack.stderr.trim().split('\n').pop()}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

function textOf(bytes: Buffer | undefined): string {
  return bytes
    ? bytes
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .replace(/\r\n/g, '\n')
    : '';
}

function patchedFiles(patch: string): string[] {
  return [...patch.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1] ?? '');
}

/** Every hash the stamp records that is not the file on disk. */
function stampProblems(root: string, stampPath: string): string[] {
  const stamp = JSON.parse(readFileSync(path.join(root, stampPath), 'utf8')) as { files?: Record<string, string> };
  const files = Object.entries(stamp.files ?? {});
  if (files.length === 0) return [`the stamp ${stampPath} records no file`];
  const problems: string[] = [];
  for (const [file, hash] of files) {
    const absolute = path.join(root, file);
    if (!existsSync(absolute)) problems.push(`the stamp records ${file}, which is not on disk`);
    else if (createHash('sha256').update(readFileSync(absolute)).digest('hex') !== hash)
      problems.push(`the stamp's hash of ${file} is not the file on disk`);
  }
  return problems;
}
