/**
 * Where something is written in the corpus, as one value: a file and a place in it, in the terms
 * the file is read in (a JSON pointer into a JSON or YAML document, an offset range of a text),
 * turned into a line and column only when a finding that carries it is collected. A model holds a
 * location for every item it builds and pays for the ones a finding names: a pointer costs the
 * file's positioned parse (once per file), an offset a search of the file's line index.
 *
 * A new kind of place is a subclass here with its own `compute` (and a factory on `Location`).
 */
import type { Locatable, Span } from '../output/index.js';
import type { DataFile, TextualFile } from './corpus.js';
import { dataStringRange } from './data-strings.js';
import { rangeAt, type PathSegment } from './structured.js';

// The fields of the older form, in which a finding spreads its place (`{ ...place, messageId }`):
// own enumerable getters, shared by every location, so that spreading one reads the resolved place.
// They go once every gate hands `report` a `location`.
const SPREAD_FIELDS: PropertyDescriptorMap = {
  line: {
    enumerable: true,
    get(this: Location) {
      return this.resolve().line;
    },
  },
  column: {
    enumerable: true,
    get(this: Location) {
      return this.resolve().column;
    },
  },
  endLine: {
    enumerable: true,
    get(this: Location) {
      return this.resolve().endLine;
    },
  },
  endColumn: {
    enumerable: true,
    get(this: Location) {
      return this.resolve().endColumn;
    },
  },
};

export abstract class Location implements Locatable {
  declare readonly line: number;
  declare readonly column: number;
  declare readonly endLine?: number;
  declare readonly endColumn?: number;
  #resolved: Span | undefined;

  /** `file`: relative to the corpus root, `/` separators. */
  constructor(readonly file: string) {
    Object.defineProperties(this, SPREAD_FIELDS);
  }

  /** The line and column, worked out on the first call and kept. */
  resolve(): Span {
    return (this.#resolved ??= this.compute());
  }

  protected abstract compute(): Span;

  /** The file as a whole (its first line): a finding about a file that is missing, or about all of it. */
  static file(file: string): Location {
    return new FixedLocation(file, { line: 1, column: 1 });
  }

  /** A place a parser has already worked out (a syntax error's line and column, a markdown link's): its span is copied, nothing else of it. */
  static fixed(file: string, span: Span): Location {
    const { line, column, endLine, endColumn } = span;
    return new FixedLocation(file, {
      line,
      column,
      ...(endLine !== undefined ? { endLine } : {}),
      ...(endColumn !== undefined ? { endColumn } : {}),
    });
  }

  /** The characters [start, end) of a text file's text (from `start` alone: a point). */
  static text(file: Pick<TextualFile, 'path' | 'lines'>, start: number, end?: number): Location {
    return new TextLocation(file, start, end);
  }

  /**
   * What the JSON pointer `path` names in a JSON or YAML document: its key when it is a member
   * (where a reader looks), or with `value` its value; the nearest written ancestor when it is not there.
   */
  static pointer(
    file: PointerSource,
    path: readonly PathSegment[] = [],
    prefer: 'key' | 'value' = 'key',
  ): PointerLocation {
    return new PointerLocation(file.path, file, path, prefer);
  }
}

class FixedLocation extends Location {
  readonly #span: Span;
  constructor(file: string, span: Span) {
    super(file);
    this.#span = span;
  }
  protected compute(): Span {
    return this.#span;
  }
}

class TextLocation extends Location {
  readonly #lines: TextualFile['lines'];
  readonly #start: number;
  readonly #end: number | undefined;
  constructor(file: Pick<TextualFile, 'path' | 'lines'>, start: number, end: number | undefined) {
    super(file.path);
    this.#lines = file.lines;
    this.#start = start;
    this.#end = end;
  }
  protected compute(): Span {
    return this.#end === undefined ? this.#lines.position(this.#start) : this.#lines.span(this.#start, this.#end);
  }
}

/** What a pointer location reads: the document's positioned parse (made on first use) and its text. */
export type PointerSource = Pick<DataFile, 'path' | 'doc' | 'lines' | 'text'>;

export class PointerLocation extends Location {
  readonly #source: PointerSource;
  readonly #path: readonly PathSegment[];
  readonly #prefer: 'key' | 'value';

  /** `file` may name the document otherwise than its path in the model (a report about a copy of it). */
  constructor(file: string, source: PointerSource, path: readonly PathSegment[], prefer: 'key' | 'value') {
    super(file);
    this.#source = source;
    this.#path = path;
    this.#prefer = prefer;
  }

  /** The keys and indexes from the document's root. */
  get path(): readonly PathSegment[] {
    return this.#path;
  }

  /** The path as an RFC 6901 JSON pointer (`/paths/~1users/get`). */
  get pointer(): string {
    return this.#path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
  }

  /** The member or item `segments` further down, pointed at by its key as `Location.pointer` does. */
  child(...segments: PathSegment[]): PointerLocation {
    return new PointerLocation(this.file, this.#source, [...this.#path, ...segments], 'key');
  }

  /** The same member, pointed at by its key. */
  key(): PointerLocation {
    return this.#prefer === 'key' ? this : new PointerLocation(this.file, this.#source, this.#path, 'key');
  }

  /** The same member, pointed at by its value. */
  value(): PointerLocation {
    return this.#prefer === 'value' ? this : new PointerLocation(this.file, this.#source, this.#path, 'value');
  }

  /**
   * The characters [start, end) of the string written here: at those characters when the string
   * is written on one line, else where it starts; the file's start when no string is written here.
   */
  chars(start: number, end: number): Location {
    return new StringLocation(this.file, this.#source, this.#path, start, end);
  }

  protected compute(): Span {
    const range = rangeAt(this.#source.doc, this.#path, this.#prefer);
    return range ? this.#source.lines.span(range[0], range[1]) : { line: 1, column: 1 };
  }
}

class StringLocation extends Location {
  readonly #source: PointerSource;
  readonly #path: readonly PathSegment[];
  readonly #start: number;
  readonly #end: number;
  constructor(file: string, source: PointerSource, path: readonly PathSegment[], start: number, end: number) {
    super(file);
    this.#source = source;
    this.#path = path;
    this.#start = start;
    this.#end = end;
  }
  protected compute(): Span {
    const range = dataStringRange(this.#source, this.#path, this.#start, this.#end);
    if (!range) return { line: 1, column: 1 };
    return range.end === undefined
      ? this.#source.lines.position(range.start)
      : this.#source.lines.span(range.start, range.end);
  }
}
