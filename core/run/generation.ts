/**
 * Runs generators over the model and composes their outputs into file contents. `generate`
 * writes the result; `check` and `generate --check` compare it with the disk (the drift gate).
 * One path for both, so a check can never pass on output that generation would change.
 */
import type { Corpus, DataFile, MarkdownFile, PathSegment, WholeFileMark } from '../model/index.js';
import { isList, isObject, joinRow, Location, splitRow, textTables, wholeFileMark } from '../model/index.js';
import {
  coreReport,
  inputCovers,
  isRegionContent,
  type CoreFinding,
  type CoreRule,
  type GenerationContext,
  type Generator,
  type GeneratorOutput,
  wordedReport,
} from './define.js';
import type { Reuse } from './reuse.js';
import { collector, encodeText, type Diagnostic, type Report, type TextStyle } from '../output/index.js';
import { timed } from './engine.js';
import { diffArrays } from 'diff';

export const DRIFT_RULE = {
  id: 'generated/drift',
  summary: 'A generated file or region matches what its generator produces from the registries',
  severity: 'error',
  messages: {
    missing: '{{file}} is missing; generator {{generators}} produces it',
    'stale-entry': 'stale generated content: {{entry}} (against what {{generators}} produces)',
    'stale-changed':
      'stale generated content: {{place}} differs from what {{generators}} produces; expected: {{expected}}',
    'stale-extra':
      'stale generated content: {{place}} is not in what {{generators}} produces; expected no such {{unit}}',
    'stale-missing':
      'stale generated content: {{generators}} produces {{wanted}} here that is missing; expected: {{expected}}',
    'stale-more':
      'stale generated content: {{more}} more differing {{unit}} from here on, against what {{generators}} produces',
  },
} as const satisfies CoreRule;

export const REGION_RULE = {
  id: 'generated/region',
  summary: 'Generated-region markers are well formed, and each region has a generator that owns it',
  severity: 'error',
  messages: {
    'two-writers': '{{file}} is produced by {{generator}} and also written by {{others}}',
    'regions-outside-markdown': 'generators write regions into {{file}}, which is not a markdown file of the corpus',
    'two-stages': '{{file}} has regions from generators of two stages; a file is written by one stage only',
    'malformed-markers': '{{problem}}',
    'no-generator':
      'generated region "{{region}}" has no generator; its content is maintained by hand until one owns it',
    'region-absent': 'generator {{generator}} owns region "{{region}}", but {{file}} has no such region',
    'table-absent':
      '{{file}} is generated from {{sources}}, but has no table with the columns {{columns}} that {{generator}} produces for it ({{region}})',
  },
} as const satisfies CoreRule;

/** What the run says under `generate/<generator>` about a generator itself (its own findings are worded by it). */
const GENERATOR_MESSAGES = {
  'generator-failed': 'generator {{generator}} failed: {{reason}}',
  'region-two-generators': 'region {{region}} is produced by both {{other}} and {{generator}}',
  'file-two-generators': '{{file}} is produced by both {{other}} and {{generator}}',
} as const;

export interface PlannedFile {
  path: string;
  /** undefined when the file does not exist yet. */
  before: string | undefined;
  after: string;
  generators: string[];
  /** The file on disk when it is a parsed JSON document: its drift is then reported entry by entry. */
  data?: DataFile;
  /** How the file it replaces is written (CRLF, a byte order mark), which the written file keeps. */
  style?: TextStyle;
  /** For a JSON file its generator only splices into: the members generated; the rest is hand-written. */
  members?: ReadonlyArray<readonly string[]>;
}

/** The bytes a planned file is written as: its text in the style of the file it replaces. */
export function plannedContent(file: PlannedFile): Buffer {
  return encodeText(file.after, file.style);
}

export interface GenerationPlan {
  /** Every file some generator owns or writes into, changed or not. */
  files: PlannedFile[];
  diagnostics: Diagnostic[];
}

/** `reuse`: over a model that differs from the last run's in a few files, a generator whose reads they miss keeps its outputs (reuse.ts). */
export function planGeneration(corpus: Corpus, generators: readonly Generator[], reuse?: Reuse): GenerationPlan {
  const diagnostics: Diagnostic[] = [];
  const regionReport = coreReport(REGION_RULE, diagnostics);
  const planned = new Map<string, PlannedFile>();
  const ownedRegions = new Map<string, Set<string>>();
  const context: GenerationContext = {
    contentOf(file) {
      const plannedFile = planned.get(file);
      if (plannedFile)
        return plannedFile.style?.crlf || plannedFile.style?.bom ? plannedContent(plannedFile) : plannedFile.after;
      const existing = corpus.get(file);
      if (!existing) return undefined;
      return existing.kind === 'binary' ? existing.bytes : existing.text;
    },
    plannedPaths: () => [...planned.keys()],
  };

  // Generators that digest other outputs (runsLast) see them through `context`.
  for (const stage of [generators.filter((g) => !g.runsLast), generators.filter((g) => g.runsLast)]) {
    const { wholeFiles, regionContents } = runStage(corpus, stage, context, diagnostics, reuse);
    for (const [file, { content, generator, members }] of wholeFiles) {
      if (planned.has(file)) {
        regionReport({
          file,
          messageId: 'two-writers',
          data: { file, generator, others: planned.get(file)?.generators.join(', ') ?? '' },
        });
        continue;
      }
      const existing = corpus.get(file);
      const before = existing && existing.kind !== 'binary' ? existing.text : undefined;
      // Its problems, not its positioned document: positions are parsed only once a drift finding needs one.
      const data = existing?.kind === 'json' && existing.problems.length === 0 ? existing : undefined;
      planned.set(file, {
        path: file,
        before,
        after: content,
        generators: [generator],
        ...(data ? { data } : {}),
        ...(members ? { members } : {}),
        style: existing && existing.kind !== 'binary' ? existing.style : undefined,
      });
    }
    for (const [file, owned] of regionContents) {
      ownedRegions.set(file, new Set([...(ownedRegions.get(file) ?? []), ...owned.keys()]));
      const markdown = corpus.markdown(file);
      if (!markdown) {
        regionReport({ file, messageId: 'regions-outside-markdown', data: { file } });
        continue;
      }
      if (planned.has(file)) {
        regionReport({ file, messageId: 'two-stages', data: { file } });
        continue;
      }
      const mark = markdown.regions.length === 0 ? wholeFileMark(markdown.text) : undefined;
      const after = mark
        ? spliceTables(markdown, mark, owned, regionReport)
        : spliceRegions(markdown, owned, regionReport);
      planned.set(file, {
        path: file,
        before: markdown.text,
        after,
        generators: [...new Set([...owned.values()].map((v) => v.generator))].sort(),
        style: markdown.style,
      });
    }
  }

  // A generator that failed, or whose input does not parse, owns regions no one can list: which
  // regions have no generator cannot be told until it runs again.
  const cannotTell =
    diagnostics.some((d) => d.severity === 'error' && d.rule.startsWith('generate/')) ||
    generators.some((g) =>
      g.inputs.some((input) =>
        input.endsWith('/')
          ? corpus.all().some((file) => file.problems.length > 0 && inputCovers(input, file.path))
          : (corpus.get(input)?.problems.length ?? 0) > 0,
      ),
    );
  for (const markdown of corpus.markdownFiles()) {
    for (const { message, ...problem } of markdown.regionProblems)
      regionReport({ file: markdown.path, ...problem, messageId: 'malformed-markers', data: { problem: message } });
    const owned = ownedRegions.get(markdown.path);
    for (const region of markdown.regions) {
      if (!owned?.has(region.id) && !cannotTell) {
        regionReport({
          file: markdown.path,
          line: region.open.line,
          column: region.open.column,
          severity: 'warning',
          messageId: 'no-generator',
          data: { region: region.id },
          hint: 'check the region id, or add a generator that produces it',
        });
      }
    }
  }

  const files = [...planned.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics };
}

type Owned = Map<
  string,
  { content: string; generator: string; undecided?: string[]; members?: ReadonlyArray<readonly string[]> }
>;

function runStage(
  corpus: Corpus,
  generators: readonly Generator[],
  context: GenerationContext,
  diagnostics: Diagnostic[],
  reuse?: Reuse,
) {
  const wholeFiles: Owned = new Map();
  const regionContents = new Map<string, Owned>();
  for (const generator of generators) {
    // The generator's own findings are worded from its messages; what the run says about it, from GENERATOR_MESSAGES.
    const report = wordedReport(generator, 'generator', collector(`generate/${generator.id}`, 'error', diagnostics));
    const said = coreReport(
      { id: `generate/${generator.id}`, severity: 'error', messages: GENERATOR_MESSAGES },
      diagnostics,
    );
    let outputs: GeneratorOutput[] | undefined;
    // A generator that digests other outputs reads the plan, which the reads of a model do not cover: it always runs.
    if (reuse && !generator.runsLast) {
      const made = reuse.generator(generator.id, corpus, (view, reads) => {
        const found: Diagnostic[] = [];
        const recorded: GenerationContext = {
          contentOf: (file) => (reads.paths.add(file), context.contentOf(file)),
          plannedPaths: () => ((reads.all = true), context.plannedPaths?.() ?? []),
        };
        const own = coreReport(
          { id: `generate/${generator.id}`, severity: 'error', messages: GENERATOR_MESSAGES },
          found,
        );
        return {
          outputs: generateOne(
            view,
            generator,
            wordedReport(generator, 'generator', collector(`generate/${generator.id}`, 'error', found)),
            own,
            recorded,
          ),
          found,
        };
      });
      diagnostics.push(...made.found);
      outputs = made.outputs;
    } else outputs = generateOne(corpus, generator, report, said, context);
    if (!outputs) continue;
    for (const output of outputs) {
      if (isRegionContent(output)) {
        const perFile: Owned = regionContents.get(output.path) ?? new Map();
        const previous = perFile.get(output.region);
        if (previous && previous.content !== output.content) {
          said({
            file: output.path,
            messageId: 'region-two-generators',
            data: { region: output.region, other: previous.generator, generator: generator.id },
          });
        }
        perFile.set(output.region, {
          content: output.content,
          generator: generator.id,
          ...(output.undecided ? { undecided: output.undecided } : {}),
        });
        regionContents.set(output.path, perFile);
      } else {
        const previous = wholeFiles.get(output.path);
        if (previous)
          said({
            file: output.path,
            messageId: 'file-two-generators',
            data: { file: output.path, other: previous.generator, generator: generator.id },
          });
        wholeFiles.set(output.path, {
          content: output.content,
          generator: generator.id,
          ...(output.members ? { members: output.members } : {}),
        });
      }
    }
  }
  return { wholeFiles, regionContents };
}

/** One generator's outputs, or undefined when it threw (reported as the run's finding about it). */
function generateOne(
  corpus: Corpus,
  generator: Generator,
  report: Report,
  said: (finding: CoreFinding) => void,
  context: GenerationContext,
): GeneratorOutput[] | undefined {
  try {
    return timed(`generate/${generator.id}`, () => generator.generate(corpus, report, context));
  } catch (error) {
    said({
      file: generator.inputs[0] ?? '.',
      messageId: 'generator-failed',
      data: { generator: generator.id, reason: error instanceof Error ? error.message : String(error) },
    });
    return undefined;
  }
}

function spliceRegions(markdown: MarkdownFile, owned: Owned, report: (finding: CoreFinding) => void): string {
  const present = new Set(markdown.regions.map((region) => region.id));
  for (const [id, { generator }] of owned) {
    if (!present.has(id)) {
      report({
        file: markdown.path,
        messageId: 'region-absent',
        data: { generator, region: id, file: markdown.path },
        hint: `add <!-- generated: ${id} --> and <!-- /generated: ${id} --> where it belongs`,
      });
    }
  }
  let text = markdown.text;
  const ordered = [...markdown.regions].sort((a, b) => b.contentStart - a.contentStart);
  for (const region of ordered) {
    const output = owned.get(region.id);
    if (!output) continue;
    let content = output.content;
    if (region.kind === 'block') {
      if (content !== '' && !content.endsWith('\n')) content += '\n';
    } else {
      content = content.replace(/\s*\n\s*/g, ' ');
    }
    text = text.slice(0, region.contentStart) + content + text.slice(region.contentEnd);
  }
  return text;
}

/**
 * A file generated whole (under a "Generated from … do not edit" line) has no markers: each table a
 * generator produces for it stands for the file's table with the same first column whose columns
 * it has, in order, and that table's rows are replaced by the generated ones, cut to the file's
 * columns and written in its style. What is not a table (a list, a count) has no place to go there.
 */
function spliceTables(
  markdown: MarkdownFile,
  mark: WholeFileMark,
  owned: Owned,
  report: (finding: CoreFinding) => void,
): string {
  const tables = textTables(markdown.text);
  const used = new Set<number>();
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const [id, { content, generator, undecided = [] }] of owned) {
    const generated = textTables(content)[0];
    if (!generated) continue;
    const index = tables.findIndex(
      (table, i) =>
        !used.has(i) &&
        table.header[0] === generated.header[0] &&
        table.header.every((column) => generated.header.includes(column)),
    );
    const table = tables[index];
    if (!table) {
      report({
        file: markdown.path,
        line: mark.line,
        column: 1,
        messageId: 'table-absent',
        data: {
          generator,
          region: id,
          file: markdown.path,
          sources: mark.sources.join(', ') || 'its sources',
          columns: generated.header.join(' | '),
        },
        hint: 'regenerate the file, or check that its tables keep the generated columns',
      });
      continue;
    }
    used.add(index);
    const columns = table.header.map((column) => generated.header.indexOf(column));
    const lines = markdown.text.slice(table.bodyStart, table.bodyEnd).split('\n');
    // Another generator's layout is no drift: a row whose cells say the same (backticks and spacing
    // aside) keeps its line as written, and the rows keep the file's order.
    const written = new Map(
      table.rows.map((row, i) => [sameCell(row[0] ?? ''), { cells: row.map(sameCell), line: lines[i] ?? '', at: i }]),
    );
    // A row whose key differs only in case is the same row spelled otherwise: one changed row, not
    // a missing one and an extra one (`openwop-Idempotent-Replay` for `OpenWOP-Idempotent-Replay`).
    const folded = new Map([...written].reverse().map(([key, row]) => [key.toLowerCase(), row]));
    const rows = generated.rows.map((row) => {
      const key = row[0] ?? '';
      const cells = columns.map((column) => row[column] ?? '');
      const same =
        written.get(sameCell(key)) ??
        (generated.rows.some(
          (other) => other !== row && sameCell(other[0] ?? '').toLowerCase() === sameCell(key).toLowerCase(),
        )
          ? undefined
          : folded.get(sameCell(key).toLowerCase()));
      const agrees =
        same !== undefined &&
        same.cells.length === cells.length &&
        cells.every((cell, i) => sameCell(cell) === same.cells[i]);
      return { key, line: agrees ? same.line : joinRow(cells, table.outerPipes), at: same?.at };
    });
    ordered(rows);
    // A row the generator could not decide keeps its place among the others, as written.
    table.rows.forEach((row, index) => {
      if (!undecided.includes(row[0] ?? '')) return;
      const after = index > 0 ? rows.findIndex((candidate) => candidate.key === table.rows[index - 1]?.[0]) : -1;
      rows.splice(after + 1, 0, { key: row[0] ?? '', line: lines[index] ?? '', at: index });
    });
    edits.push({ start: table.bodyStart, end: table.bodyEnd, text: rows.map((row) => row.line).join('\n') });
  }
  let text = markdown.text;
  for (const edit of edits.sort((a, b) => b.start - a.start))
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  return text;
}

/** A cell as a fact: its text without code backticks, emphasis or extra spacing. */
function sameCell(cell: string): string {
  return cell.replace(/[`*]/g, '').replace(/\s+/g, ' ').trim();
}

/**
 * Rows the file already has in the file's order, each new one after the row the generator puts
 * before it: the order a generator writes is layout, not a fact.
 */
function ordered(rows: Array<{ key: string; line: string; at: number | undefined }>): void {
  const placed = rows.map((row, index) => ({ row, rank: row.at ?? -1, index }));
  // A new row takes the rank of the existing row before it in the generator's order.
  let previous = -1;
  for (const entry of placed) {
    if (entry.row.at !== undefined) previous = entry.row.at;
    else entry.rank = previous + 0.5;
  }
  placed.sort((a, b) => a.rank - b.rank || a.index - b.index);
  rows.splice(0, rows.length, ...placed.map((entry) => entry.row));
}

/** Past this many findings in one file (a file rewritten wholesale), the rest of its drift is summed up in one more. */
const MAX_DRIFT_FINDINGS = 200;

/**
 * The drift gate: for a stale output, one finding per differing line (a table row, a JSON entry),
 * at that line, with the line the generator produces there; a missing output is one finding.
 */
export function driftDiagnostics(plan: GenerationPlan, generators: readonly Generator[] = []): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const report = coreReport(DRIFT_RULE, diagnostics);
  // With the generators planned, a finding names what they read: the way out is always generate.
  const byId = new Map(generators.map((g) => [g.id, g]));
  for (const file of plan.files) {
    if (file.before === file.after) continue;
    const by = file.generators.join(', ');
    const used = file.generators.map((id) => byId.get(id));
    const digest = used.some((g) => g?.runsLast);
    const sources = [...new Set(used.flatMap((g) => (g && !g.runsLast ? g.inputs : [])))].filter(
      (input) => input !== file.path,
    );
    const hint = digest
      ? `${file.path} digests every corpus file, so any edit makes it stale: run \`openwop-spec generate\``
      : `run \`openwop-spec generate\`; generated text is not edited by hand${sources.length > 0 ? `: to change it, change ${sources.join(' or ')}` : ''}`;
    if (file.before === undefined) {
      report({ file: file.path, messageId: 'missing', data: { file: file.path, generators: by }, hint });
      continue;
    }
    const compared = file.data ? jsonDifferences(file.data, file.after) : undefined;
    const entries = compared?.differences;
    // A file another generator laid out is judged by its facts alone: when they agree, its layout
    // (indentation, key or record order, a list for a flag map) is no finding.
    if ((compared?.foreign || compared?.otherTool) && compared.differences.length === 0) continue;
    // A document whose records only stand in another order falls through to lines.
    if (entries && entries.length > 0) {
      for (const { message, ...entry } of entries.slice(0, MAX_DRIFT_FINDINGS))
        report({ file: file.path, ...entry, messageId: 'stale-entry', data: { generators: by, entry: message }, hint });
      if (entries.length > MAX_DRIFT_FINDINGS) {
        const { line, column } = entries[MAX_DRIFT_FINDINGS] as JsonDifference;
        report({
          file: file.path,
          line,
          column,
          messageId: 'stale-more',
          data: { generators: by, more: entries.length - MAX_DRIFT_FINDINGS, unit: 'entries' },
          hint,
        });
      }
      continue;
    }
    const differences = lineDifferences(file.before, file.after);
    for (const difference of differences.slice(0, MAX_DRIFT_FINDINGS)) {
      // A table row is named by its first cell, so the finding says which row, not only which line.
      const row = (text: string) => (isTableRow(text) ? `row ${splitRow(text)[0] ?? ''}` : undefined);
      const actual = row(difference.actual);
      const wanted = row(difference.expected);
      const data: Record<string, string> =
        difference.kind === 'changed'
          ? {
              place: actual ? `${actual} (line ${difference.line})` : `line ${difference.line}`,
              expected: around(difference.expected, difference.actual),
            }
          : difference.kind === 'extra'
            ? { place: actual ?? `line ${difference.line}`, unit: actual ? 'row' : 'line' }
            : { wanted: wanted ? `a ${wanted}` : 'a line', expected: truncate(difference.expected) };
      report({
        file: file.path,
        line: difference.line,
        column: 1,
        messageId: `stale-${difference.kind}`,
        data: { generators: by, ...data },
        hint,
      });
    }
    if (differences.length > MAX_DRIFT_FINDINGS) {
      const rest = differences[MAX_DRIFT_FINDINGS] as LineDifference;
      report({
        file: file.path,
        line: rest.line,
        column: 1,
        messageId: 'stale-more',
        data: { generators: by, more: differences.length - MAX_DRIFT_FINDINGS, unit: 'lines' },
        hint,
      });
    }
  }
  return diagnostics;
}

/** What identifies a line across versions: a table row's first cell, a JSON or YAML member's name, else the line. */
function lineKey(line: string): string {
  const trimmed = line.trim();
  // A row key in another case names the same row (a header name, case-insensitive in HTTP).
  if (trimmed.includes('|')) return (splitRow(trimmed)[0] ?? trimmed).toLowerCase();
  const member = /^("(?:[^"\\]|\\.)*"|[\w$-]+)\s*:/.exec(trimmed);
  return member ? (member[1] as string) : trimmed;
}

interface JsonDifference {
  line: number;
  column: number;
  message: string;
}

/**
 * Drift of a JSON document, entry by entry: a member whose value differs, one that is missing or
 * extra, and in a list of records, each record (named by its first scalar members) that differs,
 * is missing or is extra. Undefined when the generated text is not JSON (then lines are compared).
 */
function jsonDifferences(
  file: DataFile,
  after: string,
): { differences: JsonDifference[]; foreign: boolean; otherTool: boolean } | undefined {
  let expected: unknown;
  try {
    expected = JSON.parse(after);
  } catch {
    return undefined;
  }
  // A file another generator wrote (its own `$comment`, `description` or `title` says it is
  // generated, by another tool or by another layout of ours) may be shaped differently from ours:
  // only the facts both shapes hold are compared there (records named by their scalar members,
  // maps of scalars, a list of the codes a flag map sets, scalars of one type), never its prose or
  // its layout.
  const foreign =
    isObject(file.value) &&
    isObject(expected) &&
    foreignGenerated(file.value) &&
    !deepEqual(
      Object.keys(file.value).filter((k) => k !== '$comment'),
      Object.keys(expected).filter((k) => k !== '$comment'),
    );
  const differences: JsonDifference[] = [];
  const at = (path: PathSegment[], prefer: 'key' | 'value' = 'key') => {
    const { line, column } = Location.pointer(file, path, prefer).resolve();
    return { line, column };
  };
  const compare = (actual: unknown, wanted: unknown, path: PathSegment[]): void => {
    if (deepEqual(actual, wanted)) return;
    const last = path[path.length - 1];
    if (foreign && (last === 'title' || last === 'description' || last === '$comment')) return;
    if (isObject(actual) && isObject(wanted)) {
      if (foreign && !(isScalarMap(actual) && isScalarMap(wanted))) {
        for (const [key, value] of Object.entries(wanted))
          if (Object.hasOwn(actual, key)) compare(actual[key], value, [...path, key]);
        return;
      }
      for (const [key, value] of Object.entries(wanted)) {
        if (!Object.hasOwn(actual, key))
          differences.push({
            ...at(path),
            message: `${describePath(path)} has no member "${key}"; expected ${brief(value)}`,
          });
        else compare(actual[key], value, [...path, key]);
      }
      for (const key of Object.keys(actual))
        if (!Object.hasOwn(wanted, key))
          differences.push({
            ...at([...path, key]),
            message: `${describePath([...path, key])} is not generated; expected no such member`,
          });
      return;
    }
    if (isList(actual) && isList(wanted) && [...actual, ...wanted].every(isObject)) {
      const records = [...actual, ...wanted] as Array<Record<string, unknown>>;
      if (foreign && !records.every((record) => recordLabel(record) !== undefined)) return;
      const label = (record: Record<string, unknown>): string => recordLabel(record) ?? JSON.stringify(record);
      // Records are matched by name, wherever they stand; an order that differs alone is left to the line comparison.
      const wantedByLabel = new Map((wanted as Array<Record<string, unknown>>).map((entry) => [label(entry), entry]));
      const actualLabels = new Set((actual as Array<Record<string, unknown>>).map(label));
      (actual as Array<Record<string, unknown>>).forEach((entry, index) => {
        const name = label(entry);
        const generated = wantedByLabel.get(name);
        if (!generated) {
          differences.push({
            ...at([...path, index]),
            message: `${describePath(path)} entry ${name} is not generated; expected no such entry`,
          });
          return;
        }
        const members = [...new Set([...Object.keys(generated), ...Object.keys(entry)])].filter(
          (key) => !deepEqual(entry[key], generated[key]),
        );
        if (members.length === 0) return;
        const what = members
          .map((key) => (Object.hasOwn(generated, key) ? `${key} ${brief(generated[key])}` : `no ${key}`))
          .join(', ');
        differences.push({
          ...at([...path, index, members[0] as string]),
          message: `${describePath(path)} entry ${name} differs; expected ${what}`,
        });
      });
      (wanted as Array<Record<string, unknown>>).forEach((entry, index) => {
        const name = label(entry);
        if (!actualLabels.has(name))
          differences.push({
            ...at(index < actual.length ? [...path, index] : actual.length > 0 ? [...path, actual.length - 1] : path),
            message: `${describePath(path)} has no entry ${name}; expected ${brief(entry)}`,
          });
      });
      return;
    }
    if (foreign) {
      const listed = asFlagSet(actual);
      const flagged = asFlagSet(wanted);
      // One fact in two layouts: the codes a list names, or the codes a map of flags sets true.
      if (listed && flagged && (Array.isArray(actual) || Array.isArray(wanted))) {
        for (const name of [...flagged].filter((entry) => !listed.has(entry)))
          differences.push({
            ...at(path),
            message: `${describePath(path)} does not give ${name}; expected it, as the registry does`,
          });
        for (const name of [...listed].filter((entry) => !flagged.has(entry)))
          differences.push({
            ...at(path),
            message: `${describePath(path)} gives ${name}; expected not, as the registry does not`,
          });
        return;
      }
      if (Array.isArray(actual) || Array.isArray(wanted) || typeof actual !== typeof wanted) return;
    }
    differences.push({
      ...at(path, 'value'),
      message: `${describePath(path)} is ${brief(actual)}; expected ${brief(wanted)}`,
    });
  };
  compare(file.value, expected, []);
  return { differences, foreign, otherTool: isObject(file.value) && generatedByAnotherTool(file.value) };
}

/** A list of names, or a map of names to booleans read as the names set true; else undefined. */
function asFlagSet(value: unknown): Set<string> | undefined {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string') ? new Set(value) : undefined;
  if (isObject(value) && Object.values(value).every((item) => typeof item === 'boolean'))
    return new Set(Object.keys(value).filter((key) => value[key] === true));
  return undefined;
}

/** A record's name: its first two scalar members (`GET /runs`, `runEvents /runs/{runId}/events`). */
function recordLabel(record: Record<string, unknown>): string | undefined {
  const scalars = Object.entries(record)
    .filter(([key, value]) => !key.startsWith('$') && (typeof value === 'string' || typeof value === 'number'))
    .slice(0, 2);
  return scalars.length > 0 ? scalars.map(([, value]) => String(value)).join(' ') : undefined;
}

/** Any banner of the "generated" family: "GENERATED by scripts/x.mjs", "Generated from errors.json; do not edit". */
const GENERATED_MARK =
  /\b(?:auto-?)?generated\b[^\n]{0,200}?(?:\b(?:by|from)\s+`?[\w./-]+|\bdo not edit\b)|\bdo not edit\b[^\n]{0,200}?\bgenerated\b/i;

function foreignGenerated(value: Record<string, unknown>): boolean {
  return [value.$comment, value.description, value.title].some(
    (text) => typeof text === 'string' && GENERATED_MARK.test(text),
  );
}

/** Generated, says the file, and not by this tool: its layout is that tool's. */
function generatedByAnotherTool(value: Record<string, unknown>): boolean {
  return (
    foreignGenerated(value) &&
    ![value.$comment, value.description, value.title].some(
      (text) => typeof text === 'string' && /\bopenwop-spec\b/.test(text),
    )
  );
}

/** A map of data (code to status): every value a scalar of one type, so its keys are entries, not keywords. */
function isScalarMap(value: Record<string, unknown>): boolean {
  const types = new Set(Object.values(value).map((member) => (member === null ? 'null' : typeof member)));
  return types.size === 1 && !types.has('object') && Object.keys(value).length > 1;
}

function describePath(path: readonly PathSegment[]): string {
  return path.length === 0
    ? 'the document'
    : path
        .map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : i === 0 ? segment : `.${segment}`))
        .join('');
}

function brief(value: unknown): string {
  return truncate(JSON.stringify(value) ?? 'undefined');
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]))
    );
  }
  return false;
}

interface LineDifference {
  kind: 'changed' | 'extra' | 'missing';
  /** The line of the file on disk (for `missing`, the line the missing one would come before). */
  line: number;
  /** What the generator produces there (empty for `extra`). */
  expected: string;
  /** The line on disk (empty for `missing`). */
  actual: string;
}

function isTableRow(text: string): boolean {
  const trimmed = text.trim();
  return (
    trimmed.includes('|') && !/^\|?\s*:?-+/.test(trimmed) && (trimmed.startsWith('|') || splitRow(trimmed).length > 1)
  );
}

/** Each line of `before` that `after` changes or drops, and each line it adds, in file order. */
function lineDifferences(before: string, after: string): LineDifference[] {
  const differences: LineDifference[] = [];
  let line = 1;
  let removed: string[] = [];
  let added: string[] = [];
  const flush = (): void => {
    const start = line - removed.length;
    // A changed line is paired with the generated line of the same key (a table row's first cell,
    // a JSON member's name), in order; a line without a partner is extra, or missing.
    const partner: Array<number | undefined> = [];
    let next = 0;
    for (const [i, text] of removed.entries()) {
      const found = added.findIndex((candidate, j) => j >= next && lineKey(candidate) === lineKey(text));
      if (found !== -1) {
        partner[i] = found;
        next = found + 1;
      }
    }
    // No line of the hunk has a partner by key (prose, a count): its lines pair by position.
    if (!partner.some((j) => j !== undefined)) {
      for (let i = 0; i < Math.min(removed.length, added.length); i++) partner[i] = i;
    }
    const matched = new Set(partner.filter((j): j is number => j !== undefined));
    let pending = 0;
    for (const [i] of removed.entries()) {
      const j = partner[i];
      if (j === undefined) {
        differences.push({ kind: 'extra', line: start + i, expected: '', actual: removed[i] as string });
        continue;
      }
      for (; pending < j; pending++)
        if (!matched.has(pending))
          differences.push({ kind: 'missing', line: start + i, expected: added[pending] as string, actual: '' });
      differences.push({
        kind: 'changed',
        line: start + i,
        expected: added[j] as string,
        actual: removed[i] as string,
      });
      pending = j + 1;
    }
    for (; pending < added.length; pending++)
      if (!matched.has(pending))
        differences.push({ kind: 'missing', line, expected: added[pending] as string, actual: '' });
    removed = [];
    added = [];
  };
  for (const change of diffArrays(before.split('\n'), after.split('\n'))) {
    if (change.removed) {
      removed.push(...change.value);
      line += change.value.length;
    } else if (change.added) {
      added.push(...change.value);
    } else {
      flush();
      line += change.value.length;
    }
  }
  flush();
  return differences;
}

export function firstDifferingLine(before: string, after: string): number {
  const a = before.split('\n');
  const b = after.split('\n');
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i + 1;
  return length;
}

/** The expected line, cut to show where it first departs from the line on disk. */
function around(expected: string, actual: string): string {
  let at = 0;
  while (at < expected.length && expected[at] === actual[at]) at++;
  if (expected.length <= 120 || at < 60) return truncate(expected);
  return truncate(`...${expected.slice(at - 40)}`);
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
