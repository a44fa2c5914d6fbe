/** SARIF 2.1.0, for code-scanning dashboards: one run, the rules that ran, one result per finding. */
import type { Reporter } from './types.js';

export const sarif: Reporter = (diagnostics, { rules, toolName, toolVersion }) => {
  const ruleIds = [...new Set([...rules.map((r) => r.id), ...diagnostics.map((d) => d.rule)])].sort();
  const meta = new Map(rules.map((r) => [r.id, r]));
  const index = new Map(ruleIds.map((id, i) => [id, i]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: toolName,
            version: toolVersion,
            informationUri: 'https://github.com/openwop/spec',
            rules: ruleIds.map((id) => {
              const rule = meta.get(id);
              return {
                id,
                shortDescription: { text: rule?.summary ?? id },
                defaultConfiguration: { level: rule?.severity === 'warning' ? 'warning' : 'error' },
              };
            }),
          },
        },
        originalUriBaseIds: { '%SRCROOT%': { description: { text: 'The corpus root' } } },
        results: diagnostics.map((d) => {
          const region: Record<string, number> = { startLine: d.line, startColumn: d.column };
          if (d.endLine !== undefined) region.endLine = d.endLine;
          if (d.endColumn !== undefined) region.endColumn = d.endColumn;
          return {
            ruleId: d.rule,
            ruleIndex: index.get(d.rule) ?? 0,
            level: d.severity,
            message: { text: d.hint ? `${d.message} (hint: ${d.hint})` : d.message },
            locations: [
              {
                physicalLocation: {
                  artifactLocation: { uri: encodeURI(d.file), uriBaseId: '%SRCROOT%' },
                  region,
                },
              },
            ],
          };
        }),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
};
