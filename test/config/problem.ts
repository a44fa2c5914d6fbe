import { expect } from 'vitest';
import { ConfigError, loadConfig } from '../../core/config/index.js';

/** The one-line message of the ConfigError loading the config at `root` (or `explicit`) raises; fails the test when none is raised. */
export function configProblem(root: string, explicit?: string): string {
  try {
    loadConfig(root, explicit);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('no ConfigError');
}
