/**
 * A deliberately small XML reader for the tests (elements, attributes, text; no DTDs, no
 * namespaces resolved): enough to walk exported orthoXML and phyloXML, independent of the
 * worker's writers.
 */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const unescape = (s: string): string =>
  s.replace(/&(#x[0-9a-f]+|#[0-9]+|amp|lt|gt|quot|apos);/gi, (_, e: string) => {
    if (e[0] === "#") return String.fromCodePoint(e[1].toLowerCase() === "x" ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
    return { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[e.toLowerCase()]!;
  });

/** The document element; throws on mismatched tags. */
export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: "#document", attrs: {}, children: [], text: "" };
  const stack: XmlElement[] = [root];
  const token = /<\?[^>]*\?>|<!--[\s\S]*?-->|<(\/?)([A-Za-z_][\w.:-]*)((?:\s+[\w.:-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)/g;
  for (const m of xml.matchAll(token)) {
    const [, close, name, attrText, selfClose, text] = m;
    const top = stack[stack.length - 1];
    if (text !== undefined) {
      top.text += unescape(text);
      continue;
    }
    if (!name) continue;
    if (close) {
      if (top.name !== name) throw new Error(`</${name}> closes <${top.name}>`);
      stack.pop();
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of attrText.matchAll(/([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs[a[1]] = unescape(a[2] ?? a[3]);
    const element: XmlElement = { name, attrs, children: [], text: "" };
    top.children.push(element);
    if (!selfClose) stack.push(element);
  }
  if (stack.length !== 1) throw new Error(`unclosed <${stack[stack.length - 1].name}>`);
  const elements = root.children;
  if (elements.length !== 1) throw new Error(`${elements.length} document elements`);
  return elements[0];
}

/** Every element below (and including) `e` named `name`, in document order. */
export function findAll(e: XmlElement, name: string, out: XmlElement[] = []): XmlElement[] {
  if (e.name === name) out.push(e);
  for (const c of e.children) findAll(c, name, out);
  return out;
}
