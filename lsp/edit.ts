/** Completion, rename and code actions: edits worked out over the model, as the CLI's fixes are. */
import GithubSlugger from 'github-slugger';
import { modify } from 'jsonc-parser';
import type { CodeAction, CompletionItem, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { DEFAULT_SUPPRESSIONS } from '../core/config/index.js';
import { Corpus, dataStringEdit, documentIndex, parseFile, type CorpusFile } from '../core/model/index.js';
import { qualifier, resolveLink } from '../core/markdown/index.js';
import { isActive, type Diagnostic } from '../core/output/index.js';
import { DRIFT_RULE, type GenerationPlan } from '../core/run/index.js';
import { eventCodemap, readErrorsRegistry } from '../core/registries/index.js';
import { rangeOf, textual } from './convert.js';
import { sitesMeaning, type Meaning, type WrittenSite } from './sites.js';
import type { UriOf } from './navigate.js';

type Edits = Map<string, Array<{ start: number; end: number; text: string }>>;

// ------------------------------------------------------------------------------------------------
// Completion

const SUPPRESSION_OPENING = /<!--\s*openwop-spec-disable-next-line\s+(?:[\w/-]+\s*,\s*)*([\w/-]*)$/;
/** `§"` as typed: in a JSON string (or a double-quoted YAML one) the quote is escaped, `§\"`. */
const QUOTED_OPENING = /§\s?(\\?)["“]([^"”\n\\]*)$/;
const FRAGMENT_OPENING = /\]\(\s*<?([^()\s#>]*)#([^()\s#>]*)$/;

export function completions(corpus: Corpus, path: string, offset: number, rules: readonly string[]): CompletionItem[] {
  const file = textual(corpus.get(path));
  if (!file) return [];
  const lineStart = file.lines.lineStart(file.lines.position(offset).line);
  const before = file.text.slice(lineStart, offset);
  const replacing = (length: number): Range => rangeOf(file, offset - length, offset);

  const suppression = SUPPRESSION_OPENING.exec(before);
  if (file.kind === 'markdown' && suppression) {
    const typed = suppression[1] ?? '';
    return rules.map((rule) => ({
      label: rule,
      kind: 12,
      textEdit: { range: replacing(typed.length), newText: rule },
    }));
  }

  const quoted = QUOTED_OPENING.exec(before);
  if (quoted) {
    const escaped = quoted[1] === '\\';
    const typed = quoted[2] ?? '';
    const sign = before.length - quoted[0].length;
    const scope = qualifier(file.text.slice(Math.max(0, lineStart + sign - 400), lineStart + sign));
    let document: string | undefined;
    if (scope?.kind === 'document')
      document = scope.via === 'link' ? linkedPath(path, scope.name) : documentIndex(corpus).resolve(scope.name, path);
    else if (!scope && file.kind === 'markdown') document = path;
    const target = document ? corpus.markdown(document) : undefined;
    const next = file.text.slice(offset, offset + 2);
    const closing = escaped
      ? next === '\\"'
        ? ''
        : '\\"'
      : next.startsWith('"') || next.startsWith('”')
        ? ''
        : before.slice(sign).includes('“')
          ? '”'
          : '"';
    return (target?.headings ?? []).map((heading) => {
      const text = heading.text.replace(/^§\s*/, '');
      return {
        label: text,
        kind: 18,
        detail: `${target?.path} line ${heading.line}`,
        filterText: text,
        textEdit: { range: replacing(typed.length), newText: `${text}${closing}` },
      };
    });
  }

  const fragment = FRAGMENT_OPENING.exec(before);
  if (fragment) {
    const typed = fragment[2] ?? '';
    const target = corpus.markdown(fragment[1] ? (linkedPath(path, fragment[1]) ?? '') : path);
    return (target?.headings ?? []).map((heading) => ({
      label: heading.slug,
      kind: 18,
      detail: heading.text,
      textEdit: { range: replacing(typed.length), newText: heading.slug },
    }));
  }

  // A code or an event type, where one is written: in code spans of prose, in the strings of JSON and YAML.
  const inCode =
    file.kind === 'markdown'
      ? (before.match(/`/g)?.length ?? 0) % 2 === 1
      : file.kind === 'json' || file.kind === 'yaml';
  if (!inCode) return [];
  const typed = /[\w.-]*$/.exec(before)?.[0] ?? '';
  const items: CompletionItem[] = [];
  const errors = readErrorsRegistry(corpus);
  if (errors.state === 'valid')
    for (const row of errors.registry.rows)
      items.push({
        label: row.code,
        kind: 21,
        detail: `HTTP ${row.httpStatus}${row.retriable ? ', retriable' : ''}`,
        ...(row.meaning ? { documentation: row.meaning } : {}),
        textEdit: { range: replacing(typed.length), newText: row.code },
      });
  for (const row of eventCodemap(corpus)?.rows ?? [])
    items.push({
      label: row.v2Override ?? row.v2,
      kind: 23,
      detail: `event type (v1 ${row.v1})`,
      textEdit: { range: replacing(typed.length), newText: row.v2Override ?? row.v2 },
    });
  return items;
}

function linkedPath(from: string, url: string): string | undefined {
  const resolved = resolveLink(from, url);
  return resolved.kind === 'external' ? undefined : resolved.kind === 'same-file' ? from : resolved.target;
}

// ------------------------------------------------------------------------------------------------
// Rename

export interface Renamed {
  edit: WorkspaceEdit;
  /** What the rename means beyond the text, for the author to read (a registered code is part of the contract). */
  consequence?: string;
}

/** The placeholder a rename starts from, or undefined when what is under the cursor cannot be renamed. */
export function renameTarget(meaning: Meaning): string | undefined {
  if (meaning.kind === 'section') return meaning.heading.text;
  if (meaning.kind === 'code') return meaning.code;
  if (meaning.kind === 'event') return meaning.type;
  return undefined;
}

export function rename(
  corpus: Corpus,
  meaning: Meaning,
  newName: string,
  uriOf: UriOf,
  generate: (corpus: Corpus) => GenerationPlan,
): Renamed | undefined {
  // A heading is one line; a code or event type one token.
  if (newName.trim() === '' || /[\r\n]/.test(newName) || (meaning.kind !== 'section' && /\s/.test(newName)))
    return undefined;
  const edits: Edits = new Map();
  const add = (file: string, start: number, end: number, text: string): void =>
    void edits.set(file, [...(edits.get(file) ?? []), { start, end, text }]);
  const sites = sitesMeaning(corpus, meaning.key);
  if (meaning.kind === 'section') {
    const document = corpus.markdown(meaning.document);
    if (!document) return undefined;
    const slugger = new GithubSlugger();
    const slugs = document.headings.map((h) => slugger.slug(h === meaning.heading ? newName : h.text));
    const slug = slugs[document.headings.indexOf(meaning.heading)] ?? '';
    for (const site of sites) {
      if (site.kind === 'heading') add(site.file, site.start, site.end, newName);
      else if (site.kind === 'fragment') stringAware(corpus, site, slug, add);
      else if (site.kind === 'citation' && site.citation.form !== 'numbered') {
        const file = textual(corpus.get(site.file));
        const curly = site.inString ? false : file?.text.slice(site.start, site.end).includes('“');
        stringAware(
          corpus,
          wholeHeading(site, meaning.heading.text, file?.text ?? ''),
          curly ? `§“${newName}”` : `§"${newName}"`,
          add,
        );
      }
    }
  } else if (meaning.kind === 'code' || meaning.kind === 'event') {
    const old = meaning.kind === 'code' ? meaning.code : meaning.type;
    for (const site of sites) {
      if (site.kind === 'event' && site.v1) continue;
      const file = textual(corpus.get(site.file));
      // A mention carries the name as written; only the part that is the name changes.
      const at = file?.text.slice(site.start, site.end).indexOf(old) ?? -1;
      if (at !== -1) add(site.file, site.start + at, site.start + at + old.length, newName);
    }
  } else return undefined;
  regenerate(corpus, edits, generate);
  const consequence =
    meaning.kind === 'code'
      ? `renaming the error code ${meaning.code} (since ${meaning.row?.since ?? '?'}) changes the wire contract: clients that match on "${meaning.code}" stop matching; a released code is deprecated with replacedBy rather than renamed (compat/monotone compares with the previous release)`
      : meaning.kind === 'event'
        ? `renaming the event type ${meaning.type} changes what hosts emit and consumers subscribe to; a released type is kept and renamed through a codemap row (compat/monotone compares with the previous release)`
        : undefined;
  return { edit: { changes: toChanges(corpus, edits, uriOf) }, ...(consequence ? { consequence } : {}) };
}

/**
 * `§Provider identity` cites "Provider identity" by its first word; the words of the heading that
 * follow it are part of what the author wrote for it, and a rename replaces them too.
 */
function wholeHeading(site: WrittenSite & { kind: 'citation' }, heading: string, text: string): WrittenSite {
  if (site.citation.form !== 'word' && site.citation.form !== 'code') return site;
  const rest = heading.replace(/`/g, '').slice(site.citation.value.length);
  if (!rest.startsWith(' ')) return site;
  const following = site.inString ? site.inString.value.slice(site.inString.end) : text.slice(site.end);
  if (
    following.slice(0, rest.length).toLowerCase() !== rest.toLowerCase() ||
    /^[\w-]/.test(following.slice(rest.length))
  )
    return site;
  return site.inString
    ? { ...site, end: site.end + rest.length, inString: { ...site.inString, end: site.inString.end + rest.length } }
    : { ...site, end: site.end + rest.length };
}

/** A site's characters replaced: in a JSON or YAML string through the string's own escapes and quotes. */
function stringAware(
  corpus: Corpus,
  site: WrittenSite,
  text: string,
  add: (file: string, start: number, end: number, text: string) => void,
): void {
  if (!site.inString) return add(site.file, site.start, site.end, text);
  const data = corpus.data(site.file);
  const edit = data
    ? dataStringEdit(data, site.inString.path, site.inString.start, site.inString.end, text)
    : undefined;
  if (edit) add(site.file, edit.start, edit.end, edit.text);
}

/** The generated files and regions the edits make stale, brought up to date over the edited text (whole-file edits). */
function regenerate(corpus: Corpus, edits: Edits, generate: (corpus: Corpus) => GenerationPlan): void {
  if (edits.size === 0) return;
  const files = new Map<string, CorpusFile>(corpus.files);
  const after = new Map<string, string>();
  for (const [path, list] of edits) {
    const file = textual(corpus.get(path));
    if (!file) continue;
    const text = applyEdits(file.text, list);
    after.set(path, text);
    files.set(path, parseFile(path, Buffer.from(text, 'utf8')));
  }
  const edited = new Corpus(
    corpus.root,
    files,
    corpus.cacheDir,
    corpus.config,
    corpus.irregular,
    corpus.irregularKinds,
  );
  const plan = generate(edited);
  if (plan.diagnostics.some((d) => d.severity === 'error')) return;
  for (const planned of plan.files) {
    const current = after.get(planned.path) ?? textual(corpus.get(planned.path))?.text;
    if (current === undefined || planned.after === current) continue;
    const original = textual(corpus.get(planned.path));
    if (!original) continue;
    edits.set(planned.path, [{ start: 0, end: original.text.length, text: planned.after }]);
  }
}

function applyEdits(text: string, edits: ReadonlyArray<{ start: number; end: number; text: string }>): string {
  let out = text;
  for (const edit of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return out;
}

function toChanges(corpus: Corpus, edits: Edits, uriOf: UriOf): Record<string, TextEdit[]> {
  const changes: Record<string, TextEdit[]> = {};
  for (const [path, list] of edits) {
    const file = textual(corpus.get(path));
    if (!file) continue;
    // Overlapping edits cannot be applied together: the first of each overlap wins, as --fix does.
    const ordered = [...list].sort((a, b) => a.start - b.start || a.end - b.end);
    const kept: typeof list = [];
    for (const edit of ordered)
      if (!kept.length || (kept[kept.length - 1] as { end: number }).end <= edit.start) kept.push(edit);
    changes[uriOf(path)] = kept.map((edit) => ({ range: rangeOf(file, edit.start, edit.end), newText: edit.text }));
  }
  return changes;
}

// ------------------------------------------------------------------------------------------------
// Code actions

/** The actions for the findings of `path` that touch `range`: each fix, fix-all for the rule, regenerate on drift, suppress with a reason. */
export function codeActions(
  corpus: Corpus,
  path: string,
  range: Range,
  diagnostics: readonly Diagnostic[],
  plan: GenerationPlan | undefined,
  uriOf: UriOf,
  readSuppressions: (relative: string) => string | undefined,
  asked: ReadonlyArray<{ rule: string; line: number; column: number }> = [],
): CodeAction[] {
  const file = textual(corpus.get(path));
  if (!file) return [];
  // The findings the client names (the ones under the cursor, as it shows them), else those the range touches.
  const named = (d: Diagnostic): boolean =>
    asked.some((a) => a.rule === d.rule && a.line === d.line && a.column === d.column);
  const before = (line: number, column: number, p: { line: number; character: number }): boolean =>
    line - 1 < p.line || (line - 1 === p.line && column - 1 <= p.character);
  const touches = (d: Diagnostic): boolean =>
    before(d.line, d.column, range.end) &&
    !before(d.endLine ?? d.line, (d.endColumn ?? Number.MAX_SAFE_INTEGER) + 0, {
      line: range.start.line,
      character: range.start.character - 1,
    });
  const here = diagnostics.filter((d) => isActive(d) && d.file === path && (asked.length > 0 ? named(d) : touches(d)));
  const actions: CodeAction[] = [];
  const seenRules = new Set<string>();
  for (const d of here) {
    if (d.fix) {
      actions.push({
        title: `Fix ${d.rule}: ${d.message}`,
        kind: 'quickfix',
        isPreferred: true,
        edit: { changes: toChanges(corpus, new Map([[path, [d.fix]]]), uriOf) },
      });
    }
    if (d.fix && !seenRules.has(d.rule)) {
      seenRules.add(d.rule);
      const all: Edits = new Map();
      for (const other of diagnostics)
        if (isActive(other) && other.rule === d.rule && other.fix)
          all.set(other.file, [...(all.get(other.file) ?? []), other.fix]);
      const count = [...all.values()].reduce((n, list) => n + list.length, 0);
      if (count > 1)
        actions.push({
          title: `Fix all ${count} findings of ${d.rule}`,
          kind: 'source.fixAll',
          edit: { changes: toChanges(corpus, all, uriOf) },
        });
    }
    if (d.rule === DRIFT_RULE.id && plan) {
      const stale: Edits = new Map();
      for (const planned of plan.files) {
        const current = textual(corpus.get(planned.path));
        if (current && planned.after !== current.text)
          stale.set(planned.path, [{ start: 0, end: current.text.length, text: planned.after }]);
      }
      if (stale.size > 0)
        actions.push({
          title: `Regenerate ${stale.size === 1 ? [...stale.keys()][0] : `${stale.size} generated files`}`,
          kind: 'quickfix',
          edit: { changes: toChanges(corpus, stale, uriOf) },
        });
    }
    const suppress = suppression(corpus, d, uriOf, readSuppressions);
    if (suppress) actions.push(suppress);
  }
  return actions;
}

const REASON = 'say why this finding is accepted';

/** In markdown a comment on the line before; for JSON and YAML an entry of the suppressions file, keyed by the finding's fingerprint. */
function suppression(
  corpus: Corpus,
  d: Diagnostic,
  uriOf: UriOf,
  readSuppressions: (relative: string) => string | undefined,
): CodeAction | undefined {
  const file = textual(corpus.get(d.file));
  if (!file) return undefined;
  if (file.kind === 'markdown') {
    const lineStart = file.lines.lineStart(d.line);
    const indent = /^[ \t>]*/.exec(file.text.slice(lineStart))?.[0] ?? '';
    const comment = `${indent}<!-- openwop-spec-disable-next-line ${d.rule} -- ${REASON} -->\n`;
    return {
      title: `Suppress ${d.rule} on this line (with a reason)`,
      kind: 'quickfix',
      edit: { changes: { [uriOf(d.file)]: [{ range: rangeOf(file, lineStart, lineStart), newText: comment }] } },
    };
  }
  if (!d.fingerprint) return undefined;
  const relative = corpus.config.policy.suppressions ?? DEFAULT_SUPPRESSIONS;
  const entry = { rule: d.rule, file: d.file, fingerprint: d.fingerprint, reason: REASON };
  const title = `Suppress ${d.rule} here in ${relative} (with a reason)`;
  const uri = uriOf(relative);
  const existing = readSuppressions(relative);
  if (existing === undefined) {
    return {
      title,
      kind: 'quickfix',
      edit: {
        documentChanges: [
          { kind: 'create', uri, options: { ignoreIfExists: true } },
          {
            textDocument: { uri, version: null },
            edits: [
              {
                range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
                newText: `${JSON.stringify({ suppressions: [entry] }, null, 2)}\n`,
              },
            ],
          },
        ],
      },
    };
  }
  const text = existing;
  const at = (offset: number): { line: number; character: number } => {
    const before = text.slice(0, offset);
    return { line: before.split('\n').length - 1, character: offset - (before.lastIndexOf('\n') + 1) };
  };
  const changes = modify(text, ['suppressions', -1], entry, { formattingOptions: { insertSpaces: true, tabSize: 2 } });
  return {
    title,
    kind: 'quickfix',
    edit: {
      changes: {
        [uri]: changes.map((c) => ({
          range: { start: at(c.offset), end: at(c.offset + c.length) },
          newText: c.content,
        })),
      },
    },
  };
}
