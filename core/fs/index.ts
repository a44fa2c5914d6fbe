/** The root as a boundary: every path the tool reads, writes or deletes for a corpus, judged against the root. */
export {
  LinkRefused,
  OutsideRootError,
  ReadRefused,
  directoryStaysInside,
  existsInside,
  expandGlob,
  givenTarget,
  globEscape,
  guardedPath,
  isBelow,
  isInsideBySpelling,
  openRegularFile,
  pathKind,
  readInside,
  readRegularFile,
} from './guarded.js';
