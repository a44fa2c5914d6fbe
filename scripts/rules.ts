/** `openwop-spec rules`: every rule, its severity and what it asks of the corpus. */
import type { Command } from 'commander';
import { ALL_RULES } from './check.js';

export function register(program: Command): void {
  program
    .command('rules')
    .description('list every rule with its severity and summary')
    .option('--root <dir>', 'corpus root (accepted for symmetry; rules do not depend on it)', '.')
    .option('--format <format>', 'text | json', 'text')
    .action((options: { format: string }) => {
      if (options.format === 'json') {
        process.stdout.write(`${JSON.stringify({ rules: ALL_RULES }, null, 2)}\n`);
        return;
      }
      const width = Math.max(...ALL_RULES.map((rule) => rule.id.length));
      for (const rule of ALL_RULES) process.stdout.write(`${rule.id.padEnd(width)}  ${rule.severity.padEnd(7)}  ${rule.summary}\n`);
    });
}
