/** Shared by the api gate tests: the fixture corpora, and where in the rules fixture a finding is expected. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fixture, lineOf, readTree } from '../../helpers.js';

/** The correct API corpus the api gates' cases extend (a folder under test/fixtures). */
export const API_BASE = 'api/good';
export const GOOD = fixture(API_BASE);
/** The defects of the api rules: the correct corpus with the files of api/defects/rules over it (only what differs is kept there). */
export const RULES_LAYER = 'api/defects/rules';
export const RULES: Record<string, string> = { ...readTree(GOOD), ...readTree(fixture(RULES_LAYER)) };
export const INVALID = fixture('api/defects/invalid');
export const OPENAPI = 'api/v2/openapi.yaml';
export const text = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');
export const rulesApi = RULES[OPENAPI] as string;
export const at = (needle: string, column: number, after = 0, file = OPENAPI) => `${file}:${lineOf(RULES[file] ?? '', needle, after)}:${column}`;
