/** Every generator, in the order they run; each owns disjoint outputs. */
import type { Generator } from '../core/define.js';

export const GENERATORS: readonly Generator[] = [];
