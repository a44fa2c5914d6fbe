/**
 * dataStringEdit: a change to the value of one JSON or YAML string, written as the smallest edit
 * of the file's text in the scalar's own form; every other byte of the file stays as it was.
 */
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { corpusFromFiles, dataStringEdit, Location, type PathSegment } from '../../core/model/index.js';

const OLD = '§"Old heading"';
const NEW = '§"Renamed heading"';

/** The file with the edit applied, or undefined when none is offered; checks that nothing else changed. */
function rename(name: string, text: string, path: PathSegment[], from = OLD, to = NEW): string | undefined {
  const file = corpusFromFiles('/nonexistent-root', { [name]: text }).data(name);
  if (!file) throw new Error(`${name} does not parse`);
  const value = path.reduce<unknown>(
    (node, segment) => (node as Record<string | number, unknown>)[segment],
    file.value,
  ) as string;
  const start = value.indexOf(from);
  if (start === -1) throw new Error(`no ${from} in ${JSON.stringify(value)}`);
  const edit = dataStringEdit(file, path, start, start + from.length, to);
  if (!edit) return undefined;
  const after = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  // The value at the path is the renamed one, and the document is otherwise the same.
  const expected = structuredClone(file.value) as Record<string, unknown>;
  let parent: Record<string | number, unknown> = expected;
  for (const segment of path.slice(0, -1)) parent = parent[segment] as Record<string | number, unknown>;
  parent[path[path.length - 1] as string] = value.slice(0, start) + to + value.slice(start + from.length);
  expect(name.endsWith('.json') ? JSON.parse(after) : parse(after)).toEqual(expected);
  return after;
}

describe('a renamed citation inside a string value', () => {
  it('a JSON string: only the differing word changes, escapes before and after kept', () => {
    const text =
      '{\n  "description": "See \\u00a7 and a.md §\\"Old heading\\" \\u2014 \\"quoted\\"\\n",\n  "other": "§\\"Old heading\\""\n}\n';
    expect(rename('s.json', text, ['description'])).toBe(text.replace('§\\"Old heading', '§\\"Renamed heading'));
  });

  it('a JSON string whose citation is written with escapes: the escaped sign and quotes stay escaped', () => {
    const text = '{"$comment": "a.md \\u00a7\\u0022Old heading\\u0022 says so"}\n';
    expect(rename('s.json', text, ['$comment'])).toBe(
      '{"$comment": "a.md \\u00a7\\u0022Renamed heading\\u0022 says so"}\n',
    );
  });

  it('a new heading with a quote or a backslash is escaped as JSON escapes it', () => {
    const text = '{"d": "a.md §\\"Old heading\\"."}\n';
    expect(rename('s.json', text, ['d'], OLD, '§"The \\ "odd" one"')).toBe(
      '{"d": "a.md §\\"The \\\\ \\"odd\\" one\\"."}\n',
    );
  });

  it('a YAML plain scalar, one line and folded over lines', () => {
    const one = 'info:\n  description: See a.md §"Old heading" for this.   # a comment\nnext: 1\n';
    expect(rename('s.yaml', one, ['info', 'description'])).toBe(one.replace('Old', 'Renamed'));
    const folded = 'info:\n  description: See a.md §"Old\n    heading" for this.\nnext: 1\n';
    // Only the word changes; the line break inside the citation stays where it is.
    expect(rename('s.yaml', folded, ['info', 'description'])).toBe(folded.replace('Old', 'Renamed'));
    // A change that spans the fold rewrites it, on one line.
    expect(rename('s.yaml', folded, ['info', 'description'], '§"Old heading"', '§"New title"')).toBe(
      'info:\n  description: See a.md §"New title" for this.\nnext: 1\n',
    );
  });

  it("a single-quoted scalar doubles the new heading's quote", () => {
    const text = "d: 'It''s in a.md §\"Old heading\"'\n";
    expect(rename('s.yaml', text, ['d'], OLD, '§"Renamed heading"')).toBe(text.replace('Old', 'Renamed'));
    expect(rename('s.yaml', text, ['d'], OLD, '§"Host\'s heading"')).toBe("d: 'It''s in a.md §\"Host''s heading\"'\n");
  });

  it('a double-quoted scalar over lines, with an escaped line break', () => {
    const text = 'd: "First line, then a.md\\\n  \\ §\\"Old heading\\" and\n  more."\n';
    expect(rename('s.yaml', text, ['d'])).toBe(text.replace('Old', 'Renamed'));
  });

  it('literal and folded block scalars, with their chomping', () => {
    const literal = 'a:\n  description: |-\n    First line.\n    See a.md §"Old heading".\n\n    Last.\nb: 2\n';
    expect(rename('s.yaml', literal, ['a', 'description'])).toBe(literal.replace('Old', 'Renamed'));
    const folded =
      'a:\n  description: >\n    First line,\n    then a.md §"Old heading" and\n      kept indented\n\n    last.\n\nb: 2\n';
    expect(rename('s.yaml', folded, ['a', 'description'])).toBe(folded.replace('Old', 'Renamed'));
    const kept = 'a: >+\n  a.md §"Old heading"\n\n\nb: 2\n';
    expect(rename('s.yaml', kept, ['a'])).toBe(kept.replace('Old', 'Renamed'));
  });

  it('a sequence item and a flow sequence', () => {
    const block = 'notes:\n  - one\n  - see a.md §"Old heading"\n';
    expect(rename('s.yaml', block, ['notes', 1])).toBe(block.replace('Old', 'Renamed'));
    const flow = 'notes: [one, see a.md §"Old heading"]\n';
    expect(rename('s.yaml', flow, ['notes', 1])).toBe(flow.replace('Old', 'Renamed'));
  });

  it('no edit where the form cannot hold the new text as it is', () => {
    // `: ` would end a plain scalar's key, ` #` start a comment, `,` end a plain item of a flow sequence.
    expect(rename('s.yaml', 'd: see a.md §"Old heading" here\n', ['d'], OLD, '§"Retries: the rules"')).toBeUndefined();
    expect(rename('s.yaml', 'd: see a.md §"Old heading" here\n', ['d'], OLD, '§"Old #2"')).toBeUndefined();
    expect(rename('s.yaml', 'd: [see a.md §"Old heading"]\n', ['d', 0], OLD, '§"Retries, timeouts"')).toBeUndefined();
    // A block scalar with an explicit indentation is not rewritten.
    expect(rename('s.yaml', 'd: |2\n    see a.md §"Old heading"\n', ['d'])).toBeUndefined();
    // The same words in a block list item stay a plain scalar: `,` is fine outside a flow collection.
    expect(rename('s.yaml', 'd:\n  - see a.md §"Old heading"\n', ['d', 0], OLD, '§"Retries, timeouts"')).toBe(
      'd:\n  - see a.md §"Retries, timeouts"\n',
    );
  });
});

describe('where characters of a string over several lines are written', () => {
  const place = (text: string, path: PathSegment[], needle: string) => {
    const file = corpusFromFiles('/nonexistent-root', { 's.yaml': text }).data('s.yaml');
    if (!file) throw new Error('does not parse');
    const value = path.reduce<unknown>(
      (node, segment) => (node as Record<string | number, unknown>)[segment],
      file.value,
    ) as string;
    const start = value.indexOf(needle);
    return Location.pointer(file, path)
      .chars(start, start + needle.length)
      .resolve();
  };

  it('in plain, quoted and block scalars: the line and column of the characters themselves', () => {
    expect(place('d: first line\n  and a.md §"Old" here\n', ['d'], '§"Old"')).toEqual({
      line: 2,
      column: 12,
      endLine: 2,
      endColumn: 18,
    });
    expect(place("d: 'first line\n  it''s §\"Old\"'\n", ['d'], '§"Old"')).toMatchObject({ line: 2, column: 9 });
    expect(place('d: >-\n  first line\n  then §"Old"\n', ['d'], '§"Old"')).toMatchObject({ line: 3, column: 8 });
    expect(place('d: "first\\\n  \\ then §\\"Old\\""\n', ['d'], '§"Old"')).toMatchObject({
      line: 2,
      column: 10,
      endLine: 2,
      endColumn: 18,
    });
  });
});
