/**
 * Fixture corpora of the events area. The fixture holds the data; the registry schemas are the
 * repository's own (spec/v2/declaration.schema.json, spec/v2/event-codemap.schema.json), added at
 * load time so that a fixture can never drift from the schema the toolchain ships.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { corpusFromFiles, type Corpus } from '../../core/model/corpus.js';
import { fixture, readTree, REPO, tempDir } from '../helpers.js';
import type { CorpusCase, InvalidCase } from '../rule-tester.js';

const REGISTRY_SCHEMAS = ['spec/v2/declaration.schema.json', 'spec/v2/event-codemap.schema.json'];

export const CODEMAP = 'spec/v2/event-codemap.json';
export const DECLARATION = 'spec/v2/declaration.json';
export const PAYLOADS = 'schemas/v2/run-event-payloads.schema.json';
export const RUN_EVENT = 'schemas/v2/run-event.schema.json';
export const CLOUDEVENT = 'schemas/v2/cloudevent.schema.json';
export const WEBHOOK = 'schemas/v2/webhook-delivery.schema.json';
export const EVENTS_MD = 'spec/v2/core/events.md';
export const FORMS_MD = 'spec/v2/core/forms.md';

/** The good events fixture with the repository's registry schemas, as path -> text. */
export function eventsFiles(): Record<string, string> {
  return { ...readTree(fixture('events/good')), ...registrySchemaFiles() };
}

/** A rule-tester case on the good events fixture with `files` over it, the registry schemas laid in. */
export function eventsCase(
  name: string,
  files: Record<string, string | null>,
  rest: Partial<InvalidCase> = {},
): CorpusCase & Partial<InvalidCase> {
  return { name, base: 'events/good', files: { ...registrySchemaFiles(), ...files }, ...rest };
}

/** The repository's registry schemas, as path -> text. */
export function registrySchemaFiles(): Record<string, string> {
  return Object.fromEntries(REGISTRY_SCHEMAS.map((schema) => [schema, readFileSync(path.join(REPO, schema), 'utf8')]));
}

/** The good fixture with some files replaced (a string) or removed (null). */
export function eventsCorpus(overrides: Record<string, string | null> = {}): Corpus {
  const files = eventsFiles();
  for (const [file, text] of Object.entries(overrides)) {
    if (text === null) delete files[file];
    else files[file] = text;
  }
  return corpusFromFiles('/events-fixture', files);
}

/**
 * A private on-disk copy of the good fixture, schemas included, for the command line. The command
 * line runs every registered generator, so the copy also holds stand-ins for what the other areas'
 * generators read (test/fixtures/events/neighbours: an empty API, a headers document).
 */
export function copyEventsFixture(): string {
  const target = tempDir('openwop-events-');
  cpSync(fixture('events/good'), target, { recursive: true });
  cpSync(fixture('events/neighbours'), target, { recursive: true });
  for (const schema of REGISTRY_SCHEMAS)
    writeFileSync(path.join(target, schema), readFileSync(path.join(REPO, schema), 'utf8'));
  return target;
}

/** 1-based line of the first line containing `needle`, and the column where it starts. */
export function position(text: string, needle: string, occurrence = 1): { line: number; column: number } {
  const lines = text.split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    const column = lines[i]?.indexOf(needle) ?? -1;
    if (column >= 0 && ++seen === occurrence) return { line: i + 1, column: column + 1 };
  }
  throw new Error(`"${needle}" not found`);
}

/** Inserts `row` as the last row of a codemap text written one row a line. */
export function withRow(codemap: string, row: Record<string, unknown>): string {
  const close = codemap.lastIndexOf('\n  ]');
  return `${codemap.slice(0, close)},\n    ${JSON.stringify(row)}${codemap.slice(close)}`;
}

export function decided(v2: string, payloadDef: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { v1: v2, v2, payloadDef, status: 'decided', review: false, ...extra };
}

/** Adds `$defs` entries to a payload schema text (re-serialized: positions are computed after). */
export function withPayloads(payloads: string, defs: Record<string, unknown>): string {
  const value = JSON.parse(payloads) as { $defs: Record<string, unknown> };
  Object.assign(value.$defs, defs);
  return `${JSON.stringify(value, null, 2)}\n`;
}

export const CLOSED = (properties: Record<string, unknown> = {}) => ({
  type: 'object',
  additionalProperties: false,
  properties,
});
