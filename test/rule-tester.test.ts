import { describe, expect, it } from 'vitest';
import { asExpected, caseFiles, fixRule, refuseDuplicates, runRule } from './rule-tester.js';

const A = 'spec/v2/core/a.md';

describe('the rule tester', () => {
  it('refuses a case that runs on the same corpus as another, and two cases of one title', () => {
    const edit = { file: A, find: '# Alpha', replace: '# Alef' };
    expect(() =>
      refuseDuplicates({
        valid: [{ name: 'one', edits: [edit] }],
        invalid: [{ name: 'two', edits: [{ ...edit }], errors: [] }],
      }),
    ).toThrow('case "two" runs on the same corpus as "one"');
    expect(() =>
      refuseDuplicates({ valid: [{ name: 'one' }, { name: 'one', files: { 'x.md': '# X\n' } }], invalid: [] }),
    ).toThrow('two cases are named "one"');
    expect(() => refuseDuplicates({ valid: [{ name: 'one' }, { name: 'two', base: 'good' }], invalid: [] })).toThrow(
      'case "two" runs on the same corpus as "one"',
    );
    expect(() =>
      refuseDuplicates({
        valid: [
          { name: 'one', edits: [edit] },
          { name: 'two', edits: [{ ...edit, find: /# Alpha/ }] },
        ],
        invalid: [],
      }),
    ).not.toThrow();
  });

  it('builds a case from its base: files added, replaced and removed, edits applied, config merged', () => {
    const files = caseFiles({
      files: { 'spec/v2/core/c.md': '# C\n', 'spec/v2/core/b.md': null },
      edits: [{ file: A, find: '# Alpha', replace: '# Alef' }],
      config: { rules: { 'links/section-ref': 'warn' } },
    });
    expect(Object.keys(files).sort()).toEqual([
      'api/v2/openapi.yaml',
      'openwop-spec.config.json',
      'spec/v2/core/a.md',
      'spec/v2/core/c.md',
      'spec/v2/things.json',
    ]);
    expect(files[A]?.startsWith('# Alef\n')).toBe(true);
    expect(JSON.parse(files['openwop-spec.config.json'] ?? '')).toEqual({
      required: ['api/v2/openapi.yaml'],
      rules: { 'links/section-ref': 'warn' },
    });
  });

  it('refuses an edit that changes nothing and a removal of a file the base lacks', () => {
    expect(() => caseFiles({ edits: [{ file: A, find: 'no such text', replace: 'x' }] })).toThrow(
      'does not contain no such text',
    );
    expect(() => caseFiles({ edits: [{ file: 'nowhere.md', find: 'x', replace: 'y' }] })).toThrow(
      'which its corpus does not have',
    );
    expect(() => caseFiles({ files: { 'nowhere.md': null } })).toThrow('which its base does not have');
  });

  it('runs the rule as the command line does: the config severity applies, and other rules stay silent', () => {
    const broken = { edits: [{ file: A, find: 'heading"](b.md#some-heading).', replace: 'heading"](b.md#nowhere).' }] };
    const found = runRule('links/anchor', broken).diagnostics;
    expect(found.map((d) => `${d.rule} ${d.messageId} ${d.severity}`)).toEqual([
      expect.stringMatching(/^links\/anchor \S+ error$/),
    ]);
    const warned = runRule('links/anchor', { ...broken, config: { rules: { 'links/anchor': 'warn' } } }).diagnostics;
    expect(warned.map((d) => d.severity)).toEqual(['warning']);
    expect(asExpected(warned, [{ messageId: 'x', file: A, line: 1, column: 1, severity: 'error' }])[0]).toHaveProperty(
      'severity',
      'warning',
    );
    expect(asExpected(warned)[0]).not.toHaveProperty('severity');
  });

  it('works out fixes without writing them', () => {
    expect(fixRule('links/section-ref', {}).files).toEqual([]);
  });
});
