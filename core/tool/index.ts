/** Where the tool itself is installed: its own package directory, whichever of its files asks (nothing else, so that `--version` loads nothing more). */
export { toolRoot } from './tool-root.js';
