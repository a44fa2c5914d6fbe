import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { witnessCounts, witnessEntries } from '../../../core/registries/evidence.js';
import { cli, FIXTURES, lineOf } from '../../helpers.js';
import { check, evidenceCorpus, evidenceDirectory, findings, fixtureFiles, replaceOnce, supportFiles, type Files } from '../../evidence/support.js';
import { corpusFromFiles, type Corpus } from '../../../core/model/corpus.js';

describe('witness/classes', { timeout: 60_000 }, () => {
  it('fires at each entry whose class breaks a rule, and at the baseline a count exceeds', () => {
    expect(findings(check('witness/classes', evidenceCorpus('witness-defects')))).toEqual([
      'SECURITY/invariants.yaml:7:14 protocol-tier invariant `subject-required-on-owner` is marked unwitnessable; a protocol invariant must have an observation path',
      'conformance/requirements.json:8:16 requirement `openwop.idempotency.replay-marker` has `tests: []` but is `witnessable-unaided`; an empty test list is expressible only as unwitnessable',
      'conformance/requirements.json:14:18 requirement `openwop.idempotency.record-retention` has witness `blocked`, which is not in the closed set (witnessClasses of spec/v2/declaration.json, and unwitnessable)',
      'conformance/requirements.json:23:20 requirement `openwop.idempotency.keys-not-logged` is unwitnessable without a rationale',
      'docs/witness-baseline.json:3:16 2 seam-gated entries (families, requirements and invariants), above the baseline of 1: the count is a ratchet and may not rise. They are: family mcp (spec/v2/declaration.json:8), requirement openwop.idempotency.effect-claim (conformance/requirements.json:27)',
      'docs/witness-baseline.json:4:20 (warning) 3 unwitnessable requirements and invariants, below the baseline of 4; the baseline can be lowered to 3',
      'spec/v2/declaration.json:5:76 family `idempotency` has witness `seam-gatd`, which is not in the closed set (witnessClasses of spec/v2/declaration.json)',
      'spec/v2/declaration.json:6:74 family `heartbeat` is `unwitnessable`, a class allowed on requirements and invariants only',
      'spec/v2/declaration.json:7:5 family `forms` carries no witness class',
    ]);
  });

  it('offers the closest class for a misspelt one, and says how to lower the baseline', () => {
    const found = check('witness/classes', evidenceCorpus('witness-defects'));
    expect(found.find((d) => d.message.includes('seam-gatd'))?.hint).toBe('did you mean `seam-gated`?');
    expect(found.find((d) => d.severity === 'warning')?.hint).toBe('run `openwop-spec baseline --update` to lower it');
  });

  it('is quiet on classes that keep their rules and counts at the baseline; a deleted family carries none', () => {
    expect(check('witness/classes', evidenceCorpus('witness-good'))).toEqual([]);
    expect(witnessCounts(witnessEntries(evidenceCorpus('witness-good')))).toEqual({ seamGated: 2, unwitnessable: 2 });
  });

  it('counts unwitnessable on requirements and invariants only, and seam-gated on all three', () => {
    const entries = witnessEntries(evidenceCorpus('witness-defects'));
    expect(entries.map((e) => `${e.source}:${e.id}:${e.witness ?? '-'}`)).toEqual([
      'family:idempotency:seam-gatd',
      'family:heartbeat:unwitnessable',
      'family:forms:-',
      'family:mcp:seam-gated',
      'requirement:openwop.idempotency.replay-marker:witnessable-unaided',
      'requirement:openwop.idempotency.record-retention:blocked',
      'requirement:openwop.idempotency.keys-not-logged:unwitnessable',
      'requirement:openwop.idempotency.effect-claim:seam-gated',
      'invariant:subject-required-on-owner:unwitnessable',
      'invariant:provenance-attestation-digest-bound:unwitnessable',
    ]);
    expect(witnessCounts(entries)).toEqual({ seamGated: 2, unwitnessable: 3 });
  });

  it('uses the documented classes while no declaration exists, and warns when no baseline exists', () => {
    const files = fixtureFiles('witness-good');
    delete files['spec/v2/declaration.json'];
    delete files['docs/witness-baseline.json'];
    expect(findings(check('witness/classes', evidenceCorpus(files)))).toEqual([
      'docs/witness-baseline.json:1:1 (warning) docs/witness-baseline.json is missing, so the seam count is held to no ratchet',
    ]);
  });

  it('says nothing on a corpus with no evidence registries', () => {
    expect(check('witness/classes', evidenceCorpus({}))).toEqual([]);
  });

  it('reports an invalid invariants file against its schema and does not read it', () => {
    const found = check('witness/classes', evidenceCorpus('witness-good', { 'SECURITY/invariants.yaml': 'invariants:\n  - id: x\n    tier: galactic\n' }));
    const lines = findings(found);
    expect(lines).toContain('SECURITY/invariants.yaml:3:5 does not match spec/v2/invariants.schema.json: /invariants/0/tier: must be one of "protocol", "reference-impl", "advisory"');
    expect(lines).toContain('SECURITY/invariants.yaml:2:5 does not match spec/v2/invariants.schema.json: /invariants/0: required property "witness" is missing');
    // Unread, the invalid file contributes no entry: the remaining counts fall below the baseline.
    expect(lines.filter((line) => !line.startsWith('SECURITY'))).toEqual(['docs/witness-baseline.json:4:20 (warning) 1 unwitnessable requirements and invariants, below the baseline of 2; the baseline can be lowered to 1']);
  });
});

describe('witness/classes on the command line', { timeout: 60_000 }, () => {
  const raise = (root: string): { text: string } => {
    const file = path.join(root, 'spec/v2/declaration.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, replaceOnce(text, '"key": "idempotency", "kind": "family", "anchor": "core", "witness": "witnessable-gated"', '"key": "idempotency", "kind": "family", "anchor": "core", "witness": "seam-gated"'));
    return { text };
  };

  it('fails when one family goes from witnessable-gated to seam-gated past the baseline', async () => {
    const root = evidenceDirectory('witness-good');
    expect((await cli(['check', '--root', root, '--rule', 'witness/classes'])).status).toBe(0);
    raise(root);
    const result = await cli(['check', '--root', root, '--rule', 'witness/classes']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('docs/witness-baseline.json:3:16  error    3 seam-gated entries (families, requirements and invariants), above the baseline of 2: the count is a ratchet and may not rise. They are: family idempotency (spec/v2/declaration.json:5), family heartbeat (spec/v2/declaration.json:6), requirement openwop.idempotency.record-retention (conformance/requirements.json:11)  witness/classes');
  });

  it('with --previous-release, names only the entry that became seam-gated, at its own line', async () => {
    const root = evidenceDirectory('witness-good');
    const { text } = raise(root);
    const previous = path.join(FIXTURES, 'evidence', 'witness-good');
    const result = await cli(['check', '--root', root, '--rule', 'witness/classes', '--previous-release', previous, '--format', 'json']);
    expect(result.status).toBe(1);
    const found = JSON.parse(result.stdout).diagnostics.map((d: { file: string; line: number; message: string }) => `${d.file}:${d.line} ${d.message}`);
    expect(found).toEqual([
      `docs/witness-baseline.json:3 3 seam-gated entries (families, requirements and invariants), above the baseline of 2: the count is a ratchet and may not rise. New since the previous release: family idempotency (spec/v2/declaration.json:5)`,
      `spec/v2/declaration.json:${lineOf(text, '"idempotency"')} family \`idempotency\` became seam-gated since the previous release, raising the count above docs/witness-baseline.json`,
    ]);
  });

  describe('the rationale of an invariant is non_testability_rationale', () => {
    const invariants = fixtureFiles('witness-good')['SECURITY/invariants.yaml'] ?? '';

    it('reads it, and the repository\'s schema holds a row to that name alone', () => {
      const entry = witnessEntries(evidenceCorpus('witness-good')).find((e) => e.id === 'provenance-attestation-digest-bound');
      expect(entry?.rationale).toBe('attestations never leave the build pipeline');
      const old = replaceOnce(invariants, '    non_testability_rationale: attestations', '    rationale: attestations');
      expect(findings(check('witness/classes', evidenceCorpus('witness-good', { 'SECURITY/invariants.yaml': old })))).toEqual([
        `SECURITY/invariants.yaml:${lineOf(old, 'rationale: attestations')}:5 does not match spec/v2/invariants.schema.json: /invariants/1: property "rationale" is not allowed`,
        // The old name is not read, so the row has no rationale.
        `SECURITY/invariants.yaml:${lineOf(old, 'rationale: attestations')}:16 invariant \`provenance-attestation-digest-bound\` is unwitnessable without a rationale`,
      ]);
    });
  });

  describe('upstream\'s shapes', () => {
    const good = fixtureFiles('witness-good');
    const invariants = good['SECURITY/invariants.yaml'] ?? '';
    /** The good fixture without the schemas of the invariants and the baseline: the tool's own hold them. */
    const withoutSchemas = (overrides: Files): Corpus => {
      const files: Files = { ...supportFiles(), ...good, ...overrides };
      delete files['spec/v2/invariants.schema.json'];
      delete files['spec/v2/witness-baseline.schema.json'];
      return corpusFromFiles('/evidence-fixture', files);
    };
    // Ours is written in upstream's shape already; upstream's rows also carry keys no gate reads.
    const upstreamInvariants = replaceOnce(invariants, '    non_testability_rationale: attestations never leave the build pipeline', '    non_testability_rationale: attestations never leave the build pipeline\n    witnessReview: 2026-09-04');
    const upstreamBaseline = '{\n  "$comment": "counts may only go down",\n  "measured": "2026-09-04",\n  "unwitnessable": 2,\n  "openGaps": 0\n}\n';

    it('reads non_testability_rationale, and holds invariants and a baseline without seamGated to the schemas it carries', () => {
      expect(findings(check('witness/classes', withoutSchemas({ 'SECURITY/invariants.yaml': upstreamInvariants, 'docs/witness-baseline.json': upstreamBaseline })))).toEqual([]);
    });

    it('still finds an unwitnessable invariant with no rationale of either name, and a counter that is not a count', () => {
      const bare = upstreamInvariants.replace('    non_testability_rationale: attestations never leave the build pipeline\n', '');
      const baseline = upstreamBaseline.replace('"openGaps": 0', '"openGaps": "none"');
      expect(findings(check('witness/classes', withoutSchemas({ 'SECURITY/invariants.yaml': bare, 'docs/witness-baseline.json': baseline })))).toEqual([
        `SECURITY/invariants.yaml:${lineOf(bare, 'id: provenance-attestation-digest-bound')}:5 invariant \`provenance-attestation-digest-bound\` is unwitnessable without a rationale`,
        'docs/witness-baseline.json:5:3 does not match the schema openwop-spec carries for it (the corpus has no spec/v2/witness-baseline.schema.json): /openGaps: must be integer',
      ]);
    });
  });
});
