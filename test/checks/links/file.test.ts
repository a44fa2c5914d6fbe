import { describe, expect, it } from 'vitest';
import { doc, fixture, run, where } from '../../helpers.js';
import { LINKS } from './helpers.js';

describe('links/file', () => {
  it('fires on a missing target, a definition to nowhere, and a link out of the root', () => {
    const found = run('links/file', LINKS);
    expect(where(found)).toEqual(['spec/v2/core/a.md:3:5', 'spec/v2/core/a.md:3:39', 'spec/v2/core/a.md:14:1']);
    expect(found[1]?.message).toMatch(/climbs out of the corpus root/);
  });

  it('is quiet on existing files, directories, external URLs and same-file fragments', () => {
    expect(run('links/file', fixture('good'))).toEqual([]);
    const files = { 'spec/v2/core/x.md': doc('X', '[dir](../core/) [web](https://example.com/a.md) [mail](mailto:a@b.c) [top](#x) [self](x.md)') };
    expect(run('links/file', files)).toEqual([]);
  });
  it('reads the links written in the strings of JSON and YAML documents, relative to the document', () => {
    const yaml = 'paths:\n  /x:\n    description: See [packs](../../spec/v2/core/packs.md) and [gone](../../spec/v2/core/gone.md).\n';
    const files = { 'spec/v2/core/packs.md': doc('Packs', 'text'), 'api/v2/x.yaml': yaml };
    expect(where(run('links/file', files))).toEqual(['api/v2/x.yaml:3:63']);
    expect(run('links/file', { ...files, 'api/v2/x.yaml': yaml.replace('gone.md', 'packs.md') })).toEqual([]);
  });
});
