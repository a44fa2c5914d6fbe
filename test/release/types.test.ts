import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/corpus.js';
import { allocateNames, schemaDeclarations } from '../../core/release/types.js';

const schemaFile = (file: string, body: Record<string, unknown>) =>
  JSON.stringify({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://openwop.dev/${file}`,
    ...body,
  });

describe('TypeScript declarations from the corpus schemas', () => {
  it('resolves references across files from the model, including a file whose root is a $ref with siblings', async () => {
    const corpus = corpusFromFiles('/r', {
      'schemas/v2/ids.schema.json': schemaFile('schemas/v2/ids.schema.json', {
        title: 'Ids',
        $defs: { runId: { type: 'string', pattern: '^run_' } },
      }),
      // The shape of subject.schema.json: a root `$ref` beside properties, and levels that reference each other.
      'schemas/v2/subject.schema.json': schemaFile('schemas/v2/subject.schema.json', {
        title: 'Subject',
        type: 'object',
        $ref: '#/$defs/fields',
        properties: { actor: { $ref: '#/$defs/actor1' } },
        unevaluatedProperties: false,
        $defs: {
          fields: { type: 'object', required: ['issuer'], properties: { issuer: { type: 'string' } } },
          actor1: { type: 'object', $ref: '#/$defs/fields', unevaluatedProperties: false },
        },
      }),
      'schemas/v2/run.schema.json': schemaFile('schemas/v2/run.schema.json', {
        title: 'A run',
        type: 'object',
        required: ['runId'],
        properties: {
          runId: { $ref: 'ids.schema.json#/$defs/runId' },
          owner: { $ref: 'subject.schema.json' },
          issuer: { $ref: '../../schemas/v2/subject.schema.json#/$defs/fields/properties/issuer' },
        },
      }),
    });
    const types = await schemaDeclarations(corpus);
    expect(types.problems).toEqual([]);
    expect([...types.files.keys()]).toEqual([
      'types/schemas/v2/ids.schema.d.ts',
      'types/schemas/v2/run.schema.d.ts',
      'types/schemas/v2/subject.schema.d.ts',
      'types/index.d.ts',
    ]);
    const run = types.files.get('types/schemas/v2/run.schema.d.ts') ?? '';
    expect(run).toMatch(/^export interface Run \{$/m);
    expect(run).toMatch(/^ {2}owner\?: Subject;$/m);
    // Closed by unevaluatedProperties over its $ref'd fields: the fields are its own, with no index signature.
    expect(run).toMatch(/^export interface Subject \{\n(?: {2}.*\n)*?\}$/m);
    expect(/^export interface Subject \{\n((?: {2}.*\n)*?)\}$/m.exec(run)?.[1]).toMatch(
      /^ {2}issuer: string;\n {2}actor\?: Actor1;\n$/,
    );
    expect(run).toMatch(/^ {2}runId: `run_\$\{string\}`;$/m);
    expect(types.files.get('types/schemas/v2/subject.schema.d.ts')).toMatch(
      /^export interface Actor1 \{\n {2}issuer: string;\n\}$/m,
    );
    // The root is an intersection; its $defs are still named as the root's.
    expect(types.files.get('types/schemas/v2/subject.schema.d.ts')).toContain("referenced by `Subject`'s JSON-Schema");
    for (const [file, text] of types.files) expect(`${file}: ${text}`).not.toMatch(/\bundefined\b/);
    expect(types.files.get('types/index.d.ts')).toContain(
      "export type { Run } from './schemas/v2/run.schema.js';\nexport * as RunSchema from './schemas/v2/run.schema.js';",
    );
  });

  it('never fetches: a reference outside the corpus is a problem named at its schema', async () => {
    const corpus = corpusFromFiles('/r', {
      'schemas/v2/out.schema.json': schemaFile('schemas/v2/out.schema.json', {
        type: 'object',
        properties: { x: { $ref: 'https://example.com/x.schema.json' } },
      }),
    });
    const types = await schemaDeclarations(corpus);
    expect(types.problems).toEqual([
      { file: 'schemas/v2/out.schema.json', message: expect.stringMatching(/^no TypeScript declarations: /) },
    ]);
  });

  it('produces the same text on every run', async () => {
    const files = {
      'spec/v2/errors.schema.json': schemaFile('spec/v2/errors.schema.json', {
        type: 'object',
        properties: { b: { enum: ['x', 'y'] }, a: { type: 'integer' } },
      }),
    };
    const [one, two] = await Promise.all([
      schemaDeclarations(corpusFromFiles('/a', files)),
      schemaDeclarations(corpusFromFiles('/b', files)),
    ]);
    expect([...(one?.files ?? [])]).toEqual([...(two?.files ?? [])]);
  });

  it('names each schema after its file, taking directories in front only where names would clash', () => {
    const names = allocateNames([
      'schemas/v2/run-event.schema.json',
      'schemas/v2/seams/run-event.schema.json',
      'spec/v2/errors.schema.json',
      'schemas/v2/3d.schema.json',
    ]);
    expect(Object.fromEntries([...names].map(([file, name]) => [file, `${name.rootType} ${name.namespace}`]))).toEqual({
      'schemas/v2/run-event.schema.json': 'V2RunEvent V2RunEventSchema',
      'schemas/v2/seams/run-event.schema.json': 'SeamsRunEvent SeamsRunEventSchema',
      'spec/v2/errors.schema.json': 'Errors ErrorsSchema',
      'schemas/v2/3d.schema.json': 'T3d T3dSchema',
    });
  });
});
