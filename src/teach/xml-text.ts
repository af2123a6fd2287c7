/**
 * Scenario text made safe for an SVG: control characters (which XML 1.0 forbids, and which
 * could only confuse a viewer) and unpaired surrogates are removed, and the five XML special
 * characters are escaped, so the result can go into element text and into attribute values.
 */
const FORBIDDEN = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function xmlText(text: string): string {
  // Tabs and line breaks are allowed by XML but would be collapsed by the renderer anyway.
  return text.replace(FORBIDDEN, '').replace(/[\t\n\r]/g, ' ').replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
