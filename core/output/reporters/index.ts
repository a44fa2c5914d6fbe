import { github } from './github.js';
import { json } from './json.js';
import { sarif } from './sarif.js';
import { stylish } from './stylish.js';
import type { Reporter } from './types.js';

export type { Reporter, ReportContext, RuleMeta } from './types.js';

export const REPORTERS: Readonly<Record<string, Reporter>> = { stylish, json, sarif, github };
export const FORMATS = Object.keys(REPORTERS);
