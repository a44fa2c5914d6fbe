/**
 * causeFirst: what follows from a broken file is what the gates do not repeat over the file read
 * as far as its parser gets; where nothing can be read of it, the rules of thumb decide.
 */
import { describe, expect, it } from 'vitest';
import { corpusFromFiles, type Corpus } from '../../core/model/index.js';
import type { Diagnostic } from '../../core/output/index.js';
import { causeFirst } from '../../core/run/cascade.js';
import { GATE_FAILED } from '../../core/run/engine.js';

const errorAt = (rule: string, file: string, line: number, message: string): Diagnostic => ({
  rule,
  severity: 'error',
  file,
  line,
  column: 1,
  message,
});

const files = {
  // A typo on one line; the rest of the document reads.
  'api/v2/openapi.yaml':
    'openapi: 3.1.0\ninfo:\n  title: T\n  license:\n    name: A: [\npaths:\n  /runs/{tenantId}: {}\n',
  // NUL bytes: not text, nothing can be read of it.
  'schemas/v2/ids.schema.json': Buffer.from([0x7b, 0x00, 0x7d]),
  // One byte that is not UTF-8, read as U+FFFD for the second reading.
  'spec/v2/event-codemap.json': Buffer.from('{"rows": [{"v2": "run.st\xffarted"}]}\n', 'latin1'),
  'spec/v2/id-field-bindings.json': '{"tenantId": "tenantId"}\n',
};

describe('causeFirst', () => {
  it('drops what the gates do not say again over the second reading, keeps what they do, and falls back to the rules of thumb', () => {
    const corpus = corpusFromFiles('/nonexistent-root', files);
    expect(corpus.data('api/v2/openapi.yaml')).toBeUndefined();
    const parse = [
      errorAt('corpus/parse', 'api/v2/openapi.yaml', 5, 'Nested mappings are not allowed'),
      errorAt('corpus/parse', 'schemas/v2/ids.schema.json', 1, 'binary content in a .json file'),
      errorAt('corpus/parse', 'spec/v2/event-codemap.json', 1, 'not valid UTF-8 text'),
    ];
    const stale = errorAt(
      'ids/bindings',
      'spec/v2/id-field-bindings.json',
      1,
      '`tenantId` names no id field of any v2 schema or API document',
    );
    const real = errorAt(
      'ids/bindings',
      'spec/v2/id-field-bindings.json',
      2,
      '`otherId` names no id field of any v2 schema or API document',
    );
    const namesUnread = {
      ...errorAt('docs/examples', 'spec/v2/core/runs.md', 9, "can't resolve reference ids.schema.json#/$defs/runId"),
      messageId: 'unresolved',
      data: { target: 'ids.schema.json#/$defs/runId' },
    };
    const thrower = errorAt('api/valid', 'api/seams-v2.yaml', 3, 'an operation is malformed');
    const inBroken = errorAt('api/valid', 'api/v2/openapi.yaml', 1, 'not an OpenAPI document');
    let seen: { corpus: Corpus; rules: ReadonlySet<string> } | undefined;
    const result = causeFirst(corpus, [stale, real, namesUnread, thrower, inBroken, ...parse], {
      rerun: (second, rules) => {
        seen = { corpus: second, rules };
        return [
          real,
          { ...namesUnread },
          // A finding only the second reading has is not reported.
          errorAt('ids/bindings', 'spec/v2/id-field-bindings.json', 3, 'new'),
          {
            rule: 'api/valid',
            severity: 'error',
            file: '.',
            line: 1,
            column: 1,
            messageId: GATE_FAILED,
            data: { reason: 'boom' },
            message: 'gate api/valid failed: boom',
          },
        ];
      },
    });
    // The second reading: the YAML typo's document is there, as far as it goes; the unreadable file is not.
    expect(seen?.corpus.data('api/v2/openapi.yaml')?.value).toMatchObject({ paths: { '/runs/{tenantId}': {} } });
    expect(seen?.corpus.data('schemas/v2/ids.schema.json')).toBeUndefined();
    expect(seen?.corpus.data('spec/v2/event-codemap.json')?.value).toEqual({ rows: [{ v2: 'run.st\ufffdarted' }] });
    expect([...(seen?.rules ?? [])].sort()).toEqual(['api/valid', 'docs/examples', 'ids/bindings']);
    expect(result).toEqual([...parse, real, thrower]);
  });

  it('without a second reading, only the rules of thumb: a finding that names the broken file goes, one that names nothing stays', () => {
    const corpus = corpusFromFiles('/nonexistent-root', files);
    const parse = errorAt('corpus/parse', 'api/v2/openapi.yaml', 5, 'Nested mappings are not allowed');
    const ref = {
      ...errorAt('api/valid', 'api/seams-v2.yaml', 3, 'the $ref v2/openapi.yaml#/components/x cannot be resolved'),
      messageId: 'unresolved-ref',
      data: { ref: 'v2/openapi.yaml#/components/x' },
    };
    const other = errorAt('ids/bindings', 'spec/v2/id-field-bindings.json', 1, '`tenantId` names no id field');
    // Decided from data, not wording: a message that happens to name the file is no reference to it.
    const worded = errorAt('ids/bindings', 'spec/v2/id-field-bindings.json', 2, 'see api/v2/openapi.yaml for `runId`');
    expect(causeFirst(corpus, [ref, other, worded, parse])).toEqual([parse, other, worded]);
  });

  it('a corpus with no parse failure is left as it is, and nothing is run again', () => {
    const corpus = corpusFromFiles('/nonexistent-root', { 'spec/v2/id-field-bindings.json': '{}\n' });
    const d = errorAt('ids/bindings', 'spec/v2/id-field-bindings.json', 1, 'x');
    expect(
      causeFirst(corpus, [d], {
        rerun: () => {
          throw new Error('not to be called');
        },
      }),
    ).toEqual([d]);
  });
});
