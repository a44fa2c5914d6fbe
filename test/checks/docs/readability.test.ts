import { describe, expect, it } from 'vitest';
import { doc, run, where } from '../../helpers.js';
import { runWithOptions } from '../options.js';

const long = (words: number): string => Array.from({ length: words }, (_, i) => `w${i}`).join(' ');

const GOOD = doc(
  'Runs',
  [
    'A run MUST carry its id. JCS is RFC 8785, a standard cited where it is used.',
    '',
    `- ${long(90)}`,
    '  - a nested item is counted on its own',
    '',
    '| Field | Meaning |',
    '| --- | --- |',
    `| runId | ${long(40)} |`,
    '',
    '```text',
    `RFC 0137 ${long(200)}`,
    '```',
    '',
    '*Sources: RFC 0137, RFC 0177.*',
  ].join('\n'),
);

describe('docs/readability', () => {
  it('is quiet on prose within its limits, with RFC numbers in the Sources footer only', () => {
    expect(run('docs/readability', { 'spec/v2/core/runs.md': GOOD })).toEqual([]);
  });

  it('fires at an RFC number in a heading, running text and a cell, and at a long paragraph, item and cell', () => {
    const text = [
      '# Runs',
      '',
      '> **Status: Stable · RFC 0177.**',
      '',
      '## Why this exists (RFC 0169)',
      '',
      'As RFC 0144 says, a run MUST carry its id.',
      '',
      long(91),
      '',
      `- ${long(91)}`,
      '',
      '| Field | Meaning |',
      '| --- | --- |',
      `| runId | ${long(41)} |`,
      '| eventId | see RFC 0150 |',
      '',
      '*Sources: RFC 0144.*',
      '',
    ].join('\n');
    const found = run('docs/readability', { 'spec/v2/core/runs.md': text, 'spec/v1/old.md': text });
    expect(found.map((d) => `${where([d])[0]} ${d.message}`)).toEqual([
      'spec/v2/core/runs.md:5:21 RFC 0169 in a heading; RFC numbers belong in the Sources footer, and the prose says what the rule is',
      'spec/v2/core/runs.md:7:4 RFC 0144 in running text; RFC numbers belong in the Sources footer, and the prose says what the rule is',
      'spec/v2/core/runs.md:9:1 a paragraph of 91 words, over the limit of 90',
      'spec/v2/core/runs.md:11:1 a list item of 91 words, over the limit of 90',
      'spec/v2/core/runs.md:15:9 a table cell of 41 words, over the limit of 40',
      'spec/v2/core/runs.md:16:17 RFC 0150 in a table cell; RFC numbers belong in the Sources footer, and the prose says what the rule is',
    ]);
  });

  it('leaves the status block of a core document to docs/structure, which reports it once with its fix, and reports it elsewhere', () => {
    const core = ['# Runs', '', '> **Status: Stable · v2.0.10 (2026-09-10) · RFC 0177, RFC 0137.**', '', '## Why this exists', '', 'A run MUST carry its id.', ''].join('\n');
    const ext = ['# `canvas` — extension', '', '> **Status: Draft.** Extension document (RFC 0169 §B.3).', '', 'A host MAY draw.', ''].join('\n');
    const files = { 'spec/v2/core/runs.md': core, 'spec/v2/ext/canvas/README.md': ext };
    expect(run('docs/readability', files).map((d) => `${where([d])[0]} ${d.message}`)).toEqual([
      'spec/v2/ext/canvas/README.md:3:42 RFC 0169 in the status banner; RFC numbers belong in the Sources footer, and the prose says what the rule is',
    ]);
    expect(where(run('docs/structure', files).filter((d) => d.message.includes('form before 2.42.8')))).toEqual(['spec/v2/core/runs.md:3:3']);
  });

  it('takes a restated family owner and a linked RFC for what they are: a registry field and a citation of the document', () => {
    const text = [
      '# Capabilities',
      '',
      '> **Status: Stable.**',
      '',
      '## Why this exists',
      '',
      '### § canvas',
      '',
      'Witness `claims-check`; owner RFC 0193; facets `kinds`.',
      '',
      '| Field | Value |',
      '| --- | --- |',
      '| **owning RFC** | RFC 0144 |',
      '| **advertised as** | `extensions.<org>.canvas` (RFC 0169 §A.4) |',
      '',
      '| Path | Owner | What |',
      '| --- | --- | --- |',
      '| `declaration.json` | RFC 0169 §B | The one declaration file (RFC 0175). |',
      '',
      'Installs follow the host policy ([RFC 0043](https://example.org/RFCS/0043-policy.md)), as RFC 0096 stages them.',
      '',
      '*Sources: RFC 0043, RFC 0144, RFC 0193.*',
      '',
    ].join('\n');
    expect(run('docs/readability', { 'spec/v2/core/capabilities.md': text }).map((d) => `${where([d])[0]} ${d.message.split(';')[0]}`)).toEqual([
      'spec/v2/core/capabilities.md:14:50 RFC 0169 in a table cell',
      'spec/v2/core/capabilities.md:18:64 RFC 0175 in a table cell',
      'spec/v2/core/capabilities.md:20:91 RFC 0096 in running text',
    ]);
  });

  it('counts an inline code span as one word, as upstream\'s readability rule does; the words around it still count', () => {
    const span = '`OpenWOP-Version: 2.0 and more tokens inside one span`';
    // 84 words and 6 spans: 90 words, 138 counting the words inside the spans.
    const para = `${long(84)} ${Array.from({ length: 6 }, () => span).join(' ')}`;
    const cell = `| runId | ${long(36)} ${span} ${span} ${span} ${span} |`;
    const quiet = doc('Runs', [para, '', '| Field | Meaning |', '| --- | --- |', cell].join('\n'));
    expect(run('docs/readability', { 'spec/v2/core/runs.md': quiet })).toEqual([]);
    const loud = doc('Runs', [`${para} w1`, '', '| Field | Meaning |', '| --- | --- |', `| runId | ${long(37)} ${span} ${span} ${span} ${span} |`].join('\n'));
    expect(run('docs/readability', { 'spec/v2/core/runs.md': loud }).map((d) => d.message)).toEqual(['a paragraph of 91 words, over the limit of 90', 'a table cell of 41 words, over the limit of 40']);
  });

  it('skips generated regions and documents generated whole', () => {
    const region = doc('Runs', `<!-- generated: t from x; do not edit -->\n${long(120)}\n<!-- /generated: t -->`);
    const whole = `# Codes\n\n> **Status: Stable.** Generated from \`spec/v2/errors.json\`; do not edit.\n\nSee RFC 0171. ${long(100)}\n`;
    expect(run('docs/readability', { 'spec/v2/core/runs.md': region, 'spec/v2/generated/codes.md': whole })).toEqual([]);
  });

  it('holds v1 mentions to the recorded count: above it an error, below it a warning to lower it', () => {
    const files = { 'spec/v2/core/a.md': doc('A', 'Unlike v1, a run is closed. The `v1` header is gone; v1.0 too.'), 'spec/v2/core/b.md': doc('B', 'No v1 here but this. A v10 or xv1 is not one.') };
    expect(run('docs/readability', files)).toEqual([]);
    expect(runWithOptions('docs/readability', files, { v1Mentions: 4 })).toEqual([]);
    const above = runWithOptions('docs/readability', files, { v1Mentions: 3 });
    expect(above.map((d) => `${where([d])[0]} ${d.severity} ${d.message}`)).toEqual([
      'spec/v2/core/b.md:7:4 error 4 mentions of v1 in v2 prose, above the recorded 3: the count may only go down (spec/v2/core/a.md 3, spec/v2/core/b.md 1)',
    ]);
    const below = runWithOptions('docs/readability', files, { v1Mentions: 9 });
    expect(below.map((d) => `${d.severity} ${d.message}`)).toEqual(['warning 4 mentions of v1 in v2 prose, below the recorded 9']);
  });

  it('takes its limits from options', () => {
    const files = { 'spec/v2/core/runs.md': doc('Runs', long(20)) };
    expect(where(runWithOptions('docs/readability', files, { maxWords: 10 }))).toEqual(['spec/v2/core/runs.md:7:1']);
  });
});
