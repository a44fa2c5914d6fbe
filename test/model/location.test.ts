/**
 * Location: one value for where something is written (a pointer into a JSON or YAML document, an
 * offset range of a text, a file as a whole), resolved to a line and column only when a finding
 * that carries it is collected.
 */
import { describe, expect, it } from 'vitest';
import { corpusFromFiles, Location } from '../../core/model/index.js';
import { collector, type Diagnostic } from '../../core/output/index.js';
import { defineCheck } from '../../core/run/index.js';
import { runChecks, UNDECLARED_FIX } from '../../core/run/engine.js';

const YAML = [
  'info:',
  '  title: Example',
  'paths:',
  '  /users:',
  '    get:',
  "      description: 'see `a.b` here'",
  '',
].join('\n');
const corpus = corpusFromFiles('/nonexistent-root', { 'api/doc.yaml': YAML, 'notes.md': '# Title\n\nSome text.\n' });
const doc = corpus.data('api/doc.yaml');
const notes = corpus.markdown('notes.md');
if (!doc || !notes) throw new Error('the fixture does not parse');

describe('a pointer location', () => {
  it('points at a member by its key, or by its value when asked', () => {
    const title = Location.pointer(doc, ['info', 'title']);
    expect(title.resolve()).toEqual({ line: 2, column: 3, endLine: 2, endColumn: 8 });
    expect(title.value().resolve()).toEqual({ line: 2, column: 10, endLine: 2, endColumn: 17 });
  });

  it('goes down by child keys and says its JSON pointer, escaping `/` and `~`', () => {
    const get = Location.pointer(doc, ['paths']).child('/users', 'get');
    expect(get.path).toEqual(['paths', '/users', 'get']);
    expect(get.pointer).toBe('/paths/~1users/get');
    expect(get.resolve()).toMatchObject({ line: 5, column: 5 });
    expect(get.file).toBe('api/doc.yaml');
  });

  it('falls back to the nearest ancestor that is written when the path is not there', () => {
    expect(Location.pointer(doc, ['info', 'version']).resolve()).toEqual({
      line: 1,
      column: 1,
      endLine: 1,
      endColumn: 5,
    });
  });

  it('places characters inside a string value on those characters', () => {
    const value = 'see `a.b` here';
    const start = value.indexOf('a.b');
    const chars = Location.pointer(doc, ['paths', '/users', 'get', 'description']).chars(start, start + 3);
    // `      description: '` is 20 characters: the value's first character is column 21.
    expect(chars.resolve()).toEqual({ line: 6, column: 21 + start, endLine: 6, endColumn: 24 + start });
  });
});

describe('a text location and a file location', () => {
  it("resolve an offset range through the file's line index", () => {
    const start = notes.text.indexOf('text');
    expect(Location.text(notes, start, start + 4).resolve()).toEqual({ line: 3, column: 6, endLine: 3, endColumn: 10 });
    expect(Location.text(notes, start).resolve()).toEqual({ line: 3, column: 6 });
  });

  it('a file as a whole is its first line', () => {
    expect(Location.file('spec/missing.md')).toMatchObject({ file: 'spec/missing.md', line: 1, column: 1 });
  });
});

describe('a finding that carries a location', () => {
  it('is collected at the resolved place; the older spread form gives the same diagnostic', () => {
    const located: Diagnostic[] = [];
    const spread: Diagnostic[] = [];
    const at = Location.pointer(doc, ['info', 'title'], 'value');
    collector('demo/rule', 'error', located)({ location: at, messageId: 'x', message: 'm' });
    collector(
      'demo/rule',
      'error',
      spread,
    )({ ...Location.pointer(doc, ['info', 'title'], 'value'), messageId: 'x', message: 'm' });
    expect(located).toEqual([
      {
        rule: 'demo/rule',
        severity: 'error',
        file: 'api/doc.yaml',
        line: 2,
        column: 10,
        endLine: 2,
        endColumn: 17,
        messageId: 'x',
        message: 'm',
      },
    ]);
    expect(spread).toEqual(located);
  });

  it('is not worked out until it is collected: a model may hold one for every item', () => {
    let parsed = 0;
    const source = {
      path: doc.path,
      text: doc.text,
      lines: doc.lines,
      get doc() {
        parsed++;
        return doc.doc;
      },
    };
    const location = Location.pointer(source, ['info']);
    expect(parsed).toBe(0);
    location.resolve();
    location.resolve();
    expect(parsed).toBe(1);
  });
});

describe('a gate that reports a location', () => {
  it('gets its message worded from its messages, at the resolved place; an undeclared fix is reported there too', () => {
    const gate = defineCheck({
      id: 'demo/located',
      summary: 'reports the title',
      severity: 'warning',
      messages: { title: 'the title is {{title}}' },
      run(model, report) {
        const file = model.data('api/doc.yaml');
        if (!file) return;
        report({
          location: Location.pointer(file, ['info', 'title'], 'value'),
          messageId: 'title',
          data: { title: 'Example' },
          hint: 'none',
          fix: { start: 0, end: 0, text: '' },
        });
      },
    });
    // Findings come sorted: at one place, by message.
    const found = runChecks(corpus, [gate]);
    expect(
      found.map(({ rule, file, line, column, messageId, message }) => ({
        rule,
        file,
        line,
        column,
        messageId,
        message,
      })),
    ).toEqual([
      {
        rule: 'demo/located',
        file: 'api/doc.yaml',
        line: 2,
        column: 10,
        messageId: UNDECLARED_FIX,
        message: expect.stringContaining('does not declare `fixable`'),
      },
      {
        rule: 'demo/located',
        file: 'api/doc.yaml',
        line: 2,
        column: 10,
        messageId: 'title',
        message: 'the title is Example',
      },
    ]);
  });
});
