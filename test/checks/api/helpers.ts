/** Shared by the api gate tests: the fixture corpora, and where in the rules fixture a finding is expected. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fixture } from '../../helpers.js';
import { lineOf } from '../../api/support.js';

/** The correct API corpus the api gates' cases extend (a folder under test/fixtures). */
export const API_BASE = 'api/good';
export const GOOD = fixture(API_BASE);
export const RULES = fixture('api/defects/rules');
export const INVALID = fixture('api/defects/invalid');
export const OPENAPI = 'api/v2/openapi.yaml';
export const text = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');
export const rulesApi = text(RULES, OPENAPI);
export const at = (needle: string, column: number, after = 0, file = OPENAPI) => `${file}:${lineOf(file === OPENAPI ? rulesApi : text(RULES, file), needle, after)}:${column}`;
