/** Content-keyed caches on disk: parsed trees and compiled validators, each entry kept under a hash of what it stands for. */
export { ContentCache } from './content-cache.js';
export { AJV_VERSION, PREBUILT_VALIDATORS, ValidatorStore } from './validator-cache.js';
