/**
 * The html report in a real browser: `check --format html` on a small corpus, the page loaded in
 * headless Chromium (Debian's `chromium`, as .ci/run installs it) and the DOM read after its script
 * ran, filtered by the page's address as a reader's choice in the rule and severity lists leaves it.
 * Without Chromium the file is skipped, saying so in one line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, doc } from '../helpers.js';

const CHROMIUM = [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (candidate): candidate is string => candidate !== undefined && candidate !== '' && existsSync(candidate),
);
if (!CHROMIUM)
  console.log(
    'skipped: the html report is tested in headless Chromium, and there is none at /usr/bin/chromium (apt-get install chromium, or set CHROMIUM)',
  );

const scratch = mkdtempSync(path.join(tmpdir(), 'openwop-html-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The page's DOM after its script ran, loaded from `address`. */
function dom(address: string): string {
  const profile = mkdtempSync(path.join(scratch, 'profile-'));
  const result = spawnSync(
    CHROMIUM as string,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      '--dump-dom',
      address,
    ],
    { encoding: 'utf8', timeout: 90_000 },
  );
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

const visibleFindings = (page: string): string[] =>
  [...page.matchAll(/<article class="finding [^"]*" id="(f\d+)"[^>]*?>/g)]
    .filter((m) => !/\bhidden=/.test(m[0]))
    .map((m) => m[1] as string);
const shownFiles = (page: string): string[] =>
  [...page.matchAll(/<section class="file" data-file="([^"]*)"[^>]*>/g)]
    .filter((m) => !/\bhidden=/.test(m[0]))
    .map((m) => m[1] as string);
const showing = (page: string): string | undefined => /<p id="showing">([^<]*)<\/p>/.exec(page)?.[1];

describe.skipIf(!CHROMIUM)('the html report in headless Chromium', { timeout: 240_000 }, () => {
  let page: string;

  beforeAll(async () => {
    const root = path.join(scratch, 'corpus');
    const files: Record<string, string> = {
      'openwop-spec.config.json': JSON.stringify({ required: [] }),
      'spec/v2/core/a.md': doc('A', 'See [b.md](b.md#missing-one), <b>markup</b> & "quotes".\n\nAnd [c](c.md).'),
      'spec/v2/core/b.md': doc(
        'B',
        '## Some heading\n\nText.\n\n<!-- generated: nobody/owns-this -->\nhand text\n<!-- /generated: nobody/owns-this -->',
      ),
    };
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    page = path.join(scratch, 'report.html');
    const result = await cli([
      'check',
      '--root',
      root,
      '--format',
      'html',
      '--output',
      page,
      '--format',
      'json',
      '--output',
      path.join(scratch, 'report.json'),
    ]);
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toBe('');
  });

  it('shows every finding grouped by file, with its source line and the located text marked', () => {
    const shown = dom(pathToFileURL(page).href);
    expect(showing(shown)).toBe('Showing 3 of 3 findings');
    expect(shownFiles(shown)).toEqual(['spec/v2/core/a.md', 'spec/v2/core/b.md']);
    expect(visibleFindings(shown)).toEqual(['f1', 'f2', 'f3']);
    expect(shown).toContain('<mark>[b.md](b.md#missing-one)</mark>');
    expect(shown).toContain('<mark>[b.md](b.md#missing-one)</mark>, &lt;b&gt;markup&lt;/b&gt; &amp; "quotes".');
    expect(shown).toContain('<option value="links/anchor">links/anchor (1)</option>');
    // The page's own script ran under its Content-Security-Policy; nothing of the corpus became markup.
    expect(shown).not.toContain('<b>markup</b>');
  });

  it('filters by severity and by rule, from the address a reader can link', () => {
    const warnings = dom(`${pathToFileURL(page).href}#severity=warning`);
    expect(showing(warnings)).toBe('Showing 1 of 3 findings');
    expect(shownFiles(warnings)).toEqual(['spec/v2/core/b.md']);

    const anchors = dom(`${pathToFileURL(page).href}#rule=links/file&severity=error`);
    expect(showing(anchors)).toBe('Showing 1 of 3 findings');
    expect(shownFiles(anchors)).toEqual(['spec/v2/core/a.md']);
    expect(visibleFindings(anchors)).toHaveLength(1);

    // A rule the report does not have selects nothing away.
    expect(showing(dom(`${pathToFileURL(page).href}#rule=no/such-rule`))).toBe('Showing 3 of 3 findings');
  });
});
