/** Line and column arithmetic lives with the findings it locates (core/output); the model re-exports it for its files' `lines`. */
export { LineIndex, type Span } from '../output/index.js';
