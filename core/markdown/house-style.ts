/** The documents held to the house style (title, status block, "Why this exists", Sources footer): the normative core. */
export const HOUSE_STYLE_DOCUMENT = /^spec\/v2\/core\/[^/]+\.md$/;
