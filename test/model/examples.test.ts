import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/corpus.js';
import { examplePlans, stripJsonComments } from '../../core/model/examples.js';

const fence = '```';

describe('the fenced examples of a document', () => {
  it('skips an elided jsonc sketch, and says why', () => {
    const text = [
      '# A',
      '',
      '<!-- example: schemas/v2/thing.schema.json -->',
      `${fence}jsonc`,
      '{ "name": "x", … }',
      fence,
      '',
    ].join('\n');
    const file = corpusFromFiles('/nonexistent-root', { 'spec/v2/core/a.md': text }).markdown('spec/v2/core/a.md');
    if (!file) throw new Error('the document did not load');
    const plans = examplePlans(file);
    expect(plans.map((plan) => [plan.block.line, plan.status, plan.status === 'skipped' ? plan.reason : ''])).toEqual([
      [4, 'skipped', 'it elides content with …, so it is not a complete instance'],
    ]);
  });

  it('keeps every position when it strips comments and trailing commas', () => {
    const source = '{\n  // note\n  "a": "x // y", /* b */\n  "c": [1, 2,],\n}';
    const stripped = stripJsonComments(source);
    expect(stripped.length).toBe(source.length);
    expect(JSON.parse(stripped)).toEqual({ a: 'x // y', c: [1, 2] });
    expect(stripped.split('\n').map((line) => line.length)).toEqual(source.split('\n').map((line) => line.length));
  });
});
