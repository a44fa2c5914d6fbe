/**
 * The error-registry fixture corpus, with the repository's own spec/v2/errors.schema.json laid in
 * (one schema, not a copy per fixture), in memory or as a private directory.
 */
import { cpSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusFromFiles, type Corpus } from '../../core/model/corpus.js';
import { ERRORS_PATH, ERRORS_SCHEMA_PATH } from '../../core/registries/errors.js';
import { planGeneration, type GenerationPlan } from '../../core/run/generation.js';
import errorEnvelope from '../../generators/error-envelope.js';
import errorsDoc from '../../generators/errors-doc.js';
import { copyFixture, fixture, readTree } from '../helpers.js';
import type { CorpusCase, InvalidCase } from '../rule-tester.js';

const ERRORS_FIXTURE = 'errors/corpus';
/** The registry schema of the fixtures (the api fixture's copy, itself this repository's of 2.42.8): tests never read the live one. */
const SCHEMA_FIXTURE = path.join(fixture('api/good'), ERRORS_SCHEMA_PATH);
export const SCHEMA_TEXT = readFileSync(SCHEMA_FIXTURE, 'utf8');

/** A rule-tester case on the error-registry fixture with `files` over it, the registry schema laid in. */
export function errorsCase(
  name: string,
  files: Record<string, string | null>,
  rest: Partial<InvalidCase> = {},
): CorpusCase & Partial<InvalidCase> {
  return { name, base: ERRORS_FIXTURE, files: { [ERRORS_SCHEMA_PATH]: SCHEMA_TEXT, ...files }, ...rest };
}

/** Every file of a fixture corpus, by root-relative path, with the registry schema added. */
export function fixtureFiles(name = ERRORS_FIXTURE): Record<string, string> {
  return { ...layer(name), [ERRORS_SCHEMA_PATH]: SCHEMA_TEXT };
}

/** The files of a fixture directory as they are, to lay over another fixture. */
function layer(name: string): Record<string, string> {
  return readTree(fixture(name));
}

/** The fixture in memory; an override of `undefined` removes a file. */
export function errorsCorpus(overrides: Record<string, string | undefined> = {}, name = ERRORS_FIXTURE): Corpus {
  const files: Record<string, string> = fixtureFiles(name);
  for (const [file, text] of Object.entries(overrides)) {
    if (text === undefined) delete files[file];
    else files[file] = text;
  }
  return corpusFromFiles('/nonexistent-errors-fixture', files);
}

/** A private copy on disk, for the command line. */
export function copyErrorsFixture(name = ERRORS_FIXTURE): string {
  const root = copyFixture(name);
  mkdirSync(path.join(root, 'spec', 'v2'), { recursive: true });
  cpSync(SCHEMA_FIXTURE, path.join(root, ERRORS_SCHEMA_PATH));
  return root;
}

/** The fixture registry, parsed, for a test to change. */
export function fixtureRegistry(): { rows: Array<Record<string, unknown>> } & Record<string, unknown> {
  return JSON.parse(fixtureFiles()[ERRORS_PATH] ?? '{}') as { rows: Array<Record<string, unknown>> } & Record<
    string,
    unknown
  >;
}

/** The fixture registry's text with one exact edit, so findings keep the fixture's line numbers. */
export function editedRegistry(from: string, to: string, occurrence = 0): string {
  const text = fixtureFiles()[ERRORS_PATH] ?? '';
  let index = -1;
  for (let i = 0; i <= occurrence; i++) index = text.indexOf(from, index + 1);
  if (index === -1) throw new Error(`the fixture registry has no ${JSON.stringify(from)} #${occurrence}`);
  return text.slice(0, index) + to + text.slice(index + from.length);
}

export function registryText(registry: unknown): string {
  return `${JSON.stringify(registry, null, 2)}\n`;
}

/** Generation by the two error-registry generators alone, over a corpus. */
export function planErrors(corpus: Corpus): GenerationPlan {
  return planGeneration(corpus, [errorEnvelope, errorsDoc]);
}

export const DECLARATION = `${JSON.stringify(
  {
    version: '2.0',
    reservedOrgs: ['openwop', 'vendor'],
    extensions: { acme: { owner: 'Acme' }, example: { owner: 'documentation only' }, 'big-co': { owner: 'Big Co' } },
  },
  null,
  2,
)}\n`;
