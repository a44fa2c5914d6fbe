/** Shared by the api tests: fixture corpora as editable text, and line lookup for expectations. */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { corpusFromFiles, type Corpus } from '../../core/model/corpus.js';
import { planGeneration } from '../../core/run/generation.js';
import headers from '../../generators/headers.js';
import pathManifest from '../../generators/path-manifest.js';

const API_GENERATORS = [headers, pathManifest];

/** Every file under `root`'s corpus directories, as text keyed by its corpus path. */
export function corpusTexts(root: string, directories = ['api', 'schemas', 'spec']): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    let entries;
    try {
      entries = readdirSync(path.join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (/\.(json|ya?ml|md)$/.test(entry.name)) files[child] = readFileSync(path.join(root, child), 'utf8');
    }
  };
  for (const directory of directories) walk(directory);
  return files;
}

/** A corpus from `files` with one file's text replaced (the replacement must apply). */
export function edited(files: Record<string, string>, file: string, from: string | RegExp, to: string): Record<string, string> {
  const before = files[file];
  if (before === undefined) throw new Error(`no ${file}`);
  const after = before.replace(from, to);
  if (after === before) throw new Error(`the edit of ${file} did not apply: ${String(from)}`);
  return { ...files, [file]: after };
}

export function corpusOf(files: Record<string, string>): Corpus {
  return corpusFromFiles('/fixture', files);
}


export function plan(corpus: Corpus) {
  return planGeneration(corpus, API_GENERATORS);
}

/** What `file` will hold once the api generators ran: from a corpus, or from a plan already made. */
export function plannedText(source: Corpus | ReturnType<typeof plan>, file: string): string {
  const result = 'files' in source && Array.isArray(source.files) ? (source as ReturnType<typeof plan>) : plan(source as Corpus);
  const planned = result.files.find((f) => f.path === file);
  if (!planned) throw new Error(`nothing planned for ${file}`);
  return planned.after;
}

/** The rows of a generated table region, as cell arrays (header and rule rows dropped). */
export function tableRows(markdown: string, region: string): string[][] {
  const start = markdown.indexOf(`<!-- generated: ${region}`);
  const end = markdown.indexOf(`<!-- /generated: ${region} -->`);
  if (start === -1 || end === -1) throw new Error(`no region ${region}`);
  return markdown
    .slice(start, end)
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| Header ') && !line.startsWith('| ---'))
    .map((line) =>
      line
        .slice(2, -2)
        .split(/(?<!\\) \| /)
        .map((cell) => cell.trim()),
    );
}
