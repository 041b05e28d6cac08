/**
 * The SOAP 1.1 request envelope, parsed by hand on fast-xml-parser: the operation element of
 * the Body and its parts, matched by local name whatever the prefixes. Hostile XML is refused
 * before the parser sees it: no DTD or entity declarations, bounded size and nesting.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";

export const SOAP_ENV = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12_ENV = "http://www.w3.org/2003/05/soap-envelope";
/** Deepest element nesting accepted: an RPC envelope needs six levels, a list of lists eight. */
const MAX_DEPTH = 32;

/** A SOAP fault to answer with: `soap:Client`, `soap:Server` or `soap:VersionMismatch`. */
export class SoapFault extends Error {
  constructor(
    readonly code: "Client" | "Server" | "VersionMismatch",
    readonly faultString: string,
  ) {
    super(faultString);
  }
}

export const clientFault = (message: string) => new SoapFault("Client", message);
export const malformed = (why: string) => clientFault(`Malformed request: ${why}`);

/** A parsed element: local name, text (for leaves) and child elements in document order. */
export interface XmlElement {
  name: string;
  text: string;
  children: XmlElement[];
}

export interface SoapCall {
  operation: string;
  parts: XmlElement[];
}

type Ordered = Record<string, unknown>;

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: true,
  removeNSPrefix: true,
  // Only the five predefined escapes and character references remain to decode: DOCTYPEs (and
  // so entity declarations) are refused above.
  processEntities: true,
  entityDecoder: {
    decode: decodeXmlText,
    setExternalEntities() {},
    addInputEntities() {},
    reset() {},
    setXmlVersion() {},
  },
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: true,
  maxNestedTags: MAX_DEPTH,
});

const PREDEFINED: Record<string, string> = { amp: "&", apos: "'", gt: ">", lt: "<", quot: '"' };

/**
 * Text with XML's predefined escapes and character references decoded, in one pass (so
 * `&amp;#72;` is `&#72;`): clients write `&#xA;` for a newline. Anything else stays as written.
 */
function decodeXmlText(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(?:(amp|apos|gt|lt|quot)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));/g, (whole, name: string, dec: string, hex: string) => {
    if (name) return PREDEFINED[name];
    const code = dec ? Number(dec) : parseInt(hex, 16);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : whole;
  });
}

/** The operation and parts of a request body. */
export function parseEnvelope(xml: string): SoapCall {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw malformed("document type declarations and entities are not allowed");
  if (nestingDepth(xml) > MAX_DEPTH) throw malformed(`elements nested deeper than ${MAX_DEPTH} levels`);
  const valid = XMLValidator.validate(xml);
  if (valid !== true) throw malformed(`not well-formed XML (line ${valid.err.line}: ${valid.err.msg})`);
  checkEnvelopeNamespace(xml);
  let tree: Ordered[];
  try {
    tree = parser.parse(xml) as Ordered[];
  } catch (error) {
    throw malformed(error instanceof Error ? error.message : "unreadable XML");
  }
  const envelope = toElements(tree).find((e) => e.name === "Envelope");
  if (!envelope) throw malformed("no SOAP Envelope");
  const body = envelope.children.find((e) => e.name === "Body");
  if (!body) throw malformed("the Envelope has no Body");
  const operation = body.children[0];
  if (!operation) throw malformed("the Body holds no operation");
  if (operation.name === "Fault") throw malformed("a Fault is not a request");
  return { operation: operation.name, parts: operation.children };
}

/** The envelope must be SOAP 1.1's: SOAP 1.2 gets a VersionMismatch fault, anything else a Client fault. */
function checkEnvelopeNamespace(xml: string): void {
  const start = /<(?:([A-Za-z_][\w.-]*):)?Envelope\b([^>]*)>/.exec(xml);
  if (!start) throw malformed("no SOAP Envelope");
  const prefix = start[1];
  const attribute = prefix ? `xmlns:${prefix}` : "xmlns";
  const m = new RegExp(`\\s${attribute.replace(".", "\\.")}\\s*=\\s*(["'])(.*?)\\1`).exec(start[2]);
  const namespace = m?.[2];
  if (namespace === SOAP_ENV) return;
  if (namespace === SOAP12_ENV) throw new SoapFault("VersionMismatch", "SOAP 1.1 envelope expected");
  // The prefix may be declared on an outer element only in theory: an Envelope is the root.
  throw malformed(namespace ? `the Envelope's namespace is ${namespace}, not ${SOAP_ENV}` : "the Envelope has no SOAP 1.1 namespace");
}

/** Deepest nesting of start tags, counted without parsing (so a 10,000-deep body costs one pass). */
function nestingDepth(xml: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = xml.indexOf("<"); i >= 0; i = xml.indexOf("<", i + 1)) {
    const next = xml.charCodeAt(i + 1);
    if (next === 47 /* / */) depth--;
    else if (next !== 33 /* ! */ && next !== 63 /* ? */) {
      const end = xml.indexOf(">", i);
      if (end < 0) break;
      if (xml.charCodeAt(end - 1) !== 47) depth++;
      deepest = Math.max(deepest, depth);
      i = end;
    }
  }
  return deepest;
}

function toElements(nodes: Ordered[]): XmlElement[] {
  const out: XmlElement[] = [];
  for (const node of nodes) {
    for (const [key, value] of Object.entries(node)) {
      if (key === ":@" || key === "#text" || key === "#comment") continue;
      const children = Array.isArray(value) ? (value as Ordered[]) : [];
      const text = children
        .map((c) => c["#text"])
        .filter((t) => t !== undefined)
        .join("");
      out.push({ name: key, text: String(text), children: toElements(children) });
    }
  }
  return out;
}

/** A part by name, else the part at its position (reference D.1). */
export function part(call: SoapCall, name: string, position: number): XmlElement | undefined {
  return call.parts.find((p) => p.name === name) ?? call.parts[position];
}

export function stringPart(call: SoapCall, name: string, position: number): string {
  const p = part(call, name, position);
  if (!p) throw malformed(`missing part ${name}`);
  if (p.children.length) throw malformed(`part ${name} must be a string`);
  return p.text;
}

export function intPart(call: SoapCall, name: string, position: number): number {
  const text = stringPart(call, name, position).trim();
  if (!/^[+-]?\d{1,9}$/.test(text)) throw malformed(`part ${name} must be an integer (xsd:int), not '${text.slice(0, 50)}'`);
  return Number(text);
}

export function stringListPart(call: SoapCall, name: string, position: number): string[] {
  const p = part(call, name, position);
  if (!p) throw malformed(`missing part ${name}`);
  // A list wrapped in a list of lists (`xsd:string[][1]`, `soapenc:Array[1]`) counts as its strings (reference D.1).
  const items = p.children.flatMap((c) => (c.children.length ? c.children : [c]));
  if (items.some((c) => c.children.length)) throw malformed(`part ${name} must be an array of strings`);
  return items.map((c) => c.text);
}
