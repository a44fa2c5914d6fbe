/**
 * Every directive form in markdown comments (disable … enable, disable-line, disable-next-line,
 * disable-file; a reason required, `until` allowed, a misspelt one reported), directives kept out
 * of the word counts, and `check --suppress RULE --reason TEXT` / `--prune-suppressions` writing
 * the suppressions file, end to end.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/corpus.js';
import { folderWordCounts } from '../../core/model/index.js';
import { applySuppressions } from '../../core/run/suppressions.js';
import { brokenAnchor, cli, doc, reported, run, tempTree } from '../helpers.js';

const FILE = 'spec/v2/core/a.md';
const options = {
  today: '2026-12-02',
  ran: new Set(['links/anchor', 'links/file']),
  known: new Set(['links/anchor', 'links/file', 'docs/structure']),
};

/** The body's lines start at line 7 of the document `doc` writes. */
function judge(body: string[], lines: number[], rule?: string): string[] {
  const corpus = corpusFromFiles('/nonexistent-root', { [FILE]: doc('A', body.join('\n')) });
  return applySuppressions(
    corpus,
    lines.map((line) => brokenAnchor(line, rule === undefined ? {} : { rule })),
    options,
  ).map((d) => `${d.line} ${d.rule}${d.suppression ? ' suppressed' : ''}`);
}

describe('directive forms', () => {
  it('disable-line covers the line the comment is on, disable-next-line the line after it', () => {
    expect(
      judge(
        [
          'See [b](b.md#x). <!-- openwop-spec-disable-line links/anchor -- the heading lands in 2.4 -->',
          'See [b](b.md#y).',
        ],
        [7, 8],
      ),
    ).toEqual(['7 links/anchor suppressed', '8 links/anchor']);
    expect(
      judge(
        [
          '<!-- openwop-spec-disable-next-line links/anchor until 2027-01-31 -- lands in 2.4 -->',
          'See [b](b.md#x).',
          'See [b](b.md#y).',
        ],
        [8, 9],
      ),
    ).toEqual(['8 links/anchor suppressed', '9 links/anchor']);
  });

  it('disable … enable covers the lines between; enable of one rule leaves the other silenced; an open block runs to the end of the file', () => {
    const body = [
      '<!-- openwop-spec-disable links/anchor links/file -- the v1 chapter moves in 2.4 -->', // 7
      'See [b](b.md#x).', // 8
      '<!-- openwop-spec-enable links/anchor -->', // 9
      'See [b](b.md#y).', // 10
      'See [c](c.md).', // 11
    ];
    // The half of the block with no finding of its rule is reported unused.
    expect(judge(body, [8, 10])).toEqual(['8 links/anchor suppressed', '10 links/anchor', '7 suppressions/unused']);
    expect(judge(body, [8, 11], 'links/file')).toEqual([
      '8 links/file suppressed',
      '11 links/file suppressed',
      '7 suppressions/unused',
    ]);
    expect(
      judge(
        ['<!-- openwop-spec-disable links/* -- drafts -->', 'See [b](b.md#x).', '', 'More.', 'See [b](b.md#y).'],
        [8, 11],
      ),
    ).toEqual(['8 links/anchor suppressed', '11 links/anchor suppressed']);
  });

  it('disable-file covers every line of the file, before the comment too', () => {
    expect(
      judge(
        [
          'See [b](b.md#x).',
          '',
          '<!-- openwop-spec-disable-file links/anchor -- generated from the v1 index -->',
          'See [b](b.md#y).',
        ],
        [7, 10],
      ),
    ).toEqual(['7 links/anchor suppressed', '10 links/anchor suppressed']);
    // Outside its file, nothing.
    const corpus = corpusFromFiles('/nonexistent-root', {
      [FILE]: doc('A', '<!-- openwop-spec-disable-file links/anchor -- r -->'),
      'spec/v2/core/b.md': doc('B', 'x'),
    });
    expect(
      applySuppressions(corpus, [{ ...brokenAnchor(7), file: 'spec/v2/core/b.md' }], options).map((d) => [
        d.file,
        Boolean(d.suppression),
        d.rule,
      ]),
    ).toEqual([
      ['spec/v2/core/b.md', false, 'links/anchor'],
      [FILE, false, 'suppressions/unused'],
    ]);
  });

  it('each form needs a reason; until DATE is read by each', () => {
    for (const form of ['disable-line', 'disable-next-line', 'disable', 'disable-file']) {
      expect(judge([`<!-- openwop-spec-${form} links/anchor -->`, 'See [b](b.md#x).'], [8]), form).toEqual([
        '8 links/anchor',
        '7 suppressions/invalid',
      ]);
      const expired = judge(
        [`<!-- openwop-spec-${form} links/anchor until 2026-12-01 -- lands in 2.4 -->`, 'See [b](b.md#x).'],
        form === 'disable-line' ? [7] : [8],
      );
      expect(expired, form).toEqual([`${form === 'disable-line' ? 7 : 8} links/anchor`, '7 suppressions/expired']);
    }
  });

  it('a misspelt or unknown openwop-spec- directive is a finding naming the closest one, and suppresses nothing', () => {
    const corpus = corpusFromFiles('/nonexistent-root', {
      [FILE]: doc(
        'A',
        '<!-- openwop-spec-disabel-next-line links/anchor -- r -->\nSee [b](b.md#x).\n\nText <!-- OpenWOP-Spec-ignore links/anchor -- r --> here.',
      ),
    });
    const out = applySuppressions(corpus, [brokenAnchor(8)], options);
    expect(out.map((d) => `${d.line}:${d.column} ${d.rule}${d.suppression ? ' suppressed' : ''}`)).toEqual([
      '8:1 links/anchor',
      '7:1 suppressions/invalid',
      '10:6 suppressions/invalid',
    ]);
    expect(out[1]?.message).toBe(
      '"openwop-spec-disabel-next-line" is not a directive, so this comment suppresses nothing; did you mean "openwop-spec-disable-next-line"?',
    );
    expect(out[2]?.message).toMatch(/^"openwop-spec-ignore" is not a directive/);
  });

  it('an enable that closes nothing, and an unused block, are findings', () => {
    expect(judge(['<!-- openwop-spec-enable links/anchor -->', 'Text.'], [])).toEqual(['7 suppressions/invalid']);
    const corpus = corpusFromFiles('/nonexistent-root', {
      [FILE]: doc('A', 'Text.\n\n<!-- openwop-spec-disable links/anchor -- r -->\nFine.'),
    });
    const out = applySuppressions(corpus, [], options);
    expect(out.map((d) => d.message)).toEqual([
      'suppression of links/anchor (openwop-spec-disable) matches no finding from line 9 to the end of the file',
    ]);
  });
});

describe('directives and the word counts', () => {
  it("a directive comment adds no word to the core documents' count, block or inline", () => {
    const text = 'The run holds a lease.\n\nSee [b](b.md#x).';
    const plain = folderWordCounts(corpusFromFiles('/nonexistent-root', { [FILE]: doc('A', text) }));
    const directed = folderWordCounts(
      corpusFromFiles('/nonexistent-root', {
        [FILE]: doc(
          'A',
          `<!-- openwop-spec-disable-file docs/structure -- a draft -->\nThe run holds a lease. <!-- openwop-spec-disable-line links/anchor -- r -->\n\n<!-- openwop-spec-disable-next-line links/anchor until 2027-01-01 -- the heading lands in 2.4 -->\nSee [b](b.md#x).`,
        ),
      }),
    );
    expect(directed).toEqual(plain);
    // Any other comment still counts, as `wc -w` counts it.
    const other = folderWordCounts(
      corpusFromFiles('/nonexistent-root', { [FILE]: doc('A', `<!-- a note to editors -->\n${text}`) }),
    );
    expect(other[0]?.words).toBe((plain[0]?.words ?? 0) + 6);
  });
});

describe('directives and readability', () => {
  it('a paragraph at the word limit stays within it with a directive inside it', () => {
    const paragraph = Array.from({ length: 90 }, (_, i) => `word${i}`).join(' ');
    const directive =
      '<!-- openwop-spec-disable-line links/anchor until 2027-01-01 -- the heading lands with the next release of the spec -->';
    expect(run('docs/prose-length', { [FILE]: doc('A', `${paragraph} ${directive}`) })).toEqual([]);
    expect(run('docs/prose-length', { [FILE]: doc('A', `${paragraph} one more`) }).map((d) => d.message)).toEqual([
      'a paragraph of 92 words, over the limit of 90',
    ]);
  });
});

describe('check --suppress and --prune-suppressions', { timeout: 60_000 }, () => {
  const temporary: string[] = [];
  afterEach(() => {
    for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  function corpus(files: Record<string, string>): string {
    const root = tempTree({ 'openwop-spec.config.json': '{ "required": [] }', ...files }, 'openwop-suppress-');
    temporary.push(root);
    return root;
  }

  it('writes an entry for each current finding of the rule, then the run is clean; pruning removes the entries a fix left unused', async () => {
    const root = corpus({
      [FILE]: doc('A', 'See [b.md](b.md#one).\n\nSee [b.md](b.md#two).\n\nSee [c.md](c.md).'),
      'spec/v2/core/b.md': doc('B', '## Some heading'),
    });
    const refused = await cli(['check', '--root', root, '--suppress', 'links/anchor']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toBe(
      'openwop-spec: --suppress needs --reason TEXT: each suppression says why its finding is accepted\n',
    );
    expect((await cli(['check', '--root', root, '--suppress', 'links/anchr', '--reason', 'x'])).status).toBe(2);

    const written = await cli([
      'check',
      '--root',
      root,
      '--format',
      'json',
      '--suppress',
      'links/anchor',
      '--reason',
      'the headings land in 2.4',
    ]);
    expect(written.stderr).toBe('openwop-spec.suppressions.json: added 2 suppressions of links/anchor (2 findings)\n');
    // links/file is not the rule named: it still fails the run.
    expect(written.status).toBe(1);
    expect(reported(written.stdout).map((d) => d.rule)).toEqual(['links/file']);
    const file = JSON.parse(readFileSync(path.join(root, 'openwop-spec.suppressions.json'), 'utf8')) as {
      suppressions: Array<Record<string, string>>;
    };
    expect(file.suppressions.map((entry) => [entry.rule, entry.file, entry.reason, typeof entry.fingerprint])).toEqual([
      ['links/anchor', FILE, 'the headings land in 2.4', 'string'],
      ['links/anchor', FILE, 'the headings land in 2.4', 'string'],
    ]);
    // Again: nothing new to add.
    const again = await cli([
      'check',
      '--root',
      root,
      '--suppress',
      'links/*',
      '--reason',
      'the headings land in 2.4',
      '--rule',
      'links/anchor',
    ]);
    expect(again.stderr).toBe('openwop-spec.suppressions.json: added 0 suppressions of links/* (0 findings)\n');
    expect(again.status).toBe(0);

    // One anchor is fixed: its entry is stale, a finding until pruned.
    writeFileSync(
      path.join(root, FILE),
      doc('A', 'See [b.md](b.md#some-heading).\n\nSee [b.md](b.md#two).\n\nSee [c.md](c.md).'),
    );
    const stale = await cli(['check', '--root', root, '--format', 'json', '--rule', 'links/anchor']);
    expect(reported(stale.stdout).map((d) => d.rule)).toEqual(['suppressions/unused']);
    const pruned = await cli([
      'check',
      '--root',
      root,
      '--format',
      'json',
      '--rule',
      'links/anchor',
      '--prune-suppressions',
    ]);
    expect(pruned.stderr).toBe('openwop-spec.suppressions.json: removed 1 suppression that matched no finding\n');
    expect(pruned.status).toBe(0);
    expect(reported(pruned.stdout)).toEqual([]);
    expect(
      (
        JSON.parse(readFileSync(path.join(root, 'openwop-spec.suppressions.json'), 'utf8')) as {
          suppressions: unknown[];
        }
      ).suppressions,
    ).toHaveLength(1);
  });

  it('a misspelt directive fails the run through the built command line', async () => {
    const root = corpus({
      [FILE]: doc(
        'A',
        '<!-- openwop-spec-disabel-next-line links/anchor -- lands in 2.4 -->\nSee [b.md](b.md#missing).',
      ),
      'spec/v2/core/b.md': doc('B', 'Text.'),
    });
    const result = await cli(['check', '--root', root, '--format', 'json']);
    expect(result.status).toBe(1);
    expect(reported(result.stdout).map((d) => `${d.file}:${d.line} ${d.rule}`)).toEqual([
      `${FILE}:7 suppressions/invalid`,
      `${FILE}:8 links/anchor`,
    ]);
  });
});
