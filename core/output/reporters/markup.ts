/** Text and attribute values for the markup formats (JUnit and Checkstyle XML, html), after the escaping every sink gets. */
import { visible } from '../escape.js';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/**
 * XML 1.0 cannot carry most control characters even as references (nor U+FFFE, U+FFFF), and html
 * should not show them, so they are first shown as their escapes, as every text report shows them
 * (`visible`); then markup characters become entities.
 */
export function markupText(text: string): string {
  return visible(text)
    .replace(/[&<>"']/g, (c) => ENTITIES[c] as string)
    .replace(/[\uFFFE\uFFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** `name="value" …` for the attributes that are defined, in the order given. */
export function markupAttributes(attributes: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(attributes)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${name}="${markupText(String(value))}"`)
    .join(' ');
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
