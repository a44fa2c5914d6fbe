/**
 * The corpus as the editor sees it: the model read once from disk, with the unsaved text of every
 * open document over it. An edit re-parses the edited file alone and builds a new model around the
 * other files' parses, unchanged; a change on disk to a file that is not open reloads through the
 * parse cache, so only the files whose bytes changed are parsed again.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Config } from '../core/config/index.js';
import { Corpus, loadCorpus, parseFile, type CorpusFile } from '../core/model/index.js';

export class Workspace {
  readonly root: string;
  private model: Corpus;
  /** Root-relative path → the text the editor holds, for open documents that differ from disk or not. */
  private readonly overlays = new Map<string, string>();
  /** Bumped on every change, so that a run can tell whether its result is still the latest. */
  version = 0;

  constructor(
    root: string,
    readonly config: Config,
  ) {
    this.root = path.resolve(root);
    this.model = loadCorpus(this.root, { cache: true, config });
  }

  get corpus(): Corpus {
    return this.model;
  }

  /** The root-relative path of a `file:` URI inside the root, else undefined. */
  pathOf(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    let absolute: string;
    try {
      absolute = fileURLToPath(uri);
    } catch {
      return undefined;
    }
    const relative = path.relative(this.root, absolute);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
    return relative.split(path.sep).join('/');
  }

  uriOf(file: string): string {
    return pathToFileURL(path.join(this.root, file)).href;
  }

  /** Whether the file is part of the corpus the run reads (the config's include and exclude decide). */
  has(file: string): boolean {
    return this.model.files.has(file);
  }

  /** The editor's text of an open document; the model is rebuilt around its new parse. Returns whether the model changed. */
  setText(file: string, text: string): boolean {
    this.overlays.set(file, text);
    return this.replace(file, text);
  }

  /** A document closed: what is on disk counts again. */
  close(file: string): void {
    this.overlays.delete(file);
  }

  /** Files changed, created or deleted on disk: the model read again (unchanged files come from the parse cache), open documents over it. */
  reload(): void {
    const fresh = loadCorpus(this.root, { cache: true, config: this.config });
    this.model = fresh;
    for (const [file, text] of this.overlays) this.replace(file, text);
    this.version++;
  }

  private replace(file: string, text: string): boolean {
    const current = this.model.get(file);
    if (!current) return false;
    if (current.kind !== 'binary' && sameText(current, text)) return false;
    const files = new Map<string, CorpusFile>(this.model.files);
    files.set(file, parseFile(file, Buffer.from(text, 'utf8')));
    const old = this.model;
    this.model = new Corpus(old.root, files, old.cacheDir, old.config, old.irregular, old.irregularKinds);
    this.version++;
    return true;
  }
}

/** The model keeps text with LF line ends and no byte order mark; the editor's may have either. */
function sameText(file: Exclude<CorpusFile, { kind: 'binary' }>, text: string): boolean {
  const normal = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).replace(/\r\n/g, '\n');
  return normal === file.text;
}
