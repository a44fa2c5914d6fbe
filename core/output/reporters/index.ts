import { checkstyle } from './checkstyle.js';
import { codeclimate } from './codeclimate.js';
import { github } from './github.js';
import { html } from './html.js';
import { json } from './json.js';
import { junit } from './junit.js';
import { markdown } from './markdown.js';
import { sarif } from './sarif.js';
import { stylish } from './stylish.js';
import type { Reporter } from './types.js';

export type { Reporter, ReportContext, RuleMeta } from './types.js';

export const REPORTERS: Readonly<Record<string, Reporter>> = {
  stylish,
  json,
  sarif,
  github,
  junit,
  checkstyle,
  codeclimate,
  markdown,
  html,
};
export const FORMATS = Object.keys(REPORTERS);
