/**
 * `generate`, `generate --check` and `stamp` are callers of the one pipeline: the config's
 * severities and `off`, and a findings baseline, apply to their findings as they apply to `check`'s,
 * so `generate --check` fails exactly when `check` reports an error of the generation rules.
 * On the error-registry fixture, whose generated regions are current until a test edits one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../core/output/index.js';
import { cli, reported } from '../helpers.js';
import { copyErrorsFixture } from '../errors/helpers.js';

const DOC = 'spec/v2/core/errors.md';

/** The fixture with the generated count region edited by hand (stale), and the config's rules set to `rules`. */
function staleFixture(rules?: Record<string, unknown>): string {
  const root = copyErrorsFixture();
  const file = path.join(root, DOC);
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('<!-- generated: count/errors -->**6**');
  writeFileSync(file, text.replace('<!-- generated: count/errors -->**6**', '<!-- generated: count/errors -->**7**'));
  if (rules)
    writeFileSync(
      path.join(root, 'openwop-spec.config.json'),
      JSON.stringify({ required: ['spec/v2/errors.json'], rules }),
    );
  return root;
}

const generation = (d: Diagnostic): boolean => d.rule.startsWith('generate/') || d.rule.startsWith('generated/');
const findingSummary = (d: Diagnostic): string => `${d.rule} ${d.severity} ${d.file}:${d.line} ${d.messageId ?? ''}`;

async function both(root: string, ...args: string[]) {
  const check = await cli(['check', '--root', root, '--format', 'json', ...args]);
  const generate = await cli(['generate', '--check', '--root', root, '--format', 'json', ...args]);
  return {
    check,
    generate,
    checked: reported(check.stdout).filter(generation).map(findingSummary),
    generated: reported(generate.stdout).filter(generation).map(findingSummary),
  };
}

describe('generate --check judges as check does', { timeout: 240_000 }, () => {
  it("fails on stale generated text, with the finding check reports, worded from the drift rule's messages", async () => {
    const root = staleFixture();
    const { generate, checked, generated } = await both(root);
    expect(generate.status).toBe(1);
    expect(generated).toEqual([`generated/drift error ${DOC}:7 stale-changed`]);
    expect(generated).toEqual(checked);
    const [drift] = reported(generate.stdout);
    expect(drift?.data).toMatchObject({ generators: 'errors-doc' });
    expect(drift?.data?.place).toBe('line 7');
    expect(drift?.message).toBe(
      `stale generated content: line 7 differs from what errors-doc produces; expected: ${String(drift?.data?.expected)}`,
    );
  });

  it('passes, reporting a warning, when the config makes drift a warning', async () => {
    const root = staleFixture({ 'generated/drift': 'warn' });
    const { generate, checked, generated } = await both(root);
    expect(generated).toEqual([`generated/drift warning ${DOC}:7 stale-changed`]);
    expect(generated).toEqual(checked);
    expect(generate.status).toBe(0);
  });

  it('passes silently when the config turns drift off, and generate still repairs the output', async () => {
    const root = staleFixture({ 'generated/drift': 'off' });
    const { generate, generated } = await both(root);
    expect(generated).toEqual([]);
    expect(generate.status).toBe(0);
    const written = await cli(['generate', '--root', root]);
    expect(written.status).toBe(0);
    expect(readFileSync(path.join(root, DOC), 'utf8')).toContain('<!-- generated: count/errors -->**6**');
  });

  it('accepts the drift a findings baseline records, and fails again on drift it does not', async () => {
    const root = staleFixture();
    const baseline = path.join(root, 'findings-baseline.json');
    expect((await cli(['check', '--root', root, '--baseline-findings', baseline, '--update'])).status).toBe(0);
    expect((await cli(['generate', '--check', '--root', root, '--baseline-findings', baseline])).status).toBe(0);
    const file = path.join(root, DOC);
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('`rate_limited`, `residency_unavailable`', '`rate_limited`'),
    );
    expect((await cli(['generate', '--check', '--root', root, '--baseline-findings', baseline])).status).toBe(1);
  });

  it('is clean, exit 0, on the fixture as it is', async () => {
    const root = copyErrorsFixture();
    const { generate, generated } = await both(root);
    expect(generated).toEqual([]);
    expect(generate.status).toBe(0);
  });
});
