/**
 * Nothing the corpus says can command the terminal or the CI log: every report of every verb
 * escapes control, bidi and invisible characters, breaks up the runner's `::` and `##[` markers,
 * wraps a human report in Actions in stop-commands, and writes SARIF URIs that name the file.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/output/index.js';
import { DIFF_FORMATS } from '../../core/release/index.js';
import { cli, cliEnv, FIXTURES } from '../helpers.js';
import { tempDir } from './helpers.js';

/** Characters no report may carry raw: ESC (CSI, OSC), BEL (an OSC's end), C1 controls, bidi overrides and isolates, zero-width ones. */
const RAW = /[\u0007\u001b\u0080-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f\u2060\ufeff]/;

/** Markup a file name carries into a report: HTML that would run, and markdown that would restructure a table or make a link. */
const MARKUP_NAME = 'm<img src=x onerror=alert(1)>|cell*b*_[l](http:x)`.md';

/** Markdown with its code spans taken out (their content is shown as text, never as markup). */
function outsideCodeSpans(markdown: string): string {
  return markdown.replace(/(`+)[^`]*?(?:`(?!\1)[^`]*?)*\1/g, '');
}

/** A copy of the `good` fixture with hostile documents: names and headings that try to command the log. */
function hostileCorpus(): string {
  const root = tempDir();
  cpSync(path.join(FIXTURES, 'good'), root, { recursive: true });
  mkdirSync(path.join(root, 'docs'));
  const broken = '# Doc\n\nSee [x](nowhere.md).\n';
  writeFileSync(
    path.join(root, 'docs', 'limits.md'),
    '# Doc\n\n## Limits ##[stop-commands]tok123\n\n## Quota \u202eevil\u200b\n\nSee [the limits](#limits-stop-commandstok124), [quota](#quota-\u202eevil\u200b) and [b](../spec/v2/core/b.md#\u2066x\u2069).\n',
  );
  writeFileSync(path.join(root, 'docs', 'x##[error file=README.md,line=1]FORGED.md'), broken);
  writeFileSync(path.join(root, 'docs', '::warning::forged.md'), broken);
  writeFileSync(path.join(root, 'docs', 'd#frag.md'), broken);
  writeFileSync(path.join(root, 'docs', 'q?x=1.md'), broken);
  writeFileSync(path.join(root, 'docs', 'esc\u001b[2K\u001b[1A.md'), broken);
  // An OSC 8 hyperlink and an OSC that sets the window title, each ended by BEL or ST; a C1 CSI.
  writeFileSync(
    path.join(root, 'docs', 'osc\u001b]8;;http:evil\u0007link\u001b]8;;\u0007\u001b]0;title\u001b\\\u009b2J.md'),
    broken,
  );
  writeFileSync(path.join(root, 'docs', MARKUP_NAME), broken);
  return root;
}

describe('check reports in every format are safe for their sink', { timeout: 60_000 }, () => {
  const root = hostileCorpus();

  for (const format of FORMATS) {
    it(`${format}: no raw control, bidi or zero-width character, no runner command from the corpus`, async () => {
      const result = await cli(['check', '--root', root, '--format', format]);
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('FORGED');
      expect(result.stdout).not.toMatch(RAW);
      // The legacy parser takes `##[` anywhere in a line; `::` starts a command at the start of one.
      expect(result.stdout).not.toContain('##[');
      const lines = result.stdout.split('\n');
      if (format === 'github') {
        expect(lines.filter((line) => line.startsWith('::')).length).toBeGreaterThanOrEqual(6);
        for (const line of lines.filter(Boolean).slice(0, -1))
          expect(line).toMatch(/^::(error|warning) file=[^:]*::[^:]*(:[^:]+)*$/);
        // Last, the run's counts as a notice, which names nothing from the corpus.
        expect(lines.filter(Boolean).at(-1)).toMatch(
          /^::notice title=openwop-spec::\d+ problems \(\d+ errors?, \d+ warnings?\) in \d+ files; failing: \d+ errors?$/,
        );
      } else {
        expect(result.stdout).not.toContain('::');
      }
      // The names that carry markup are reported, and as text in the formats that render markup.
      expect(result.stdout).toMatch(/osc/);
      if (format === 'html') {
        expect(result.stdout).not.toContain('<img');
        expect(result.stdout).toContain('&lt;img');
      }
      if (format === 'markdown') {
        // In a code span markup is text; outside one, none may stand raw.
        const prose = outsideCodeSpans(result.stdout);
        expect(prose).not.toContain('<img');
        expect(prose).not.toContain('](http:x)');
        expect(result.stdout).toContain('img src=x');
      }
    });
  }

  it('stylish in GitHub Actions: the whole report inside a stop-commands wrapper with an unguessable token', async () => {
    const first = await cli(['check', '--root', root], { env: cliEnv({ GITHUB_ACTIONS: 'true' }) });
    const second = await cli(['check', '--root', root], { env: cliEnv({ GITHUB_ACTIONS: 'true' }) });
    const token = /^::stop-commands::(\S{16,})\n/.exec(first.stdout)?.[1];
    expect(token).toBeDefined();
    expect(first.stdout.endsWith(`\n::${token}::\n`)).toBe(true);
    expect(second.stdout).not.toContain(token as string);
  });

  it('SARIF artifact URIs are RFC 3986 references to the very file: # and ? percent-encoded', async () => {
    const result = await cli(['check', '--root', root, '--format', 'sarif']);
    const uris = [...result.stdout.matchAll(/"uri": "([^"]*)"/g)].map((match) => match[1] as string);
    expect(uris).toContain('docs/d%23frag.md');
    expect(uris).toContain('docs/q%3Fx=1.md');
    for (const uri of uris) {
      const resolved = new URL(uri, 'file:///root/');
      expect(resolved.hash).toBe('');
      expect(resolved.search).toBe('');
    }
    const names = uris.map((uri) => decodeURIComponent(uri));
    expect(names).toContain('docs/x##[error file=README.md,line=1]FORGED.md');
  });
});

describe('diff prints releases escaped in every format', { timeout: 60_000 }, () => {
  const BASE = path.join(FIXTURES, 'release', 'base');
  const [before, after] = [tempDir(), tempDir()];
  cpSync(BASE, before, { recursive: true });
  cpSync(BASE, after, { recursive: true });
  const HOSTILE =
    '/runs/{runId}/\u001b[1A\u001b[2K\u009b2K\u202eok\u200b ##[error]x ::warning::y \u001b]8;;http://evil\u0007z\u001b]8;;\u0007 <img src=x onerror=1>|*b*';
  const openapi = path.join(after, 'api', 'v2', 'openapi.yaml');
  const text = readFileSync(openapi, 'utf8');
  expect(text).toContain('  /runs/{runId}:\n    get:');
  writeFileSync(openapi, text.replace('  /runs/{runId}:\n    get:', `  ${JSON.stringify(HOSTILE)}:\n    get:`));

  it('every format of diff is covered here', () => {
    expect([...DIFF_FORMATS].sort()).toEqual(['github', 'json', 'markdown', 'patch', 'stylish']);
  });

  for (const format of DIFF_FORMATS) {
    it(`${format}: ESC, CSI, OSC, C1, bidi and zero-width characters escaped, runner markers broken up`, async () => {
      const result = await cli(['diff', before, after, '--format', format]);
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('\\u001b[1A');
      // A patch's hunks are the files' bytes, exact so that `git apply` takes them; what the tool itself writes around them is escaped.
      const said =
        format === 'patch'
          ? result.stdout
              .split('\n')
              .filter((line) => !/^[-+ ]/.test(line) || /^(---|\+\+\+) /.test(line))
              .join('\n')
          : result.stdout;
      expect(said).not.toMatch(RAW);
      expect(said).not.toContain('##[');
      if (format === 'github') {
        // Its lines are runner commands of its own; none is one the release wrote.
        for (const line of result.stdout.split('\n').filter(Boolean))
          expect(line).toMatch(/^::(error|warning|notice) [^:]*::[^:]*(:[^:]+)*$|^[^:]/);
        expect(result.stdout).not.toContain('::warning::y');
      } else {
        expect(said).not.toContain('::');
      }
      if (format === 'markdown') expect(outsideCodeSpans(result.stdout)).not.toContain('<img');
      if (format === 'json') {
        const value = JSON.parse(result.stdout) as { changes: Array<{ message: string }> };
        expect(value.changes.some((change) => change.message.includes(HOSTILE))).toBe(true);
      }
    });
  }
});
