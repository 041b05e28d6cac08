/** Text or attribute value escaped for XML; characters XML 1.0 cannot carry at all are dropped. */
export function xmlEscape(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, "")
    .replace(/[&<>"'\t\n\r]/g, (ch) => XML_ENTITIES[ch]);
}

/** Markup characters, and the white space an attribute value would otherwise lose to normalisation. */
const XML_ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
  "\t": "&#9;",
  "\n": "&#10;",
  "\r": "&#13;",
};

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
