/**
 * House rules through the built CLI, as a repository uses them: defined in the config, their
 * findings located and fingerprinted, suppressed inline (markdown) or by fingerprint (YAML), set
 * like any rule (`family/*`, --rule, off), listed by `rules`, carried into SARIF; a definition that
 * is wrong is one line naming the key, and exit 2.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, doc, reported, tempTree } from '../helpers.js';

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const RULES = {
  'house/title-prefix': {
    description: 'API titles start with "OpenWOP "',
    given: { files: 'api/**/*.yaml', pointer: '/info' },
    then: { field: 'title', function: 'pattern', functionOptions: { match: '^OpenWOP ' } },
    severity: 'error',
    url: 'https://example.org/house#title-prefix',
  },
  'house/plain-words': {
    given: { files: 'spec/**/*.md', markdown: 'paragraphs' },
    then: { function: 'substitution', functionOptions: { swap: { utilize: 'use' } } },
  },
};

function houseRulesRoot(rules: Record<string, unknown> = RULES, extra: Record<string, string> = {}): string {
  const files: Record<string, string> = {
    'openwop-spec.config.json': JSON.stringify({ required: [], rules }, null, 2),
    'api/v2/openapi.yaml': 'openapi: 3.1.0\ninfo:\n  title: Workflow API\n  version: 1.0.0\npaths: {}\n',
    'spec/v2/core/a.md': doc('A', 'We utilize leases.\n\nThey utilize runners too.'),
    ...extra,
  };
  const root = tempTree(files, 'openwop-house-');
  temporary.push(root);
  return root;
}

const houseFindings = (stdout: string): string[] =>
  reported(stdout)
    .filter((d) => d.rule.startsWith('house/'))
    .map((d) => `${d.file}:${d.line}:${d.column} ${d.rule} ${d.message}`);

describe('house rules from the config', { timeout: 120_000 }, () => {
  it('report located, fingerprinted findings like the built-in rules, and fail the run by their severity', async () => {
    const root = houseRulesRoot();
    const result = await cli(['check', '--root', root, '--format', 'json']);
    expect(result.status).toBe(1);
    expect(houseFindings(result.stdout)).toEqual([
      'api/v2/openapi.yaml:3:3 house/title-prefix /info/title "Workflow API" does not match /^OpenWOP /',
      'spec/v2/core/a.md:7:4 house/plain-words use "use" instead of "utilize"',
      'spec/v2/core/a.md:9:6 house/plain-words use "use" instead of "utilize"',
    ]);
    const fingerprints = reported(result.stdout)
      .filter((d) => d.rule.startsWith('house/'))
      .map((d) => d.fingerprint);
    // Taken over the located text, as for every rule: the same word flagged twice in a file is one fingerprint.
    expect(new Set(fingerprints).size).toBe(2);
    expect(fingerprints).toHaveLength(3);
    expect(fingerprints.every((f) => typeof f === 'string' && /^[0-9a-f]{32}$/.test(f))).toBe(true);
  });

  it('are suppressed inline in markdown and by fingerprint in YAML, with a reason', async () => {
    const root = houseRulesRoot(RULES, {
      'spec/v2/core/a.md': doc(
        'A',
        '<!-- openwop-spec-disable-next-line house/plain-words -- quoted from RFC 0170 -->\nWe utilize leases.\n\nThey utilize runners too.',
      ),
    });
    const before = reported((await cli(['check', '--root', root, '--format', 'json'])).stdout);
    const title = before.find((d) => d.rule === 'house/title-prefix');
    expect(title?.fingerprint).toBeDefined();
    writeFileSync(
      path.join(root, 'openwop-spec.suppressions.json'),
      JSON.stringify({
        suppressions: [
          {
            rule: 'house/title-prefix',
            file: 'api/v2/openapi.yaml',
            fingerprint: title?.fingerprint,
            reason: 'renamed in 2.5',
          },
        ],
      }),
    );
    const after = await cli(['check', '--root', root, '--format', 'json']);
    expect(houseFindings(after.stdout)).toEqual([
      'spec/v2/core/a.md:10:6 house/plain-words use "use" instead of "utilize"',
    ]);
    const suppressed = (
      JSON.parse(after.stdout).suppressed as Array<{ rule: string; suppression: { justification: string } }>
    ).map((d) => `${d.rule}: ${d.suppression.justification}`);
    expect(suppressed.sort()).toEqual([
      'house/plain-words: quoted from RFC 0170',
      'house/title-prefix: renamed in 2.5',
    ]);
    expect(after.status).toBe(0);
  });

  it('are set like any rule: a family off, --rule alone, a definition off; --fix applies substitutions', async () => {
    const root = houseRulesRoot({ ...RULES, 'house/*': 'off' });
    expect(houseFindings((await cli(['check', '--root', root, '--format', 'json'])).stdout)).toEqual([]);
    const only = await cli(['check', '--root', root, '--format', 'json', '--rule', 'house/plain-words']);
    expect(reported(only.stdout).map((d) => d.rule)).toEqual(['house/plain-words', 'house/plain-words']);
    const off = houseRulesRoot({ ...RULES, 'house/plain-words': { ...RULES['house/plain-words'], severity: 'off' } });
    expect(
      houseFindings((await cli(['check', '--root', off, '--format', 'json'])).stdout).map((line) => line.split(' ')[1]),
    ).toEqual(['house/title-prefix']);
    const fixed = await cli(['check', '--root', off, '--rule', 'house/plain-words', '--fix']);
    expect(fixed.status).toBe(0);
    expect(readFileSync(path.join(off, 'spec/v2/core/a.md'), 'utf8')).toContain(
      'We use leases.\n\nThey use runners too.',
    );
  });

  it('are listed by `rules` and described in SARIF, with the page their definition names', async () => {
    const root = houseRulesRoot();
    const listed = await cli(['rules', '--root', root]);
    expect(listed.stdout).toContain('house/title-prefix');
    expect(listed.stdout).toMatch(
      /house\/title-prefix\s+error\s+API titles start with "OpenWOP "\n\s+https:\/\/example\.org\/house#title-prefix/,
    );
    expect(listed.stdout).toMatch(
      /house\/plain-words\s+warning\s+fixable\s+markdown paragraphs of `spec\/\*\*\/\*\.md`: substitution `\{"swap":\{"utilize":"use"\}\}`\n\s+a house rule, defined in /,
    );
    // Documented as the built-in rules are, in the reference's own form.
    const reference = (await cli(['rules', '--root', root, '--format', 'markdown'])).stdout;
    expect(reference).toContain('### links/anchor');
    expect(reference).toContain(
      '## house\n\n### house/plain-words\n\nmarkdown paragraphs of `spec/**/*.md`: substitution `{"swap":{"utilize":"use"}}`.\n\nA house rule, defined in the config: markdown paragraphs of `spec/**/*.md`: substitution `{"swap":{"utilize":"use"}}`.\n\nDefault severity: warning. Fixable with `--fix`: yes.',
    );
    expect(reference).toContain(
      '### house/title-prefix\n\nAPI titles start with "OpenWOP ".\n\nA house rule, defined in the config: `/info` of `api/**/*.yaml`: `title` pattern `{"match":"^OpenWOP "}`. More: https://example.org/house#title-prefix',
    );
    const json = JSON.parse((await cli(['rules', '--root', root, '--format', 'json'])).stdout) as {
      rules: Array<{ id: string; effective: string; definedIn?: string }>;
    };
    expect(json.rules.find((r) => r.id === 'house/plain-words')).toMatchObject({
      effective: 'warning',
      definedIn: expect.stringContaining('openwop-spec.config.json'),
    });
    const sarif = JSON.parse((await cli(['check', '--root', root, '--format', 'sarif'])).stdout);
    expect(sarif.runs[0].tool.driver.rules.find((r: { id: string }) => r.id === 'house/title-prefix')).toMatchObject({
      helpUri: 'https://example.org/house#title-prefix',
      shortDescription: { text: 'API titles start with "OpenWOP "' },
    });
  });

  it('a wrong definition is one line naming the key, and exit 2', async () => {
    const cases: Array<[unknown, string]> = [
      [
        { given: { pointer: '/info' }, then: { function: 'shout' } },
        'rules["house/x"].then.function must be one of "pattern", "notPattern", "enumeration", "casing", "length", "defined", "undefined", "substitution"',
      ],
      [
        { given: { pointer: '/info' }, then: { function: 'pattern' } },
        'rules["house/x"].then must have required property \'functionOptions\'',
      ],
      [
        { given: { pointer: '/info' }, then: { function: 'pattern', functionOptions: { match: '(' } } },
        'rules["house/x"].then.functionOptions.match is not a regular expression',
      ],
      [
        { given: { markdown: 'paragraphs', pointer: '/a' }, then: { function: 'defined' } },
        'rules["house/x"].given needs exactly one of path (JSONPath), pointer (JSON pointer) or markdown (headings, paragraphs, code-spans, table-cells)',
      ],
      [
        { given: { markdown: 'headings' }, then: { field: 'x', function: 'defined' } },
        'rules["house/x"].then.field: a markdown selector gives text, which has no fields',
      ],
      [
        { given: { markdown: 'headings' }, then: { function: 'defined' }, sevrity: 'error' },
        'rules["house/x"].sevrity is not a known key',
      ],
    ];
    for (const [definition, message] of cases) {
      const result = await cli(['check', '--root', houseRulesRoot({ 'house/x': definition })]);
      expect(result.status, message).toBe(2);
      expect(result.stderr.split('\n')).toHaveLength(2);
      expect(result.stderr).toContain(message);
    }
    const builtIn = await cli([
      'check',
      '--root',
      houseRulesRoot({ 'links/anchor': { given: { markdown: 'headings' }, then: { function: 'defined' } } }),
    ]);
    expect(builtIn.stderr).toContain('rules["links/anchor"] defines a rule with the id of a built-in one');
    expect(builtIn.status).toBe(2);
  });
});
