/**
 * The edits an author or a release manager makes to a corpus, each written as they would make it
 * (a row added by hand to a registry, a heading renamed in an editor, a file deleted), over any
 * corpus of this shape: this repository's and the upstream one, or those of the two it claims (an
 * edit of what one corpus has and the other has not). On a base it claims, an edit applies alone
 * (edits.test.ts holds it to that); after another edit of a sequence it may find nothing to act on
 * (a deleted document), and then returns undefined and the sequence goes on without it, and a
 * sequence where none applied fails. Choices (which row, which heading) come from the seeded
 * generator, so a sequence is replayed exactly from its seed.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { writeText } from '../helpers.js';

/** A seeded generator (mulberry32): the same seed, the same choices. */
export class Rng {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  pick<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : items[Math.floor(this.next() * items.length)];
  }
  /** A lower-case word no corpus has, for new names. */
  word(): string {
    return `zq${Math.floor(this.next() * 1e8).toString(36)}`;
  }
}

/** The corpora the edits are made to: this repository's, and the upstream one. */
export type BaseName = 'this corpus' | 'upstream';

export interface Edit {
  id: string;
  /** What an author does, in words. */
  does: string;
  /** The bases it applies to, when not every one: what it edits is only in those (a package.json, a registry's meanings). */
  claims?: readonly BaseName[];
  /** Applies the edit under `root`; returns the files it touched (root-relative), or undefined when it does not apply. */
  apply(root: string, rng: Rng): string[] | undefined;
}

const ERRORS = 'spec/v2/errors.json';
const CODEMAP = 'spec/v2/event-codemap.json';
const OPENAPI = 'api/v2/openapi.yaml';
const CORE = 'spec/v2/core';
const PAYLOADS = 'schemas/v2/run-event-payloads.schema.json';

function readIfPresent(root: string, file: string): string | undefined {
  const absolute = path.join(root, file);
  return existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined;
}

/**
 * Puts a paragraph into `file` just before its first or last `## ` section; false (nothing written)
 * when it has none. The paragraph is made only then, so an edit that cannot apply draws nothing from the seed.
 */
function insertBeforeSection(root: string, file: string, which: 'first' | 'last', paragraph: () => string): boolean {
  const text = readIfPresent(root, file) ?? '';
  const at = which === 'first' ? text.indexOf('\n## ') : text.lastIndexOf('\n## ');
  if (at === -1) return false;
  writeText(root, file, `${text.slice(0, at)}\n\n${paragraph()}\n${text.slice(at)}`);
  return true;
}

/** A JSON file as an editor saves it after a change: two-space indentation, a final newline. */
function editJsonIfParses<T>(root: string, file: string, change: (value: T) => boolean): boolean {
  const text = readIfPresent(root, file);
  if (text === undefined) return false;
  let value: T;
  try {
    value = JSON.parse(text) as T;
  } catch {
    return false;
  }
  if (!change(value)) return false;
  writeText(root, file, `${JSON.stringify(value, null, 2)}\n`);
  return true;
}

type Row = Record<string, unknown>;

function rowsOf(root: string, file: string): Row[] {
  try {
    const value = JSON.parse(readIfPresent(root, file) ?? 'null') as { rows?: unknown };
    return Array.isArray(value?.rows) ? (value.rows as Row[]) : [];
  } catch {
    return [];
  }
}

/** Every file under root (node_modules aside), root-relative. */
function allFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  walk('');
  return out.sort();
}

function coreDocuments(root: string): string[] {
  return existsSync(path.join(root, CORE))
    ? readdirSync(path.join(root, CORE))
        .filter((name) => name.endsWith('.md') && name !== 'README.md')
        .map((name) => `${CORE}/${name}`)
        .sort()
    : [];
}

/** The GitHub anchor of a heading's text, as the simple headings of the core documents have it. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** Headings (## and deeper, plain words only) of the core documents that some other file links to by anchor. */
function citedHeadings(root: string): Array<{ file: string; line: string; anchor: string }> {
  const texts = allFiles(root)
    .filter((file) => /\.(md|json|ya?ml)$/.test(file))
    .map((file) => readIfPresent(root, file) ?? '');
  const out: Array<{ file: string; line: string; anchor: string }> = [];
  for (const file of coreDocuments(root)) {
    const base = path.posix.basename(file);
    for (const line of (readIfPresent(root, file) ?? '').split('\n')) {
      const heading = /^#{2,4} ([A-Za-z][A-Za-z ]+)$/.exec(line);
      if (!heading?.[1]) continue;
      const anchor = anchorOf(heading[1]);
      if (texts.some((text) => text.includes(`${base}#${anchor})`))) out.push({ file, line, anchor });
    }
  }
  return out;
}

/** Whether `edit` applies to the base named `base`. */
export function editClaims(edit: Edit, base: BaseName): boolean {
  return edit.claims === undefined || edit.claims.includes(base);
}

export const EDITS: readonly Edit[] = [
  {
    id: 'add-error-code',
    does: 'adds an error code: a copy of a retriable row under a new code',
    apply(root, rng) {
      const code = `${rng.word()}_exceeded`;
      const done = editJsonIfParses<{ rows: Row[] }>(root, ERRORS, (registry) => {
        const model = rng.pick(registry.rows.filter((row) => row.retriable === true)) ?? rng.pick(registry.rows);
        if (!model) return false;
        registry.rows.push({ ...model, code });
        return true;
      });
      return done ? [ERRORS] : undefined;
    },
  },
  {
    id: 'remove-error-code',
    does: 'removes an error code from the registry (its mentions stay, as an author forgets them)',
    apply(root, rng) {
      const done = editJsonIfParses<{ rows: Row[] }>(root, ERRORS, (registry) => {
        if (registry.rows.length < 2) return false;
        registry.rows.splice(Math.floor(rng.next() * registry.rows.length), 1);
        return true;
      });
      return done ? [ERRORS] : undefined;
    },
  },
  {
    id: 'rename-error-code',
    does: 'renames an error code in the registry and everywhere the corpus writes it',
    apply(root, rng) {
      const code = rng.pick(
        rowsOf(root, ERRORS)
          .map((row) => row.code)
          .filter((c): c is string => typeof c === 'string' && /^[a-z_]+$/.test(c)),
      );
      if (!code) return undefined;
      const renamed = `${code}_${rng.word()}`;
      const word = new RegExp(`(?<![A-Za-z0-9_.-])${code}(?![A-Za-z0-9_])`, 'g');
      const touched: string[] = [];
      for (const file of allFiles(root).filter(
        (f) => /\.(md|json|ya?ml)$/.test(f) && !f.endsWith('CORPUS-STAMP.json'),
      )) {
        const text = readIfPresent(root, file) ?? '';
        const next = text.replace(word, renamed);
        if (next !== text) {
          writeText(root, file, next);
          touched.push(file);
        }
      }
      return touched.length > 0 ? touched : undefined;
    },
  },
  {
    id: 'change-error-meaning',
    does: "rewrites an error code's meaning in the registry",
    // Upstream's registry gives a code's status, retriability and source, and no meaning.
    claims: ['this corpus'],
    apply(root, rng) {
      const done = editJsonIfParses<{ rows: Row[] }>(root, ERRORS, (registry) => {
        const row = rng.pick(registry.rows.filter((r) => typeof r.meaning === 'string'));
        if (!row) return false;
        row.meaning = `${String(row.meaning).replace(/\.$/, '')}; the host says so in the message.`;
        return true;
      });
      return done ? [ERRORS] : undefined;
    },
  },
  {
    id: 'add-event-type',
    does: 'adds an event type to the codemap, with its payload definition',
    apply(root, rng) {
      const name = rng.word();
      const type = `run.${name}`;
      const payloadDef = `${name}Payload`;
      const payloads = existsSync(path.join(root, PAYLOADS));
      const done = editJsonIfParses<{ rows: Row[] }>(root, CODEMAP, (codemap) => {
        const model = rng.pick(
          codemap.rows.filter((row) => typeof row.v2 === 'string' && row.v2.startsWith('run.') && row.payloadDef),
        );
        if (!model) return false;
        const row: Row = { ...model, v1: type, v2: type };
        delete row.v2Override;
        delete row.note;
        if (payloads) row.payloadDef = payloadDef;
        codemap.rows.push(row);
        return true;
      });
      if (!done) return undefined;
      if (!payloads) return [CODEMAP];
      editJsonIfParses<{ $defs: Record<string, unknown> }>(root, PAYLOADS, (schema) => {
        schema.$defs[payloadDef] = {
          description: `What a ${type} event carries.`,
          type: 'object',
          additionalProperties: false,
          required: ['reason'],
          properties: { reason: { description: 'Why it happened.', type: 'string' } },
        };
        return true;
      });
      return [CODEMAP, PAYLOADS];
    },
  },
  {
    id: 'rename-cited-heading',
    does: 'renames a heading of a core document that other documents, schemas or the API link to',
    // Upstream cites its sections by number (§3.1), never by a link to a heading's anchor.
    claims: ['this corpus'],
    apply(root, rng) {
      const heading = rng.pick(citedHeadings(root));
      if (!heading) return undefined;
      const text = readIfPresent(root, heading.file) ?? '';
      writeText(root, heading.file, text.replace(`\n${heading.line}\n`, `\n${heading.line} in detail\n`));
      return [heading.file];
    },
  },
  {
    id: 'add-operation',
    does: 'adds an operation to the OpenAPI document',
    apply(root, rng) {
      const text = readIfPresent(root, OPENAPI);
      const match = text && /^paths:\n( +)\//m.exec(text);
      if (!text || !match?.[1]) return undefined;
      const i = match[1];
      const name = rng.word();
      const block = [
        `${i}/${name}s:`,
        `${i}${i}get:`,
        `${i}${i}${i}operationId: list${name[0]?.toUpperCase()}${name.slice(1)}s`,
        `${i}${i}${i}summary: List the ${name}s`,
        `${i}${i}${i}description: Returns every ${name} the caller may read.`,
        `${i}${i}${i}responses:`,
        `${i}${i}${i}${i}'200':`,
        `${i}${i}${i}${i}${i}description: The ${name}s.`,
      ].join('\n');
      writeText(root, OPENAPI, text.replace(/^paths:\n/m, `paths:\n${block}\n`));
      return [OPENAPI];
    },
  },
  {
    id: 'change-header-description',
    does: 'changes the description of a header the API declares',
    apply(root) {
      const text = readIfPresent(root, OPENAPI);
      if (!text) return undefined;
      const lines = text.split('\n');
      const start = lines.findIndex((line) => /^ {2}headers:\s*$/.test(line));
      if (start === -1) return undefined;
      for (let at = start + 1; at < lines.length && !/^ {2}\S/.test(lines[at] ?? ''); at++) {
        const line = lines[at] ?? '';
        const described = /^(\s+description:)\s*(.*)$/.exec(line);
        if (!described) continue;
        const value = described[2] ?? '';
        if (/^[>|]/.test(value)) {
          lines[at + 1] = `${lines[at + 1] ?? ''} It is sent on every reply.`;
        } else if (/^["']/.test(value)) {
          lines[at] = line.replace(/(["'])\s*$/, ' It is sent on every reply.$1');
        } else {
          lines[at] = `${line} It is sent on every reply.`;
        }
        writeText(root, OPENAPI, lines.join('\n'));
        return [OPENAPI];
      }
      return undefined;
    },
  },
  {
    id: 'add-schema-with-id-field',
    does: 'adds a schema whose object has an *Id field',
    apply(root, rng) {
      const folder = path.join(root, 'schemas/v2');
      if (!existsSync(folder)) return undefined;
      const model = readdirSync(folder)
        .filter((name) => name.endsWith('.schema.json'))
        .sort()[0];
      const id = model
        ? (JSON.parse(readIfPresent(root, `schemas/v2/${model}`) ?? '{}') as { $id?: string }).$id
        : undefined;
      const name = rng.word();
      const file = `schemas/v2/${name}.schema.json`;
      const schema = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        ...(id ? { $id: id.replace(/[^/]*$/, `${name}.schema.json`) } : {}),
        title: name,
        description: `A ${name}, as a host reports it.`,
        type: 'object',
        required: [`${name}Id`],
        properties: { [`${name}Id`]: { description: `The ${name}'s id.`, type: 'string' } },
      };
      writeText(root, file, `${JSON.stringify(schema, null, 2)}\n`);
      return [file];
    },
  },
  {
    id: 'change-prose-count',
    does: 'changes a count of a registry in prose by hand (in a generated count region, or where the corpus writes its counts by hand)',
    apply(root, rng) {
      const files = allFiles(root).filter((file) => file.endsWith('.md'));
      // A count region where the corpus keeps them; else a count written beside the registry's file name ("event-codemap.json (117 rows").
      const region = /(<!-- generated: count\/[^>]*-->\*\*)([\d,]+)(\*\*)/;
      const byHand = /((?:errors|event-codemap)\.json`?[^\n\d]{0,40}?)(\d+)( (?:rows|codes)\b)/;
      const counted = files.filter((file) => region.test(readIfPresent(root, file) ?? ''));
      const pattern = counted.length > 0 ? region : byHand;
      const file = rng.pick(
        counted.length > 0 ? counted : files.filter((f) => byHand.test(readIfPresent(root, f) ?? '')),
      );
      if (!file) return undefined;
      writeText(
        root,
        file,
        (readIfPresent(root, file) ?? '').replace(
          pattern,
          (_all, open: string, n: string, close: string) => `${open}${Number(n.replace(/,/g, '')) + 3}${close}`,
        ),
      );
      return [file];
    },
  },
  {
    id: 'add-suppression',
    does: 'adds a link to a heading not yet written, with a suppression comment that accepts it',
    apply(root, rng) {
      const file = rng.pick(coreDocuments(root));
      if (!file) return undefined;
      const paragraph = () =>
        `<!-- openwop-spec-disable-next-line links/anchor -- the section lands with the next change -->\nThe details are [to come](#${rng.word()}).`;
      return insertBeforeSection(root, file, 'first', paragraph) ? [file] : undefined;
    },
  },
  {
    id: 'delete-cited-document',
    does: 'deletes a core document other documents link to',
    apply(root, rng) {
      const texts = allFiles(root)
        .filter((f) => f.endsWith('.md'))
        .map((f) => readIfPresent(root, f) ?? '');
      const cited = coreDocuments(root).filter((file) =>
        texts.some(
          (text) => text.includes(`${path.posix.basename(file)})`) || text.includes(`${path.posix.basename(file)}#`),
        ),
      );
      const file = rng.pick(cited);
      if (!file) return undefined;
      rmSync(path.join(root, file));
      return [file];
    },
  },
  {
    id: 'bump-version',
    does: 'bumps the release version (package.json and spec/v2/release.json together, as the release manager does)',
    apply(root) {
      const touched: string[] = [];
      const bump = (version: string): string =>
        version.replace(/(\d+)(\D*)$/, (_all, n: string, rest: string) => `${Number(n) + 1}${rest}`);
      for (const file of ['package.json', 'spec/v2/release.json']) {
        if (
          editJsonIfParses<{ version?: unknown }>(
            root,
            file,
            (value) => typeof value.version === 'string' && ((value.version = bump(value.version)), true),
          )
        )
          touched.push(file);
      }
      return touched.length > 0 ? touched : undefined;
    },
  },
  {
    id: 'bump-package-version-only',
    does: 'bumps the version in package.json and forgets spec/v2/release.json',
    // Upstream's corpus has no package.json of its own.
    claims: ['this corpus'],
    apply(root) {
      const done = editJsonIfParses<{ version?: unknown }>(
        root,
        'package.json',
        (value) => typeof value.version === 'string' && ((value.version = `${value.version}-next.1`), true),
      );
      return done ? ['package.json'] : undefined;
    },
  },
  {
    id: 'bare-doc-reference',
    does: 'mentions another core document by name in prose, without a link',
    apply(root, rng) {
      const docs = coreDocuments(root);
      const file = rng.pick(docs);
      const other = rng.pick(docs.filter((d) => d !== file));
      if (!file || !other) return undefined;
      return insertBeforeSection(
        root,
        file,
        'first',
        () => `The rules for this are in ${path.posix.basename(other)} as well.`,
      )
        ? [file]
        : undefined;
    },
  },
  {
    id: 'add-prose',
    does: 'adds a paragraph to a core document (the word count follows)',
    apply(root, rng) {
      const file = rng.pick(coreDocuments(root));
      if (!file) return undefined;
      return insertBeforeSection(
        root,
        file,
        'last',
        () => 'A host keeps this short and plain, so that a reader finds the rule at once.',
      )
        ? [file]
        : undefined;
    },
  },
  {
    id: 'windows-line-ends',
    does: 'saves a core document with CRLF line ends (an editor on Windows)',
    apply(root, rng) {
      const file = rng.pick(coreDocuments(root).filter((f) => !(readIfPresent(root, f) ?? '').includes('\r\n')));
      if (!file) return undefined;
      writeText(root, file, (readIfPresent(root, file) ?? '').replace(/\n/g, '\r\n'));
      return [file];
    },
  },
  {
    id: 'toggle-retriable',
    does: "flips an error code's retriable flag",
    apply(root, rng) {
      const done = editJsonIfParses<{ rows: Row[] }>(root, ERRORS, (registry) => {
        const row = rng.pick(registry.rows.filter((r) => typeof r.retriable === 'boolean'));
        if (!row) return false;
        row.retriable = !row.retriable;
        return true;
      });
      return done ? [ERRORS] : undefined;
    },
  },
  {
    id: 'add-core-document',
    does: 'adds a core document in the house style',
    apply(root, rng) {
      if (!existsSync(path.join(root, CORE))) return undefined;
      const name = rng.word();
      const file = `${CORE}/${name}.md`;
      writeText(
        root,
        file,
        `# ${name[0]?.toUpperCase()}${name.slice(1)}\n\n> **Status: Draft.**\n\n## Why this exists\n\nA host that offers ${name} says so in discovery.\n`,
      );
      return [file];
    },
  },
];
