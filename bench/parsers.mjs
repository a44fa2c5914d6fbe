#!/usr/bin/env node
/**
 * The markdown parsers that were candidates for core/markdown, on the same files in one process:
 * remark-parse + remark-gfm (what the gates were written against), markdown-it (block line maps
 * only, no inline positions), @lezer/markdown with GFM (an offset for every node), and ours (lezer
 * turned into remark's mdast, plus the indexes the gates share). Each figure is CPU seconds of
 * this process for parsing every file once, the median of --runs rounds after one warm-up round.
 *
 * Usage: node bench/parsers.mjs DIR [--runs N]   prints JSON: { files, bytes, seconds: { name: s } }
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parser as lezer, GFM } from '@lezer/markdown';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { parseMarkdown } from '../dist/core/markdown/index.js';

const require = createRequire(import.meta.url);
const MarkdownIt = require('markdown-it');

const [dir, ...rest] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/parsers.mjs DIR [--runs N]');
  process.exit(2);
}
const runs = rest[0] === '--runs' ? Number(rest[1]) : 3;

const files = [];
const walk = (at) => {
  for (const entry of readdirSync(at, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(at, entry.name);
    if (entry.isDirectory()) walk(full);
    else if (entry.name.endsWith('.md')) files.push(readFileSync(full, 'utf8'));
  }
};
walk(path.resolve(dir));

const remark = unified().use(remarkParse).use(remarkGfm).freeze();
const markdownIt = new MarkdownIt();
const lezerGfm = lezer.configure(GFM);
const candidates = {
  'remark-parse + remark-gfm': (text) => remark.parse(text),
  'markdown-it': (text) => markdownIt.parse(text, {}),
  '@lezer/markdown + GFM': (text) => lezerGfm.parse(text),
  'ours (lezer → mdast, indexed)': (text) => parseMarkdown(text),
};

const seconds = {};
for (const [name, parse] of Object.entries(candidates)) {
  const rounds = [];
  for (let round = 0; round <= runs; round++) {
    const before = process.cpuUsage();
    for (const text of files) parse(text);
    const used = process.cpuUsage(before);
    if (round > 0) rounds.push((used.user + used.system) / 1e6);
  }
  rounds.sort((a, b) => a - b);
  seconds[name] = rounds[Math.floor(rounds.length / 2)];
}
console.log(JSON.stringify({ files: files.length, bytes: files.reduce((sum, text) => sum + Buffer.byteLength(text), 0), seconds }));
