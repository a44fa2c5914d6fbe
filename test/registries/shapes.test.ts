/**
 * The readers of the registry shapes moved to upstream's (issue 13), and what is generated from
 * them, on fixtures: an invariant's rationale, a naming exception, a deprecation either way, and
 * the capability record's descriptions under the layout's $id base. This repository's own
 * registries are held to the same shapes in repository-shapes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config/index.js';
import { corpusFromFiles } from '../../core/model/corpus.js';
import { eventCodemap, readErrorsRegistry } from '../../core/registries/index.js';
import { invariantRows } from '../../core/registries/evidence.js';
import { capabilitiesSchema } from '../../generators/from-declaration.js';
import { SCHEMA_TEXT } from '../errors/helpers.js';
import { fixture, readTree } from '../helpers.js';

describe('the readers of the moved shapes', () => {
  const files = (overrides: Record<string, string>) => corpusFromFiles('/shapes', overrides);

  it("reads an invariant's rationale from non_testability_rationale only", () => {
    const rows = (yaml: string) => invariantRows(files({ 'SECURITY/invariants.yaml': yaml })) ?? [];
    const row = 'invariants:\n  - id: a\n    tier: reference-impl\n    witness: unwitnessable\n    tests: []\n';
    expect(rows(`${row}    non_testability_rationale: no surface shows it\n`)[0]?.rationale).toBe(
      'no surface shows it',
    );
    expect(rows(`${row}    rationale: no surface shows it\n`)[0]?.rationale).toBeUndefined();
  });

  it('reads a naming exception from the note alone', () => {
    const codemap = (row: Record<string, unknown>) =>
      eventCodemap(
        files({
          'spec/v2/event-codemap.json': JSON.stringify({
            rows: [
              {
                v1: 'output.chunk',
                v2: 'output.chunk',
                payloadDef: 'outputChunk',
                status: 'decided',
                review: false,
                ...row,
              },
            ],
          }),
        }),
      );
    expect(codemap({ note: 'artifact event; noun form permitted' })?.rows[0]?.exception).toEqual({
      form: 'domain.noun',
      reason: 'artifact event; noun form permitted',
    });
    expect(
      codemap({ exception: { form: 'domain.noun', reason: 'An emitted artifact.' } })?.rows[0]?.exception,
    ).toBeUndefined();
    expect(codemap({ note: 'separator normalised' })?.rows[0]?.exception).toBeUndefined();
  });

  it('reads `"deprecated": true` (upstream) and a deprecation record (ours) as deprecated', () => {
    const schema = SCHEMA_TEXT;
    const registry = (deprecated: unknown) => {
      const row = {
        code: 'old_code',
        httpStatus: 400,
        statusSource: 'v2 decision',
        retriable: false,
        details: null,
        since: '2.0',
        source: 's',
        deprecated,
      };
      // Upstream's closed row admits a boolean; ours a record. The reader takes either, so the schema is upstream's shape here.
      const upstream = JSON.parse(schema);
      upstream.$defs.row.properties.deprecated = { type: ['boolean', 'object'] };
      const read = readErrorsRegistry(
        files({
          'spec/v2/errors.json': JSON.stringify({ version: '2.0', vendorCodePattern: '^x\\..+$', rows: [row] }),
          'spec/v2/errors.schema.json': JSON.stringify(upstream),
        }),
      );
      if (read.state !== 'valid') throw new Error(JSON.stringify(read));
      return read.registry.rows[0]?.deprecated;
    };
    expect(registry(true)).toEqual({});
    expect(registry({ since: '2.1', replacedBy: 'new_code' })).toEqual({ since: '2.1', replacedBy: 'new_code' });
    expect(registry(false)).toBeUndefined();
  });
});

describe('what is generated from and checked on the moved shapes', () => {
  it("describes each family record by its entry in the capability record, under the layout's $id", () => {
    // The events fixture declares one live family, `forms`, whose section is in core/forms.md.
    const files = readTree(fixture('events/good'));
    const declaration = JSON.parse(files['spec/v2/declaration.json'] ?? '{}') as Record<string, any>;
    const schema = capabilitiesSchema(corpusFromFiles('/shapes', files), declaration) as {
      $id: string;
      properties: Record<string, { description: string }>;
    };
    expect(schema.$id).toBe('https://openwop.dev/schemas/v2/capabilities.schema.json');
    expect(schema.properties.forms?.description).toMatch(
      /^Family `forms` \(spec\/v2\/core\/forms\.md#instantiation\)\./,
    );
    const elsewhere = {
      ...defaultConfig(),
      layout: {
        ...defaultConfig().layout,
        schemaIds: [['', 'https://specs.example/']] as Array<readonly [string, string]>,
      },
    };
    expect(capabilitiesSchema(corpusFromFiles('/shapes', {}, elsewhere), declaration).$id).toBe(
      'https://specs.example/schemas/v2/capabilities.schema.json',
    );
  });
});
