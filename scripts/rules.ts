/** `openwop-spec rules`: every rule, its severity under the config, its options and what it asks of the corpus. */
import type { Command } from 'commander';
import { ruleSettings } from '../core/config/index.js';
import { ALL_RULES } from './check.js';
import { openConfig, usingConfig } from './common.js';

interface RulesOptions {
  root: string;
  config?: string;
  format: string;
}

export function register(program: Command): void {
  program
    .command('rules')
    .description('list every rule with its severity (as the config sets it), its options and its summary')
    .option('--root <dir>', 'corpus root (where the config is looked for)', '.')
    .option('--config <file>', 'config file (default: openwop-spec.config.json at the root, when there is one)')
    .option('--format <format>', 'text | json', 'text')
    .action((options: RulesOptions) => {
      const settings = usingConfig(() => ruleSettings(openConfig(options.root, options.config), ALL_RULES));
      const rules = ALL_RULES.map((rule) => {
        const setting = settings.get(rule.id);
        const effective = setting && !setting.enabled ? 'off' : (setting?.severity ?? rule.severity);
        const described = 'options' in rule && rule.options ? rule.options : {};
        return { ...rule, effective, options: Object.fromEntries(Object.entries(described).map(([name, spec]) => [name, { ...spec, value: setting?.options[name] ?? spec.default }])) };
      });
      if (options.format === 'json') {
        process.stdout.write(`${JSON.stringify({ rules }, null, 2)}\n`);
        return;
      }
      const width = Math.max(...rules.map((rule) => rule.id.length));
      for (const rule of rules) {
        process.stdout.write(`${rule.id.padEnd(width)}  ${rule.effective.padEnd(7)}  ${rule.summary}\n`);
        for (const [name, spec] of Object.entries(rule.options)) {
          process.stdout.write(`${''.padEnd(width)}    option ${name} = ${JSON.stringify(spec.value)}: ${spec.description}\n`);
        }
      }
    });
}
