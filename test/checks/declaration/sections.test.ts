import { expect, it } from 'vitest';
import { runRule, testRule } from '../../rule-tester.js';
import { DECLARATION, REGISTRY, editedDeclaration, place, withFiles } from './corpus.js';

const CAPABILITIES = 'spec/v2/core/capabilities.md';
const capabilities =
  '# Capabilities\n\n> **Status: Stable.**\n\n## Why this exists\n\nThe record.\n\n### § forms\n\nWitness `witnessable-gated`.\n';
const withSection = (section: string) => editedDeclaration((value) => (value.families[0].section = section));
const misspelt = withSection('core/forms.md#instantiaton');
const noDocument = withSection('core/form.md#instantiation');
const keyHeading = withSection('core/capabilities.md#formz');
const extension = withSection('ext/forms/');
const metadata = editedDeclaration((value) => (value.metadata[0].section = 'core/forms.md#nowhere'));
const metadataDocument = editedDeclaration((value) => (value.metadata[0].section = 'core/nowhere.md#x'));
const firstMetadataKey = (JSON.parse(metadata) as { metadata: Array<{ key: string }> }).metadata[0]?.key as string;

const MISSPELT = { files: withFiles({ [DECLARATION]: misspelt }) };

testRule('declaration/sections', {
  valid: [
    { name: 'every section leads to a heading', files: REGISTRY },
    {
      name: 'a `core/capabilities.md#<key>` section is the `### § <key>` heading',
      files: withFiles({ [DECLARATION]: withSection('core/capabilities.md#forms'), [CAPABILITIES]: capabilities }),
    },
    {
      name: "an `ext/<key>/` section is the extension's directory, with its README.md",
      files: withFiles({ [DECLARATION]: extension, 'spec/v2/ext/forms/README.md': '# `forms` extension\n' }),
    },
    {
      name: 'a metadata key without a section',
      files: withFiles({ [DECLARATION]: editedDeclaration((value) => delete value.metadata[0].section) }),
    },
  ],
  invalid: [
    {
      name: 'a family section whose anchor is misspelt',
      ...MISSPELT,
      errors: [
        {
          messageId: 'section-no-heading',
          file: DECLARATION,
          ...place(misspelt, '"core/forms.md#instantiaton"'),
          data: { family: 'forms', section: 'core/forms.md#instantiaton', target: 'spec/v2/core/forms.md' },
        },
      ],
    },
    {
      name: 'a family section in a document the corpus does not hold',
      files: withFiles({ [DECLARATION]: noDocument }),
      errors: [
        {
          messageId: 'section-not-in-corpus',
          file: DECLARATION,
          ...place(noDocument, '"core/form.md#instantiation"'),
          data: { family: 'forms', section: 'core/form.md#instantiation', target: 'spec/v2/core/form.md' },
        },
      ],
    },
    {
      name: 'a `§ <key>` section that names no heading',
      files: withFiles({ [DECLARATION]: keyHeading, [CAPABILITIES]: capabilities }),
      errors: [
        {
          messageId: 'section-no-heading',
          file: DECLARATION,
          ...place(keyHeading, '"core/capabilities.md#formz"'),
          data: { family: 'forms', section: 'core/capabilities.md#formz', target: CAPABILITIES },
        },
      ],
    },
    {
      name: 'an extension directory without a README.md',
      files: withFiles({ [DECLARATION]: extension }),
      errors: [
        {
          messageId: 'section-not-in-corpus',
          file: DECLARATION,
          ...place(extension, '"ext/forms/"'),
          data: { family: 'forms', section: 'ext/forms/', target: 'spec/v2/ext/forms/README.md' },
        },
      ],
    },
    {
      name: 'a metadata key whose section names no heading',
      files: withFiles({ [DECLARATION]: metadata }),
      errors: [
        {
          messageId: 'metadata-section',
          file: DECLARATION,
          ...place(metadata, '"core/forms.md#nowhere"'),
          data: { key: firstMetadataKey, section: 'core/forms.md#nowhere', target: 'spec/v2/core/forms.md' },
        },
      ],
    },
    {
      name: 'a metadata key whose section names no document of the corpus',
      files: withFiles({ [DECLARATION]: metadataDocument }),
      errors: [
        {
          messageId: 'metadata-section-not-in-corpus',
          file: DECLARATION,
          ...place(metadataDocument, '"core/nowhere.md#x"'),
          data: { key: firstMetadataKey, section: 'core/nowhere.md#x', target: 'spec/v2/core/nowhere.md' },
        },
      ],
    },
  ],
});

it('declaration/sections names the heading a misspelt anchor meant', () => {
  expect(runRule('declaration/sections', MISSPELT).diagnostics.map((d) => d.hint)).toEqual([
    'did you mean #instantiation?',
  ]);
});
