/** The invariants over pairs and triples of the catalogue of edits (edits.test.ts) on a copy of this corpus. */
import { describeRuns, HERE } from './runs.js';

describeRuns(HERE, { pack: true, which: 'combined' });
