/**
 * What every picture shares: escaping, text measured without a browser (an estimate of
 * system-ui widths, enough to lay out labels), and the SVG document around a drawing, inline
 * in a page (styled by the page's stylesheet) or alone (with its own stylesheet, for embedding).
 */
import { esc } from "../html.js";
import { PICTURE_STYLE } from "./style.js";

export { esc };

/**
 * Approximate advance widths in em of sans-serif glyphs (narrow, wide, capitals, digits, the
 * rest), on the wide side (DejaVu Sans, the usual Linux fallback): a label measured so never
 * runs into the next one, and leaves a little room in narrower fonts.
 */
function charEm(ch: string): number {
  if ("iljtf.,:;'|!()[] ".includes(ch)) return 0.34;
  if ("mwMW".includes(ch)) return 0.94;
  if (ch >= "A" && ch <= "Z") return 0.72;
  if (ch >= "0" && ch <= "9") return 0.64;
  return 0.61;
}

/** Estimated width in px of `text` at `size` px. */
export function textWidth(text: string, size: number): number {
  let em = 0;
  for (const ch of text) em += charEm(ch);
  return em * size;
}

/** `text` cut to at most `width` px at `size` px, with an ellipsis when cut. */
export function fitText(text: string, width: number, size: number): string {
  if (textWidth(text, size) <= width) return text;
  let out = "";
  let used = textWidth("…", size);
  for (const ch of text) {
    used += charEm(ch) * size;
    if (used > width) break;
    out += ch;
  }
  return `${out.trimEnd()}…`;
}

/** A number with thousands separators. */
export const count = (n: number): string => n.toLocaleString("en");

/** A coordinate, rounded to a tenth of a pixel. */
export const px = (n: number): string => String(Math.round(n * 10) / 10);

export interface SvgFrame {
  width: number;
  height: number;
  /** Accessible title of the picture. */
  title: string;
  /** Class of the root element, after `pic`. */
  kind: string;
  /** Alone (a document of its own, with its stylesheet) or inline in a page. */
  standalone: boolean;
  /** Extra attributes of the root element (already escaped). */
  attributes?: string;
}

/** The `<svg>` element around a drawing. */
export function svgFrame(frame: SvgFrame, body: string): string {
  const size = `width="${px(frame.width)}" height="${px(frame.height)}" viewBox="0 0 ${px(frame.width)} ${px(frame.height)}"`;
  const head = frame.standalone
    ? `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" ${size} class="pic ${frame.kind}" role="img"${frame.attributes ?? ""}><style>${PICTURE_STYLE}</style><rect class="paper" width="100%" height="100%"/>`
    : `<svg xmlns="http://www.w3.org/2000/svg" ${size} class="pic ${frame.kind}" role="img"${frame.attributes ?? ""}>`;
  return `${head}<title>${esc(frame.title)}</title>${body}</svg>`;
}

export const SVG_TYPE = "image/svg+xml";

let styleHash: Promise<string> | undefined;

/**
 * Headers of an SVG served alone: nothing may load or run in it but its own stylesheet (allowed
 * by its hash), and it is never sniffed as anything else.
 */
export async function svgHeaders(): Promise<Record<string, string>> {
  styleHash ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(PICTURE_STYLE)).then((digest) => {
    let bin = "";
    for (const byte of new Uint8Array(digest)) bin += String.fromCharCode(byte);
    return `'sha256-${btoa(bin)}'`;
  });
  return {
    "Content-Type": SVG_TYPE,
    "Content-Security-Policy": `default-src 'none'; style-src ${await styleHash}; frame-ancestors *`,
    "X-Content-Type-Options": "nosniff",
  };
}
