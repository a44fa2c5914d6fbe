/** `openwop-spec rules`: every rule, its severity under the config, whether --fix repairs it, its options and its page; then the old ids of split rules and what they stand for. */
import type { Command } from 'commander';
import { ruleAliases, ruleSettings } from '../core/config/index.js';
import { safeJson, visible } from '../core/output/index.js';
import { renderRulesReference } from '../generators/index.js';
import { catalogFor, ruleHelpUri } from './catalog.js';
import { emit, openConfig, UsageError, usingConfig, configOption, formatOption, rootOption } from './common.js';

interface RulesOptions {
  root: string;
  config?: string;
  format: string;
  output?: string;
}

export function register(program: Command): void {
  program
    .command('rules')
    .description(
      'list every rule with its severity (as the config sets it), whether it is fixable, its options and its documentation',
    )
    .addOption(rootOption())
    .addOption(configOption())
    .addOption(formatOption(['text', 'json', 'markdown'], 'text'))
    .option('--output <file>', 'write the list to this file instead of stdout')
    .action((options: RulesOptions) => {
      if (!['text', 'json', 'markdown'].includes(options.format))
        throw new UsageError(`unknown format "${options.format}"; use text, json or markdown`);
      const { catalog, config } = usingConfig(() => catalogFor(openConfig(options.root, options.config)));
      const settings = usingConfig(() => ruleSettings(config, catalog.rules));
      const rules = catalog.rules.map((rule) => {
        const setting = settings.get(rule.id);
        const effective = setting && !setting.enabled ? 'off' : (setting?.severity ?? rule.severity);
        const described = rule.options ?? {};
        return {
          ...rule,
          effective,
          options: Object.fromEntries(
            Object.entries(described).map(([name, spec]) => [
              name,
              { ...spec, value: setting?.options[name] ?? spec.default },
            ]),
          ),
        };
      });
      // The reference's own sections (docs/rules.md), the house rules among them.
      if (options.format === 'markdown') {
        emit(renderRulesReference(catalog.rules), options.output);
        return;
      }
      // An old id still works in a config, a suppression and --rule: listed so that it is not mistaken for a typo, with what to write instead.
      const aliases = ruleAliases().map((alias) => ({
        ...alias,
        deprecated: `split into ${alias.replacedBy.join(', ')}; setting it sets each of them`,
        helpUri: ruleHelpUri(alias.id),
      }));
      if (options.format === 'json') {
        emit(`${safeJson(JSON.stringify({ rules, aliases }, null, 2))}\n`, options.output);
        return;
      }
      const width = Math.max(...rules.map((rule) => rule.id.length));
      const lines: string[] = [];
      for (const rule of rules) {
        lines.push(
          `${rule.id.padEnd(width)}  ${rule.effective.padEnd(7)}  ${rule.fixable ? 'fixable' : '       '}  ${visible(rule.summary)}`,
        );
        for (const [name, spec] of Object.entries(rule.options))
          lines.push(
            `${''.padEnd(width)}    option ${name} = ${JSON.stringify(spec.value)}: ${visible(spec.description)}`,
          );
        lines.push(
          `${''.padEnd(width)}    ${rule.helpUri ?? `a house rule, defined in ${rule.definedIn ?? 'the config'}`}`,
        );
      }
      for (const alias of aliases)
        lines.push(`${alias.id.padEnd(width)}  ${'alias'.padEnd(7)}           deprecated: ${alias.deprecated}`);
      emit(`${lines.join('\n')}\n`, options.output);
    });
}
