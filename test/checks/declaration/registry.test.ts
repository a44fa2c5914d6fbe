import { describe, expect, it } from 'vitest';
import { run, where } from '../../helpers.js';
import { at, DECLARATION, EVENTS_MD, eventsCorpus, eventsFiles, FORMS_MD } from '../../events/helpers.js';

const RULE = 'declaration/registry';
const base = eventsFiles();
const declaration = base[DECLARATION] ?? '';
const events = base[EVENTS_MD] ?? '';
const forms = base[FORMS_MD] ?? '';

/** The declaration with its JSON edited, re-serialized so that positions are computed on the result. */
function edited(change: (value: Record<string, any>) => void): string {
  const value = JSON.parse(declaration) as Record<string, any>;
  change(value);
  return `${JSON.stringify(value, null, 2)}\n`;
}

describe('declaration/registry', () => {
  it('is quiet on a consistent declaration and prose', () => {
    expect(run(RULE, eventsCorpus())).toEqual([]);
  });

  it('fires on a vendor event type of an unregistered org, in an event column and in an event example', () => {
    const text = events.replace('| `acme.widget-built` |', '| `acne.widget-built` |').replace('"type": "acme.widget-built"', '"type": "globex.widget-built"');
    const found = run(RULE, eventsCorpus({ [EVENTS_MD]: text }));
    expect(where(found)).toEqual([at(EVENTS_MD, text, '`acne.widget-built`', 1), at(EVENTS_MD, text, '"globex.widget-built"', 1)]);
    expect(found[0]?.message).toBe('vendor event type `acne.widget-built` names the org `acne`, which is not registered in the extensions of spec/v2/declaration.json');
    expect(found[0]?.hint).toBe('did you mean `acme`?');
  });

  it('fires on ai.message.chunk where a stream mode says what it emits, and on a type under a reserved org', () => {
    const text = events
      .replace('| Type | Recorded when |', '| Emits | Recorded when |')
      .replace('| `acme.widget-built` |', '| `ai.message.chunk` (`outputChunk` payload) |')
      .replace('| `state.snapshot` |', '| `core.node-started` |');
    const found = run(RULE, eventsCorpus({ [EVENTS_MD]: text }));
    expect(where(found)).toEqual([at(EVENTS_MD, text, '`ai.message.chunk`', 1), at(EVENTS_MD, text, '`core.node-started`', 1)]);
    expect(found[0]?.message).toMatch(/names the org `ai`, which is not registered/);
    expect(found[1]?.message).toMatch(/is under `core\.`, which is reserved and never a vendor org/);
  });

  it('takes ai.message.chunk for what the AsyncAPI document declares it: a message (an SSE frame), not a vendor type', () => {
    const text = events.replace('| Type | Recorded when |', '| Emits | Recorded when |').replace('| `acme.widget-built` |', '| `ai.message.chunk` (`outputChunk` payload) |');
    const asyncapi = 'asyncapi: 3.0.0\ninfo: { title: t, version: "2.0" }\ncomponents:\n  messages:\n    AiMessageChunk:\n      name: ai.message.chunk\n';
    expect(run(RULE, eventsCorpus({ [EVENTS_MD]: text, 'api/v2/asyncapi.yaml': asyncapi }))).toEqual([]);
    const other = asyncapi.replace('name: ai.message.chunk', 'name: ai.other-frame');
    expect(where(run(RULE, eventsCorpus({ [EVENTS_MD]: text, 'api/v2/asyncapi.yaml': other })))).toEqual([at(EVENTS_MD, text, '`ai.message.chunk`', 1)]);
  });

  it('leaves a field path in an event column alone, and judges an envelope kind by its org', () => {
    const field = events.replace('| `run.started` | the run starts', '| `run.started` with `error.code` | the run starts');
    expect(run(RULE, eventsCorpus({ [EVENTS_MD]: field }))).toEqual([]);
    const envelope = `${events.replace('*Sources: RFC 0171.*\n', '')}\n\`\`\`json\n{ "correlationId": "c-1", "kind": "initech.summary", "meta": { "source": "model" } }\n\`\`\`\n\n*Sources: RFC 0171.*\n`;
    const found = run(RULE, eventsCorpus({ [EVENTS_MD]: envelope }));
    expect(where(found)).toEqual([at(EVENTS_MD, envelope, '"initech.summary"', 1)]);
    expect(found[0]?.message).toMatch(/^envelope kind `initech\.summary` names the org `initech`/);
  });

  it('fires on a registered org that is reserved, or that is a protocol event domain', () => {
    const text = edited((value) => {
      value.extensions.local = { name: 'someone', registered: '2026-10-01' };
      value.extensions.lease = { name: 'Lease Co.', registered: '2026-10-01' };
    });
    const found = run(RULE, eventsCorpus({ [DECLARATION]: text }));
    expect(where(found)).toEqual([at(DECLARATION, text, '"local": {', 0), at(DECLARATION, text, '"lease": {', 0)]);
    expect(found[0]?.message).toMatch(/`local` is registered under extensions but listed in reservedOrgs/);
    expect(found[1]?.message).toMatch(/`lease` is also a protocol event domain/);
  });

  it('requires `example`, held by the protocol', () => {
    const missing = edited((value) => delete value.extensions.example);
    expect(run(RULE, eventsCorpus({ [DECLARATION]: missing })).map((d) => d.message)).toEqual([expect.stringMatching(/has no `example`/)]);
    const given = edited((value) => (value.extensions.example.reserved = false));
    const found = run(RULE, eventsCorpus({ [DECLARATION]: given }));
    expect(where(found)).toEqual([at(DECLARATION, given, '"reserved": false', 12)]);
    expect(found[0]?.hint).toBe('set "reserved": true');
  });

  it('fires on a family section that names no heading, or no document', () => {
    const anchor = edited((value) => (value.families[0].section = 'core/forms.md#instantiaton'));
    const found = run(RULE, eventsCorpus({ [DECLARATION]: anchor }));
    expect(where(found)).toEqual([at(DECLARATION, anchor, '"core/forms.md#instantiaton"', 0)]);
    expect(found[0]?.hint).toBe('did you mean #instantiation?');
    const document = edited((value) => (value.families[0].section = 'core/form.md#instantiation'));
    expect(run(RULE, eventsCorpus({ [DECLARATION]: document })).map((d) => d.message)).toEqual([
      expect.stringMatching(/Normative home names `forms`, but its section .* is core\/form\.md#instantiation, in another document/),
      expect.stringMatching(/names spec\/v2\/core\/form\.md, which is not a document of the corpus/),
    ]);
  });

  it('fires where a Normative home names a family whose section is in another document, and at a family its home does not name', () => {
    const elsewhere = edited((value) => (value.families[0].section = 'core/overview.md#profiles'));
    const found = run(RULE, eventsCorpus({ [DECLARATION]: elsewhere }));
    // The metadata key `profiles` points at the same heading first; the family's section is the second.
    expect(where(found)).toEqual([at(FORMS_MD, forms, '`forms`', 1), at(DECLARATION, elsewhere, '"core/overview.md#profiles"', 0, 2)]);
    expect(found[0]?.message).toMatch(/Normative home names `forms`, but its section in spec\/v2\/declaration\.json is core\/overview\.md#profiles/);
    expect(found[1]?.message).toMatch(/whose Normative home line does not name it/);
  });

  it('fires on a Normative home that names a retired family, and leaves unknown names to docs/structure', () => {
    const text = forms.replace('> **Normative home:** `forms`.', '> **Normative home:** `forms`, `testSeams`, `nosuch`.');
    const found = run(RULE, eventsCorpus({ [FORMS_MD]: text }));
    expect(where(found)).toEqual([at(FORMS_MD, text, '`testSeams`', 1)]);
    expect(found[0]?.message).toBe('Normative home names `testSeams`, a retired family');
  });

  it('fires on profiles and aliases that name what is not declared', () => {
    const text = edited((value) => {
      value.profiles[1].predicate.families = ['forms', 'testSeams', 'frms'];
      value.profiles[1].predicate.metadata = ['profils'];
      value.profiles[1].predicate.profiles = ['openwop-discovery-core', 'openwop-nothing'];
      value.aliases['forms.templates'].family = 'form';
    });
    const found = run(RULE, eventsCorpus({ [DECLARATION]: text }));
    expect(where(found)).toEqual([
      at(DECLARATION, text, '"openwop-nothing"', 0),
      at(DECLARATION, text, '"testSeams"', 0, 2),
      at(DECLARATION, text, '"frms"', 0),
      at(DECLARATION, text, '"profils"', 0),
      at(DECLARATION, text, '"family": "form"', 10),
    ]);
    expect(found.map((d) => d.hint)).toEqual(['correct the name, or declare it', 'a retired family binds nothing: take it out of the predicate', 'did you mean `forms`?', 'did you mean `profiles`?', 'did you mean `forms`?']);
    expect(found[1]?.message).toMatch(/requires `testSeams`, a retired family/);
  });

  it('reports a declaration that does not match its schema, and still checks what it can read', () => {
    const text = edited((value) => (value.extensions.acme.reserved = 'no'));
    const mentions = events.replace('| `acme.widget-built` |', '| `nobody.widget-built` |');
    const found = run(RULE, eventsCorpus({ [DECLARATION]: text, [EVENTS_MD]: mentions }));
    expect(where(found)).toEqual([at(EVENTS_MD, mentions, '`nobody.widget-built`', 1), at(DECLARATION, text, '"reserved": "no"', 0)]);
    expect(found[0]?.message).toMatch(/names the org `nobody`, which is not registered/);
    expect(found[1]?.message).toMatch(/\/extensions\/acme\/reserved: must be boolean/);
  });

  it('reports one violation repeated on many rows once, at its first row, with the number of rows', () => {
    const text = edited((value) => {
      const live = value.families.find((family: { anchor: string }) => family.anchor !== 'deleted');
      value.families.push({ ...live, key: 'secondFamily' });
      for (const family of value.families) if (family.anchor !== 'deleted') family.extra = true;
    });
    const found = run(RULE, eventsCorpus({ [DECLARATION]: text })).filter((d) => d.message.startsWith('does not match'));
    const rows = (JSON.parse(text) as { families: Array<{ anchor: string }> }).families.filter((family) => family.anchor !== 'deleted').length;
    expect(rows).toBeGreaterThan(1);
    expect(where(found)).toEqual([at(DECLARATION, text, '"extra"', 0)]);
    expect(found[0]?.message).toBe(`does not match spec/v2/declaration.schema.json: /families/*: property "extra" is not allowed (at ${rows} places, the first here)`);
  });

  describe('upstream\'s shapes', () => {
    const CAPABILITIES = 'spec/v2/core/capabilities.md';
    const capabilities = '# Capabilities\n\n> **Status: Stable.**\n\n## Why this exists\n\nThe record.\n\n### § forms\n\nWitness `witnessable-gated`.\n';
    const withSection = (section: string) => edited((value) => (value.families[0].section = section));

    it('reads a section `core/capabilities.md#<key>` as the `### § <key>` heading: the family\'s entry, not its normative home', () => {
      expect(run(RULE, eventsCorpus({ [DECLARATION]: withSection('core/capabilities.md#forms'), [CAPABILITIES]: capabilities }))).toEqual([]);
      const text = withSection('core/capabilities.md#formz');
      const found = run(RULE, eventsCorpus({ [DECLARATION]: text, [CAPABILITIES]: capabilities }));
      expect(where(found)).toEqual([at(DECLARATION, text, '"core/capabilities.md#formz"', 0)]);
      expect(found[0]?.message).toBe('section core/capabilities.md#formz of `forms` names no heading of spec/v2/core/capabilities.md');
    });

    it('reads a section `ext/<key>/` as the extension\'s directory, which needs a README.md', () => {
      const text = withSection('ext/forms/');
      expect(run(RULE, eventsCorpus({ [DECLARATION]: text, 'spec/v2/ext/forms/README.md': '# `forms` extension\n' }))).toEqual([]);
      const found = run(RULE, eventsCorpus({ [DECLARATION]: text }));
      expect(where(found)).toEqual([at(DECLARATION, text, '"ext/forms/"', 0)]);
      expect(found[0]?.message).toBe('section ext/forms/ of `forms` names spec/v2/ext/forms/README.md, which is not a document of the corpus');
    });

    it('leaves a metadata key without a section alone (never "undefined")', () => {
      const text = edited((value) => delete value.metadata[0].section);
      const found = run(RULE, eventsCorpus({ [DECLARATION]: text }));
      // A key without a section is no finding at all, so none can quote an "undefined" section.
      expect(found).toEqual([]);
    });

    it('takes `"reserved": true` on `example` as the protocol holding it, and its absence as a vendor\'s org', () => {
      expect(JSON.parse(declaration).extensions.example.reserved).toBe(true);
      const neither = edited((value) => delete value.extensions.example.reserved);
      const found = run(RULE, eventsCorpus({ [DECLARATION]: neither }));
      expect(where(found)).toEqual([at(DECLARATION, neither, '"example": {', 0)]);
      expect(found.map((d) => [d.message, d.hint])).toEqual([['`example` is held by the protocol and is never assignable to a vendor', 'set "reserved": true']]);
    });

    it('holds an org to name and registered, and no longer admits owner or holder', () => {
      const old = edited((value) => {
        delete value.extensions.acme.name;
        value.extensions.acme.owner = 'Acme Workflow Systems, Inc.';
        value.extensions.acme.holder = 'vendor';
      });
      const found = run(RULE, eventsCorpus({ [DECLARATION]: old })).map((d) => d.message);
      expect(found).toEqual([
        expect.stringMatching(/\/extensions\/acme: required property "name" is missing/),
        expect.stringMatching(/\/extensions\/acme: property "owner" is not allowed/),
        expect.stringMatching(/\/extensions\/acme: property "holder" is not allowed/),
      ]);
    });
  });
});

describe('declaration/registry: normative-home completeness', () => {
  const withHome = (key: string, homes: string[]) =>
    edited((value) => {
      const family = (value.families as Array<Record<string, unknown>>).find((f) => f.key === key);
      if (family) family.normativeText = homes;
    });
  const key = 'forms';
  const home = FORMS_MD;
  const stated = `${forms}\nA host that advertises \`forms\` MUST render every field of a template.\n`;

  it('is quiet on a home that names the family and states its requirements; v1 homes are not judged', () => {
    expect(run(RULE, eventsCorpus({ [DECLARATION]: withHome(key, [home, 'spec/v1/capabilities.md']), [FORMS_MD]: stated }))).toEqual([]);
  });

  it('fires at the normativeText entry whose home is missing, does not name the family, or states nothing of it', () => {
    const text = withHome(key, [home, 'spec/v2/core/nowhere.md']);
    const found = run(RULE, eventsCorpus({ [DECLARATION]: text, [FORMS_MD]: stated }));
    expect(found.map((d) => `${where([d])[0]} ${d.message}`)).toEqual([`${at(DECLARATION, text, '"spec/v2/core/nowhere.md"', 0)} normativeText of \`${key}\` names spec/v2/core/nowhere.md, which is not a document of the corpus`]);

    const bare = `# Bare\n\n> **Status: Stable.**\n\n## Why this exists\n\nThe ${key} family exists.\n`;
    const other = withHome(key, [home, 'spec/v2/core/bare.md']);
    const messages = run(RULE, eventsCorpus({ [DECLARATION]: other, [FORMS_MD]: stated, 'spec/v2/core/bare.md': bare })).map((d) => `${where([d])[0]} ${d.message}`);
    // The obligation is the family's, met by any of its homes (upstream's predicate): only the claim is missing here.
    expect(messages).toEqual([`${at(DECLARATION, other, '"spec/v2/core/bare.md"', 0)} normativeText of \`${key}\` names spec/v2/core/bare.md, whose Normative home line does not name \`${key}\``]);
  });

  it('fires once, at the first home, when no home of the family states its obligation; a home it cannot read (v1, absent) may, so then it says nothing', () => {
    const claims = (name: string) => `# ${name}\n\n> **Status: Stable.**\n> **Normative home:** \`${key}\`.\n\n## Why this exists\n\nThe ${key} family is described here.\n`;
    const both = withHome(key, ['spec/v2/core/a.md', 'spec/v2/core/b.md']);
    const homeFindings = (files: Record<string, string>) => run(RULE, eventsCorpus(files)).filter((d) => d.message.startsWith('normativeText'));
    const found = homeFindings({ [DECLARATION]: both, 'spec/v2/core/a.md': claims('A'), 'spec/v2/core/b.md': claims('B') });
    expect(found.map((d) => `${where([d])[0]} ${d.message}`)).toEqual([
      `${at(DECLARATION, both, '"spec/v2/core/a.md"', 0)} normativeText of \`${key}\` names spec/v2/core/a.md and spec/v2/core/b.md, but no paragraph of any of them names \`${key}\` with a MUST, SHOULD or MAY`,
    ]);
    const stated = claims('B').replace('is described here.', 'MUST be described here.');
    expect(homeFindings({ [DECLARATION]: both, 'spec/v2/core/a.md': claims('A'), 'spec/v2/core/b.md': stated })).toEqual([]);
    const withV1 = withHome(key, ['spec/v2/core/a.md', 'spec/v1/capabilities.md']);
    expect(homeFindings({ [DECLARATION]: withV1, 'spec/v2/core/a.md': claims('A') })).toEqual([]);
  });

  it('reads a lead-in paragraph and the list it introduces as one statement', () => {
    const lead = `# Lead\n\n> **Status: Stable.**\n> **Normative home:** \`${key}\`.\n\n## Why this exists\n\nWhen a host advertises \`${key}\`, it:\n\n- MUST keep it.\n`;
    const text = withHome(key, ['spec/v2/core/lead.md']);
    const found = run(RULE, eventsCorpus({ [DECLARATION]: text, 'spec/v2/core/lead.md': lead }));
    expect(found.filter((d) => d.message.startsWith('normativeText'))).toEqual([]);
  });
});

describe('declaration/registry: counts of the declaration in prose', () => {
  it('compares a heading that counts metadata keys or families, and "N core families", with the declaration; a section number is no count', () => {
    const value = JSON.parse(eventsFiles()[DECLARATION] ?? '{}') as { families?: Array<{ anchor?: string }>; metadata?: unknown[] };
    const core = (value.families ?? []).filter((family) => family.anchor === 'core').length;
    const text = (n: number) => `# Capabilities\n\n> **Status: Stable.**\n\n## 5. Core families (${n})\n\nThe declaration has ${n} core families.\n`;
    const found = run(RULE, eventsCorpus({ 'spec/v2/core/counts.md': text(core + 2) })).filter((d) => d.file === 'spec/v2/core/counts.md');
    expect(found.map((d) => `${d.line} ${d.message}`)).toEqual([
      `5 "Core families (${core + 2})" gives the size of the core families of spec/v2/declaration.json as ${core + 2}; it has ${core}`,
      `7 "${core + 2} core families" gives the size of the core families of spec/v2/declaration.json as ${core + 2}; it has ${core}`,
    ]);
    expect(run(RULE, eventsCorpus({ 'spec/v2/core/counts.md': text(core) })).filter((d) => d.file === 'spec/v2/core/counts.md')).toEqual([]);
  });

  it('holds a heading that counts to what it heads: an enumeration of one more key is a finding, the same number is not', () => {
    const value = JSON.parse(eventsFiles()[DECLARATION] ?? '{}') as { metadata?: unknown[] };
    const size = value.metadata?.length ?? 0;
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `- \`key${i}\``).join('\n');
    const text = (listed: number) => `# Capabilities\n\n> **Status: Stable.**\n\n### 3.1 Metadata keys (${size})\n\n${keys(listed)}\n\nEach is declared as metadata.\n`;
    const found = (listed: number) => run(RULE, eventsCorpus({ 'spec/v2/core/counts.md': text(listed) })).filter((d) => d.file === 'spec/v2/core/counts.md').map((d) => d.message);
    expect(size).toBeGreaterThan(0);
    expect(found(size + 1)).toEqual([`"Metadata keys (${size})" heads ${size + 1} entries; the count and what it counts disagree`]);
    expect(found(size)).toEqual([]);
  });
});
