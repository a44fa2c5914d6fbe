/**
 * A starter config for a repository, as `openwop-spec init` writes it: what the repository's files
 * show of its layout (which corpus directories it has, where its corpus stamp lives, the `$id`
 * base its schemas use, which registries and API documents it holds), written as commented JSONC
 * so that each key says what it is for.
 */
import path from 'node:path';
import { globSync } from 'glob';
import { readInside } from '../fs/index.js';
import { DEFAULT_INCLUDE, DEFAULT_REQUIRED, DEFAULT_SCHEMA_ID_BASE } from './load.js';

const CORPUS_DIRECTORIES = ['spec', 'api', 'schemas', 'conformance', 'SECURITY', 'docs', 'evidence'] as const;
const IGNORE = ['**/node_modules/**', '**/.*/**'];

export interface DetectedLayout {
  /** Corpus directories present at the root. */
  directories: string[];
  /** Root-relative path of the corpus stamp (found, or where it will be written). */
  stamp: string;
  /** Whether a stamp file was found there. */
  stampFound: boolean;
  /** Path prefix to `$id` base, as the schemas found declare them. */
  schemaIds: Record<string, string>;
  /** Of the default required files, those present. */
  required: string[];
}

export function detectLayout(root: string): DetectedLayout {
  const list = (pattern: string): string[] =>
    globSync(pattern, { cwd: root, dot: false, nodir: true, ignore: IGNORE, posix: true }).sort();
  const directories = CORPUS_DIRECTORIES.filter((directory) => globSync(directory, { cwd: root }).length > 0);
  const stamps = list('**/CORPUS-STAMP.json').sort(
    (a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1),
  );
  const stamp =
    stamps[0] ??
    (globSync('spec-artifacts', { cwd: root }).length > 0 ? 'spec-artifacts/CORPUS-STAMP.json' : 'CORPUS-STAMP.json');
  const searched = directories.length > 0 ? `{${directories.join(',')}}/**/*.json` : '**/*.json';
  return {
    directories,
    stamp,
    stampFound: stamps.length > 0,
    schemaIds: schemaIdBases(root, list(searched)),
    required: DEFAULT_REQUIRED.filter((file) => list(file).length > 0),
  };
}

/**
 * For each directory of schemas, the `$id` base most of its schemas share (a schema
 * `<directory>/<name>` with `$id` `<base><name>`), leaving out a directory whose base follows from
 * its parent's (spec/v2/facets/ under spec/v2/), since the longest prefix is the one that applies.
 */
function schemaIdBases(root: string, files: readonly string[]): Record<string, string> {
  const votes = new Map<string, Map<string, number>>();
  for (const file of files) {
    let id: unknown;
    try {
      // Inside the root, no link followed, and no larger than a schema can be.
      id = (JSON.parse(readInside(root, file, 16 * 2 ** 20).toString('utf8')) as { $id?: unknown }).$id;
    } catch {
      continue;
    }
    const name = path.posix.basename(file);
    if (typeof id !== 'string' || !/^https?:\/\//.test(id) || !id.endsWith(`/${name}`)) continue;
    const directory = path.posix.dirname(file);
    const prefix = directory === '.' ? '' : `${directory}/`;
    const base = id.slice(0, id.length - name.length);
    const counts = votes.get(prefix) ?? new Map<string, number>();
    votes.set(prefix, counts);
    counts.set(base, (counts.get(base) ?? 0) + 1);
  }
  const chosen = [...votes]
    .map(
      ([prefix, counts]) =>
        [
          prefix,
          ([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0] as [string, number])[0],
        ] as const,
    )
    .sort((a, b) => a[0].length - b[0].length || (a[0] < b[0] ? -1 : 1));
  const bases: Record<string, string> = {};
  for (const [prefix, base] of chosen) {
    const implied = Object.entries(bases).some(
      ([parent, parentBase]) => prefix.startsWith(parent) && parentBase + prefix.slice(parent.length) === base,
    );
    if (!implied) bases[prefix] = base;
  }
  return bases;
}

/** The starter config's text (JSONC). `schema` is the path or URL `$schema` names. */
export function starterConfig(layout: DetectedLayout, schema: string): string {
  const json = (value: unknown): string => JSON.stringify(value);
  const directories = layout.directories.length === 1 ? layout.directories[0] : `{${layout.directories.join(',')}}`;
  const include =
    layout.directories.length > 0
      ? [
          `${directories}/**`,
          ...(layout.directories.some((directory) => layout.stamp.startsWith(`${directory}/`)) ? [] : [layout.stamp]),
        ]
      : [...DEFAULT_INCLUDE];
  const schemaIds = Object.keys(layout.schemaIds).length > 0 ? layout.schemaIds : { '': DEFAULT_SCHEMA_ID_BASE };
  const idLines = Object.entries(schemaIds).map(([prefix, base]) => `      ${json(prefix)}: ${json(base)}`);
  return `// openwop-spec's config for this repository, written by \`openwop-spec init\` from what it found here.
// Comments and trailing commas are allowed. \`openwop-spec rules\` lists every rule;
// \`openwop-spec check --print-config FILE\` shows what this config makes of one file.
{
  "$schema": ${json(schema)},
  // Configs this one builds on; a relative file or a package's exported config works too.
  "extends": ["openwop-spec:recommended"],
  // The files that make up the corpus, relative to this directory (dotfiles and node_modules never are).
  "include": ${json(include)},
  "exclude": [],
  "layout": {
    // A schema at <prefix><rest> has $id <base><rest>: ${Object.keys(layout.schemaIds).length > 0 ? 'read from the schemas found here' : 'no schema with an $id was found; this is the default'}.
    "schemaIds": {
${idLines.join(',\n')}
    },
    // The corpus stamp (${layout.stampFound ? 'found here' : 'not found; `openwop-spec stamp` writes it'}); it takes its version from the package.json beside it.
    "stamp": ${json(layout.stamp)}
  },
  // Files the corpus must contain: a missing one is an error. These are the registries and API documents found here.
  "required": ${json(layout.required)},
  // A rule id or family/* to "off", "warn", "error", or [severity, options].
  "rules": {},
  // Rules for some files only, a later entry winning: { "files": ["spec/v2/drafts/**"], "rules": { "docs/*": "warn" } }.
  "overrides": []
}
`;
}
