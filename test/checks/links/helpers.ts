/** Shared by the links gate tests: the one fixture corpus that holds a defect of each links rule. */
import { fixture } from '../../helpers.js';

export const LINKS = fixture('defects/links');
