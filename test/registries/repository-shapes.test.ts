/**
 * This repository's registries, as a test of this corpus: written in the shapes of the upstream
 * OpenWOP corpus (issue 13), the field names compared with upstream's files read in place, and held
 * to their rules. The readers themselves are tested on fixtures in shapes.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { aliasMembers } from '../../core/config/index.js';
import { loadCorpus } from '../../core/model/corpus.js';
import {
  codemapCounts,
  eventCodemap,
  namingExceptions,
  resolveSection,
  vendorOrgs,
} from '../../core/registries/index.js';
import { invariantRows } from '../../core/registries/evidence.js';
import { REPO, run } from '../helpers.js';
import { UPSTREAM, upstreamPresent } from '../upstream-corpus.js';

/** A case that compares with upstream's files: skipped, with one line, where they are absent. */
const itBesideUpstream = it.skipIf(!upstreamPresent(import.meta.url));
const json = (root: string, file: string) =>
  JSON.parse(readFileSync(path.join(root, file), 'utf8')) as Record<string, any>;
const keysOf = (rows: Array<Record<string, unknown>>) => [...new Set(rows.flatMap((row) => Object.keys(row)))].sort();
const corpus = loadCorpus(REPO);

describe("the registries of this repository, beside upstream's", () => {
  itBesideUpstream('declaration: an org is {name, registered, reserved?, note?}, and `example` is reserved', () => {
    const ours = json(REPO, 'spec/v2/declaration.json').extensions as Record<string, Record<string, unknown>>;
    const theirs = json(UPSTREAM, 'spec/v2/declaration.json').extensions as Record<string, Record<string, unknown>>;
    const upstreamKeys = new Set(keysOf(Object.values(theirs)));
    for (const key of keysOf(Object.values(ours))) expect(upstreamKeys, key).toContain(key);
    expect(ours.example?.reserved).toBe(true);
    expect(theirs.example?.reserved).toBe(true);
    expect(vendorOrgs(corpus)?.registered).toEqual(['acme', 'example']);
  });

  itBesideUpstream(
    "declaration: a live family's section is its `### § key` entry in capabilities.md, as upstream's core families are",
    () => {
      const families = (json(REPO, 'spec/v2/declaration.json').families as Array<Record<string, string>>).filter(
        (family) => family.anchor !== 'deleted',
      );
      expect(families.length).toBeGreaterThan(0);
      for (const family of families) {
        expect(family.section).toBe(`core/capabilities.md#${family.key}`);
        const resolved = resolveSection(corpus, family.section ?? '');
        expect([resolved.form, resolved.anchorExists], family.key).toEqual(['keyed', true]);
      }
      const upstream = (json(UPSTREAM, 'spec/v2/declaration.json').families as Array<Record<string, string>>).filter(
        (family) => family.anchor === 'core',
      );
      for (const family of upstream) expect(family.section).toBe(`core/capabilities.md#${family.key}`);
    },
  );

  it('declaration: a `### § key` heading wins over a heading whose slug is the key', () => {
    // capabilities.md has both `## Forms` (slug `forms`) and `### § forms`.
    expect(corpus.markdown('spec/v2/core/capabilities.md')?.anchors.has('forms')).toBe(true);
    expect(resolveSection(corpus, 'core/capabilities.md#forms').form).toBe('keyed');
    expect(resolveSection(corpus, 'core/capabilities.md#13-signing-keys').form).toBe('heading');
  });

  itBesideUpstream(
    'codemap: rows carry upstream\'s members, an exception is a note opening "artifact event", counts are upstream\'s four',
    () => {
      const ours = json(REPO, 'spec/v2/event-codemap.json');
      const theirs = json(UPSTREAM, 'spec/v2/event-codemap.json');
      const upstreamRow = new Set(
        Object.keys(json(UPSTREAM, 'spec/v2/event-codemap.schema.json').properties.rows.items.properties),
      );
      for (const key of keysOf(ours.rows)) expect(upstreamRow, key).toContain(key);
      expect(Object.keys(ours.counts).sort()).toEqual(Object.keys(theirs.counts).sort());
      const codemap = eventCodemap(corpus);
      if (!codemap) throw new Error('no codemap');
      expect(Object.keys(codemapCounts(codemap)).sort()).toEqual(Object.keys(theirs.counts).sort());
      const excepted = namingExceptions(codemap);
      expect(excepted.length).toBeGreaterThan(0);
      for (const row of excepted) expect(row.note).toMatch(/^artifact event; /);
    },
  );

  itBesideUpstream(
    "invariants: rows carry upstream's members, the rationale only where the row is unwitnessable",
    () => {
      const ours = parse(readFileSync(path.join(REPO, 'SECURITY/invariants.yaml'), 'utf8')).invariants as Array<
        Record<string, unknown>
      >;
      const theirs = parse(readFileSync(path.join(UPSTREAM, 'SECURITY/invariants.yaml'), 'utf8')).invariants as Array<
        Record<string, unknown>
      >;
      const upstreamKeys = new Set(keysOf(theirs));
      expect(ours.length).toBeGreaterThan(0);
      for (const key of keysOf(ours)) expect(upstreamKeys, key).toContain(key);
      for (const row of ours)
        expect('non_testability_rationale' in row, String(row.id)).toBe(row.witness === 'unwitnessable');
      const read = invariantRows(corpus) ?? [];
      expect(read).toHaveLength(ours.length);
      // Without an unwitnessable row the rationale check below would pass on nothing.
      const unwitnessable = read.filter((row) => row.witness === 'unwitnessable');
      expect(unwitnessable.length).toBeGreaterThan(0);
      expect(unwitnessable.every((row) => typeof row.rationale === 'string' && row.rationale.length > 0)).toBe(true);
    },
  );

  itBesideUpstream(
    "errors: rows carry upstream's members, besides retriableException, which upstream's closed rows cannot hold",
    () => {
      const upstreamRow = new Set(Object.keys(json(UPSTREAM, 'spec/v2/errors.schema.json').$defs.row.properties));
      const extra = keysOf(json(REPO, 'spec/v2/errors.json').rows).filter((key) => !upstreamRow.has(key));
      expect(extra).toEqual(['retriableException']);
    },
  );
  it("holds the repository's declaration, codemap and invariants to their rules: no finding", () => {
    for (const rule of [
      ...aliasMembers('declaration/registry'),
      'events/codemap',
      'witness/classes',
      'errors/registry',
    ])
      expect(run(rule, corpus), rule).toEqual([]);
  });
});
