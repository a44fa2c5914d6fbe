import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFromFiles, loadCorpus } from '../../core/model/corpus.js';
import { defineGenerator } from '../../core/run/define.js';
import { sha256Hex } from '../../core/output/digest.js';
import { driftDiagnostics, planGeneration } from '../../core/run/generation.js';
import { parseStamp } from '../../core/release/stamp.js';
import corpusStamp from '../../generators/corpus-stamp.js';
import { edit, stampedCopy, tempDir } from './helpers.js';

const stampOf = (root: string) => parseStamp(readFileSync(path.join(root, 'CORPUS-STAMP.json'), 'utf8')).stamp;

describe('the corpus-stamp generator', () => {
  it('hashes every shipped file, sorted, and leaves docs/ and the stamp itself out', () => {
    const root = stampedCopy();
    const stamp = stampOf(root);
    expect(stamp?.package).toBe('@openwop/spec-artifacts');
    expect(stamp?.version).toBe('1.4.2');
    expect(stamp?.canonicalization).toBe('RFC 8785');
    expect(Object.keys(stamp?.files ?? {})).toEqual([
      'SECURITY/invariants.yaml',
      'api/v2/asyncapi.yaml',
      'api/v2/openapi.yaml',
      'conformance/requirement-aliases.json',
      'conformance/requirements.json',
      'schemas/v2/ids.schema.json',
      'schemas/v2/run.schema.json',
      'spec/v2/core/errors.md',
      'spec/v2/errors.json',
      'spec/v2/errors.schema.json',
      'spec/v2/event-codemap.json',
    ]);
    expect(stamp?.files['spec/v2/errors.json']).toBe(sha256Hex(readFileSync(path.join(root, 'spec/v2/errors.json'))));
  });

  it('digests the JCS form of {package, version, files}, spelled out here by hand', () => {
    const root = tempDir();
    writeFileSync(path.join(root, 'package.json'), '{"version": "0.1.0"}');
    const corpus = corpusFromFiles(root, { 'spec/b.md': '# B\n', 'api/a.yaml': 'a: 1\n', 'docs/x.md': '# X\n' });
    const [output] = planGeneration(corpus, [corpusStamp]).files;
    const a = sha256Hex('a: 1\n');
    const b = sha256Hex('# B\n');
    const canonical = `{"files":{"api/a.yaml":"${a}","spec/b.md":"${b}"},"package":"@openwop/spec-artifacts","version":"0.1.0"}`;
    expect(JSON.parse(output?.after ?? '')).toEqual({
      package: '@openwop/spec-artifacts',
      version: '0.1.0',
      canonicalization: 'RFC 8785',
      files: { 'api/a.yaml': a, 'spec/b.md': b },
      digest: `sha256:${sha256Hex(canonical)}`,
    });
  });

  it('hashes what the other generators will write, new files included, so one run is enough', () => {
    const root = stampedCopy();
    const other = defineGenerator({
      id: 'other',
      summary: 'writes a new schema and rewrites a registry',
      inputs: [],
      generate: () => [
        { path: 'schemas/v2/generated.schema.json', content: '{"type": "object"}\n' },
        { path: 'conformance/requirement-aliases.json', content: '{\n  "aliases": {"a": "b"}\n}\n' },
      ],
    });
    const plan = planGeneration(loadCorpus(root), [corpusStamp, other]);
    expect(plan.diagnostics).toEqual([]);
    const planned = parseStamp(plan.files.find((file) => file.path === 'CORPUS-STAMP.json')?.after ?? '').stamp;
    expect(planned?.files['schemas/v2/generated.schema.json']).toBe(sha256Hex('{"type": "object"}\n'));
    expect(planned?.files['conformance/requirement-aliases.json']).toBe(sha256Hex('{\n  "aliases": {"a": "b"}\n}\n'));

    for (const file of plan.files) writeFileSync(path.join(root, file.path), file.after);
    const again = planGeneration(loadCorpus(root), [corpusStamp, other]);
    expect(driftDiagnostics(again)).toEqual([]);
  });

  it('reports a stale stamp at CORPUS-STAMP.json, after any shipped file changes by one byte', () => {
    const root = stampedCopy();
    expect(driftDiagnostics(planGeneration(loadCorpus(root), [corpusStamp]))).toEqual([]);
    edit(root, 'SECURITY/invariants.yaml', (text) => text.replace('high', 'HIGH'));
    const drift = driftDiagnostics(planGeneration(loadCorpus(root), [corpusStamp]));
    expect(drift.map((d) => `${d.rule} ${d.file} ${d.message.split(' is ')[0]}`)).toEqual([
      'generated/drift CORPUS-STAMP.json stale generated content: files.SECURITY/invariants.yaml',
      'generated/drift CORPUS-STAMP.json stale generated content: digest',
    ]);
  });

  it('does not go stale when only an unshipped file changes', () => {
    const root = stampedCopy();
    edit(root, 'docs/notes.md', (text) => `${text}More.\n`);
    expect(driftDiagnostics(planGeneration(loadCorpus(root), [corpusStamp]))).toEqual([]);
  });

  it('hashes raw bytes: a byte-order mark the model drops still counts', () => {
    const root = stampedCopy();
    const file = path.join(root, 'spec/v2/core/errors.md');
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), readFileSync(file)]);
    writeFileSync(file, bytes);
    const plan = planGeneration(loadCorpus(root), [corpusStamp]);
    const stamp = parseStamp(plan.files[0]?.after ?? '').stamp;
    expect(stamp?.files['spec/v2/core/errors.md']).toBe(sha256Hex(bytes));
  });

  it('stamps nothing in a corpus that is not a package, and says why it cannot refresh an existing stamp', () => {
    expect(planGeneration(corpusFromFiles(tempDir(), { 'spec/a.md': '# A\n' }), [corpusStamp])).toEqual({
      files: [],
      diagnostics: [],
    });
    const root = stampedCopy();
    rmSync(path.join(root, 'package.json'));
    const plan = planGeneration(loadCorpus(root), [corpusStamp]);
    expect(plan.diagnostics).toMatchObject([
      { rule: 'generate/corpus-stamp', file: 'CORPUS-STAMP.json', message: expect.stringMatching(/no package.json/) },
    ]);
    writeFileSync(path.join(root, 'package.json'), '{"version": "two"}');
    expect(planGeneration(loadCorpus(root), [corpusStamp]).diagnostics).toMatchObject([
      { file: 'package.json', message: expect.stringMatching(/no semantic "version"/) },
    ]);
  });
});
