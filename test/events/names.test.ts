import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/corpus.js';
import { isPastTense, protocolTypeProblems, vendorTypePattern } from '../../core/registries/event-names.js';
import { spliceJson, SpliceError } from '../../core/model/json-splice.js';

const GRAMMAR = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
const problemKinds = (type: string) => protocolTypeProblems(type, GRAMMAR).map((problem) => problem.kind);

describe('the naming rule of protocol types', () => {
  it('reads a transition in any word of the second segment, regular or irregular', () => {
    for (const segment of [
      'started',
      'resume-started',
      'restored-from-snapshot',
      'handed-off',
      'rolled-back',
      'lost',
      'written',
      'manual-intervention-required',
    ]) {
      expect(isPastTense(segment), segment).toBe(true);
    }
    for (const segment of [
      'chunk',
      'speech-start',
      'loopback-limit',
      'transcript',
      'capability-insufficient',
      'barge-in',
      'seed',
      'event',
    ]) {
      expect(isPastTense(segment), segment).toBe(false);
    }
  });

  it('names each way a type breaks the rule', () => {
    expect(problemKinds('run.started')).toEqual([]);
    expect(problemKinds('ai.message.chunk')).toEqual(['segments']);
    expect(problemKinds('core.node-started')).toEqual(['pack-namespace']);
    expect(problemKinds('openwop.run-started')).toEqual(['reserved-prefix']);
    expect(problemKinds('run.Started')).toEqual(['grammar']);
    expect(problemKinds('voice.transcript')).toEqual(['tense']);
    expect(problemKinds('run')).toEqual(['segments']);
    expect(protocolTypeProblems('ai.message.chunk', GRAMMAR)[0]?.hint).toContain('ai.message-chunk');
  });

  it('restricts the vendor branch to the registered orgs, one or two segments after the org', () => {
    const pattern = new RegExp(vendorTypePattern(['example', 'acme']));
    expect(vendorTypePattern(['example', 'acme'])).toBe(vendorTypePattern(['acme', 'example']));
    for (const ok of ['acme.widget-built', 'example.thing.done']) expect(pattern.test(ok), ok).toBe(true);
    for (const bad of ['foo.widget-built', 'acme', 'acme.a.b.c', 'acmex.widget', 'acme.Widget'])
      expect(pattern.test(bad), bad).toBe(false);
  });
});

describe('spliceJson', () => {
  const text =
    '{\n  "a": 1,\n  "nested": { "keep": [1, 2], "counts": { "old": true } },\n  "rows": [\n    { "x": 1 }\n  ]\n}\n';
  const data = () => {
    const file = corpusFromFiles('/x', { 'spec/v2/r.json': text }).data('spec/v2/r.json');
    if (!file) throw new Error('fixture does not parse');
    return file;
  };

  it('rewrites only the member, indented from its key, and keeps the rest byte for byte', () => {
    const out = spliceJson(data(), [{ path: ['nested', 'counts'], value: { rows: 2 } }]);
    expect(out).toBe(
      '{\n  "a": 1,\n  "nested": { "keep": [1, 2], "counts": {\n    "rows": 2\n  } },\n  "rows": [\n    { "x": 1 }\n  ]\n}\n',
    );
    expect(JSON.parse(out).nested).toEqual({ keep: [1, 2], counts: { rows: 2 } });
  });

  it('appends a missing member to its parent, and two updates at once', () => {
    const out = spliceJson(data(), [
      { path: ['index'], value: { 'b.c': 'd' } },
      { path: ['a'], value: 2 },
    ]);
    expect(JSON.parse(out)).toEqual({
      a: 2,
      nested: { keep: [1, 2], counts: { old: true } },
      rows: [{ x: 1 }],
      index: { 'b.c': 'd' },
    });
    expect(out.endsWith('  ],\n  "index": {\n    "b.c": "d"\n  }\n}\n')).toBe(true);
  });

  it('fills an empty object and refuses a path with no object to hold it', () => {
    const empty = corpusFromFiles('/x', { 'e.json': '{}\n' }).data('e.json');
    if (!empty) throw new Error('fixture does not parse');
    expect(JSON.parse(spliceJson(empty, [{ path: ['k'], value: [1] }]))).toEqual({ k: [1] });
    expect(() => spliceJson(data(), [{ path: ['missing', 'k'], value: 1 }])).toThrow(SpliceError);
  });
});
