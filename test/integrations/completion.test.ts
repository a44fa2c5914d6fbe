/**
 * `completion bash|zsh|fish` run in the shells themselves: bash's completion function called as
 * bash calls it, fish's `complete -C` asked what it offers, zsh's script parsed and registered
 * with compinit. A shell that is not installed is skipped, saying so in one line.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORMATS } from '../../core/output/index.js';
import { cli, REPO } from '../helpers.js';

const has = (shell: string): boolean => spawnSync(shell, ['-c', 'exit 0']).status === 0;
const SHELLS = { bash: has('bash'), zsh: has('zsh'), fish: has('fish') };
for (const [shell, present] of Object.entries(SHELLS))
  if (!present) console.log(`skipped: the ${shell} completion test needs ${shell} on PATH`);

const scratch = mkdtempSync(path.join(tmpdir(), 'openwop-completion-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const scripts: Record<string, string> = {};

beforeAll(async () => {
  for (const shell of ['bash', 'zsh', 'fish']) {
    const result = await cli(['completion', shell]);
    expect(result.status, result.stderr).toBe(0);
    scripts[shell] = path.join(scratch, `completion.${shell}`);
    writeFileSync(scripts[shell], result.stdout);
  }
});

/** What bash's completion offers for a command line whose last word is being completed. */
function bashOffers(...words: string[]): string[] {
  const program = `source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _openwop_spec; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const result = spawnSync('bash', ['-c', program, 'bash', scripts.bash as string, 'openwop-spec', ...words], {
    cwd: REPO,
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout.split('\n').filter(Boolean);
}

describe('shell completion', () => {
  it.skipIf(!SHELLS.bash)(
    "bash: verbs, each verb's own options, the formats, rule ids (a family not taken as a glob), files for file arguments",
    () => {
      expect(bashOffers('c')).toEqual(['check', 'completion']);
      expect(bashOffers('check', '--fo')).toEqual(['--format']);
      expect(bashOffers('check', '--format', '')).toEqual([...FORMATS]);
      expect(bashOffers('diff', '--format', 'm')).toEqual(['markdown']);
      expect(bashOffers('check', '--rule', 'links/a')).toEqual(['links/anchor']);
      expect(bashOffers('check', '--rule', 'links/*')).toEqual(['links/*']);
      expect(bashOffers('check', 'spec/v2/cor')).toEqual(
        expect.arrayContaining(['spec/v2/core', 'spec/v2/corrections.json']),
      );
      expect(bashOffers('check', '--max-warnings', '')).toEqual([]);
      expect(bashOffers('completion', '')).toEqual(['bash', 'zsh', 'fish']);
      // Options are the verb's own: generate has --check, check does not.
      expect(bashOffers('generate', '--ch')).toEqual(['--check']);
      expect(bashOffers('check', '--ch')).toEqual([]);
    },
  );

  it.skipIf(!SHELLS.fish)('fish: the same, through complete -C', () => {
    const offers = (line: string): string[] => {
      const result = spawnSync('fish', ['-c', `source ${scripts.fish}; complete -C ${JSON.stringify(line)}`], {
        cwd: REPO,
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
      return result.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.split('\t')[0] as string);
    };
    expect(offers('openwop-spec ch')).toEqual(['check']);
    expect(offers('openwop-spec check --format ').sort()).toEqual([...FORMATS].sort());
    expect(offers('openwop-spec check --fail-s')).toEqual(['--fail-severity']);
    expect(offers('openwop-spec completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
  });

  it.skipIf(!SHELLS.zsh)('zsh: the script parses and registers its completion function with compinit', () => {
    expect(spawnSync('zsh', ['-n', scripts.zsh as string], { encoding: 'utf8' }).status).toBe(0);
    const registered = spawnSync(
      'zsh',
      [
        '-f',
        '-c',
        `autoload -Uz compinit && compinit -u -D && source ${scripts.zsh} && print -r -- $_comps[openwop-spec]`,
      ],
      { encoding: 'utf8', env: { ...process.env, HOME: scratch } },
    );
    expect(registered.stdout.trim(), registered.stderr).toBe('_openwop_spec');
  });

  it('an unknown shell is a usage error', async () => {
    const result = await cli(['completion', 'powershell']);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe('openwop-spec: no completion for "powershell"; use one of bash, zsh, fish\n');
  });
});
