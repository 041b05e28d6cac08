/**
 * HTML pages of the service: the browsable view of a JSON answer, and the shell and security
 * headers the documentation page shares. Pages are self-contained (one inline stylesheet,
 * allowed by its hash; no scripts, fonts or remote resources), and every piece of text,
 * data and URL is escaped.
 */
import { PAGE_STYLE } from "./pages/style.js";
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from "./pagination.js";
import { PICTURE_STYLE } from "./pictures/style.js";

export const HTML_TYPE = "text/html; charset=utf-8";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
/** Text or attribute value, escaped for HTML. */
export const esc = (s: string): string => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

export const STYLE = `
:root{color-scheme:light dark;--fg:#1d232b;--bg:#fff;--muted:#5c6670;--line:#d8dde3;--panel:#f5f7f9;--link:#0b5cad;--key:#7a3e9d;--str:#17733a;--num:#a0530b;--lit:#b0185a}
@media (prefers-color-scheme:dark){:root{--fg:#e3e7ec;--bg:#15191e;--muted:#9aa5b1;--line:#333b45;--panel:#1d232a;--link:#7db7f5;--key:#d2a0f0;--str:#8fd6a0;--num:#f0b070;--lit:#f08ab0}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--link)}
header.bar{display:flex;gap:1.5em;align-items:baseline;padding:.6em 1.2em;border-bottom:1px solid var(--line);background:var(--panel)}
header.bar .brand{font-weight:600;text-decoration:none;color:var(--fg)}
header.bar nav{display:flex;gap:1em}
main{padding:1em 1.2em 3em;max-width:80em}
h1{font-size:1.35em;margin:.2em 0 .6em;word-break:break-all}
h2{font-size:1.15em;margin:1.6em 0 .4em;border-bottom:1px solid var(--line);padding-bottom:.2em}
h3{font-size:1em;margin:1.2em 0 .3em;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all}
pre,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
pre{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:.8em 1em;overflow-x:auto;margin:.6em 0}
pre.headers{white-space:pre-wrap;word-break:break-all}
.request{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;word-break:break-all}
.method{display:inline-block;font-weight:700;padding:0 .4em;border-radius:4px;background:var(--line)}
.status-ok{color:var(--str)}.status-error{color:var(--lit)}
.k{color:var(--key)}.s{color:var(--str)}.n{color:var(--num)}.l{color:var(--lit)}
.pager{display:flex;gap:1em;align-items:baseline;flex-wrap:wrap;margin:.6em 0}
.pager .off{color:var(--muted)}
.notice{border-left:4px solid var(--num);background:var(--panel);padding:.6em 1em}
.muted{color:var(--muted)}
table{border-collapse:collapse;margin:.4em 0;width:100%}
th,td{text-align:left;vertical-align:top;border-bottom:1px solid var(--line);padding:.3em .6em}
th{font-weight:600}
td code{word-break:break-all}
.toc{columns:22em;column-gap:2em}
.toc ul{padding-left:1.2em}
.toc li{break-inside:avoid;overflow-wrap:anywhere}
.docs{overflow-wrap:anywhere}
.tag{font-size:.8em;color:var(--muted)}
${PAGE_STYLE}${PICTURE_STYLE}`;

let styleHash: Promise<string> | undefined;
/** `'sha256-…'` of the stylesheet, for the CSP (computed once per isolate). */
function styleSource(): Promise<string> {
  styleHash ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(STYLE)).then((digest) => {
    let bin = "";
    for (const byte of new Uint8Array(digest)) bin += String.fromCharCode(byte);
    return `'sha256-${btoa(bin)}'`;
  });
  return styleHash;
}

/**
 * Headers of every HTML page: nothing may load or run but the inline stylesheet, no framing,
 * no sniffing, no referrer.
 */
export async function htmlHeaders(): Promise<Record<string, string>> {
  return {
    "Content-Type": HTML_TYPE,
    "Content-Security-Policy": `default-src 'none'; style-src ${await styleSource()}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
  };
}

/** A whole page around `body` (HTML, already escaped). */
export function htmlPage(title: string, base: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${esc(title)}</title><style>${STYLE}</style></head>
<body><header class="bar"><a class="brand" href="${esc(browsableHref(`${base}/`, base))}">orth API</a>
<nav><a href="${esc(`${base}/genome/`)}">Genomes</a><a href="${esc(`${base}/taxonomy/`)}">Species tree</a><a href="${esc(`${base}/docs/`)}">Documentation</a><a href="${esc(browsableHref(`${base}/schema/`, base))}">OpenAPI document</a></nav></header>
<main>${body}</main></body></html>`;
}

/**
 * The href a URL gets in a page: this server's API URLs stay in browsable mode (`format=api`
 * appended when they carry no `format`); only http(s) URLs become links at all.
 */
export function browsableHref(url: string, base: string): string {
  if (!url.startsWith(`${base}/`)) return url;
  if (/[?&]format=/.test(url)) return url;
  return `${url}${url.includes("?") ? "&" : "?"}format=api`;
}

const isLink = (s: string): boolean => /^https?:\/\/[^\s"<>]+$/.test(s);

/** Pretty-printed JSON as HTML, two-space indents, every URL string a link. */
export function jsonHtml(value: unknown, base: string, indent = ""): string {
  if (value === null || typeof value === "boolean") return `<span class="l">${String(value)}</span>`;
  if (typeof value === "number") return `<span class="n">${esc(JSON.stringify(value))}</span>`;
  if (typeof value === "string") {
    const text = esc(JSON.stringify(value));
    return isLink(value) ? `<a class="s" href="${esc(browsableHref(value, base))}">${text}</a>` : `<span class="s">${text}</span>`;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => inner + jsonHtml(v, base, inner)).join(",\n")}\n${indent}]`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return "{}";
    const lines = entries.map(([k, v]) => `${inner}<span class="k">${esc(JSON.stringify(k))}</span>: ${jsonHtml(v, base, inner)}`);
    return `{\n${lines.join(",\n")}\n${indent}}`;
  }
  return esc(String(value));
}

/** What the browsable page shows as the body. */
export type ShownBody =
  | { kind: "json"; value: unknown }
  | { kind: "text"; text: string; note: string }
  | { kind: "too-large"; bytes: number; cap: number };

export interface BrowsableView {
  method: string;
  /** The request's URL on the public origin. */
  url: URL;
  /** `{origin}{prefix}/api`, for links. */
  base: string;
  status: number;
  statusText: string;
  /** Headers of the JSON answer, as an API client would get them. */
  headers: Headers;
  body: ShownBody;
}

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  301: "Moved Permanently",
  400: "Bad Request",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  410: "Gone",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  503: "Service Unavailable",
};
export const statusText = (status: number): string => STATUS_TEXT[status] ?? "";

/** `rel` → URL of a `Link` header. */
export function parseLinkHeader(header: string | null): Map<string, string> {
  const rels = new Map<string, string>();
  for (const m of (header ?? "").matchAll(/<([^>]*)>\s*;\s*rel="?([a-z]+)"?/gi)) rels.set(m[2].toLowerCase(), m[1]);
  return rels;
}

/**
 * First/prev/next/last controls and "page N of M", from `Link`, `X-Total-Count` and the request's
 * paging; `hrefOf` makes a page's URL a link (the JSON viewer's stay in it, `format=api`).
 */
export function pager(view: Pick<BrowsableView, "headers" | "url" | "base">, hrefOf: (url: string, base: string) => string = browsableHref): string {
  const totalHeader = view.headers.get("X-Total-Count");
  if (totalHeader === null || !/^[0-9]+$/.test(totalHeader)) return "";
  const total = Number(totalHeader);
  const params = view.url.searchParams;
  const page = /^[1-9][0-9]*$/.test(params.get("page") ?? "") ? Number(params.get("page")) : 1;
  const perPageRaw = params.get("per_page") ?? "";
  const perPage = /^[1-9][0-9]*$/.test(perPageRaw) ? Math.min(Number(perPageRaw), MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  const last = Math.max(1, Math.ceil(total / perPage));
  const rels = parseLinkHeader(view.headers.get("Link"));
  const control = (rel: string, label: string) => {
    const url = rels.get(rel);
    return url && isLink(url)
      ? `<a rel="${rel}" href="${esc(hrefOf(url, view.base))}">${label}</a>`
      : `<span class="off">${label}</span>`;
  };
  const items = `${total} item${total === 1 ? "" : "s"}`;
  return `<nav class="pager" aria-label="Pages">${control("first", "« first")}${control("prev", "‹ prev")}
<span class="position">page ${page} of ${last} · ${items}</span>${control("next", "next ›")}${control("last", "last »")}</nav>`;
}

/** The headers panel: status line, then the headers an API client gets, URLs in `Link` as links. */
function headersPanel(view: BrowsableView): string {
  const lines = [`<b class="${view.status < 400 ? "status-ok" : "status-error"}">HTTP ${view.status} ${esc(view.statusText)}</b>`];
  const names = [...view.headers.keys()].sort();
  for (const name of names) {
    const value = view.headers.get(name) ?? "";
    const shown =
      name === "link"
        ? value
            .split(/(<[^>]*>)/)
            .map((part) => {
              const url = /^<(.*)>$/.exec(part)?.[1];
              return url && isLink(url) ? `&lt;<a href="${esc(browsableHref(url, view.base))}">${esc(url)}</a>&gt;` : esc(part);
            })
            .join("")
        : esc(value);
    lines.push(`${esc(canonicalName(name))}: ${shown}`);
  }
  return `<pre class="headers" id="response-headers">${lines.join("\n")}</pre>`;
}

/** `x-total-count` → `X-Total-Count` (Headers lower-cases names). */
const canonicalName = (name: string): string => name.replace(/(^|-)([a-z])/g, (_, dash: string, ch: string) => dash + ch.toUpperCase());

/** The URL that returns the raw JSON to a browser (`format=json`). */
export function rawJsonUrl(url: URL): string {
  const raw = new URL(url);
  raw.searchParams.set("format", "json");
  return raw.toString();
}

function bodyPanel(view: BrowsableView): string {
  const { body } = view;
  switch (body.kind) {
    case "json":
      return `<pre class="json" id="response-body">${jsonHtml(body.value, view.base)}</pre>`;
    case "text":
      return `<p class="notice">${esc(body.note)}</p><pre class="json" id="response-body">${esc(body.text)}</pre>`;
    case "too-large":
      return `<p class="notice" id="response-body">The response holds ${body.bytes.toLocaleString("en")} bytes or more of JSON, more than the ${body.cap.toLocaleString("en")} this page shows. <a href="${esc(rawJsonUrl(view.url))}">Open the raw JSON</a>${view.headers.has("X-Total-Count") ? ", or ask for smaller pages with <code>per_page</code>" : ""}.</p>`;
  }
}

/** The browsable page of one JSON answer. */
export function browsablePage(view: BrowsableView): string {
  const url = view.url.toString();
  const controls = pager(view);
  const body = `<h1>${esc(view.url.pathname)}</h1>
<p class="request"><span class="method">${esc(view.method)}</span> <a href="${esc(browsableHref(url, view.base))}">${esc(url)}</a> · <a class="raw" href="${esc(rawJsonUrl(view.url))}">raw JSON</a></p>
${controls}
<section aria-label="Response">${headersPanel(view)}${bodyPanel(view)}</section>
${controls}`;
  return htmlPage(`${view.method} ${view.url.pathname} – ${view.status} ${view.statusText}`, view.base, body);
}
