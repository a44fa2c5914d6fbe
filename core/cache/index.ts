/** Content-keyed caches on disk: parsed trees and compiled validators, each entry kept under a hash of what it stands for. */
export * from './content-cache.js';
export * from './validator-cache.js';
