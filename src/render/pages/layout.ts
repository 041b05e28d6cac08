/**
 * The frame of a page for people: where it sits (crumbs), its heading, the same answer as raw
 * JSON and in the JSON viewer one click away, then its sections. Pieces shared by the pages
 * (links, facts, chips, sections) take text and escape it; `Html` marks text already escaped.
 */
import { esc, htmlPage, rawJsonUrl } from "../html.js";

/** HTML, already escaped. */
export type Html = string;

export interface PageFrame {
  /** `{origin}{prefix}/api`. */
  base: string;
  /** The request's URL on the public origin. */
  url: URL;
  /** The document's title (text). */
  title: string;
  /** Where the page sits: label and link (none for the page itself). */
  crumbs: Array<[string, string?]>;
  heading: Html;
  lead?: Html;
  body: Html;
}

/** The JSON viewer's URL of this page (`format=api`). */
function apiViewUrl(url: URL): string {
  const view = new URL(url);
  view.searchParams.set("format", "api");
  return view.toString();
}

export function personPage(frame: PageFrame): string {
  const crumbs = frame.crumbs.map(([label, href]) => (href ? link(href, label) : `<span>${esc(label)}</span>`)).join(" › ");
  const body = `<nav class="crumbs" aria-label="Breadcrumbs">${crumbs}</nav>
<div class="page-head"><h1>${frame.heading}</h1><p class="formats">This answer as <a class="raw" href="${esc(rawJsonUrl(frame.url))}">raw JSON</a> · <a class="api-view" href="${esc(apiViewUrl(frame.url))}">API view</a></p></div>
${frame.lead ? `<p class="lead">${frame.lead}</p>` : ""}
${frame.body}`;
  return htmlPage(frame.title, frame.base, body);
}

export const link = (href: string, text: string, cls?: string): Html => `<a${cls ? ` class="${cls}"` : ""} href="${esc(href)}">${esc(text)}</a>`;

/** A definition list of facts; values are HTML. */
export const facts = (rows: Array<[string, Html | undefined]>): Html =>
  `<dl class="facts">${rows
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`)
    .join("")}</dl>`;

/** Items as a row of chips; items are HTML. */
export const chips = (items: Html[]): Html => `<ul class="chips">${items.map((i) => `<li>${i}</li>`).join("")}</ul>`;

export const section = (id: string, title: string, body: Html): Html => `<section id="${esc(id)}"><h2>${esc(title)}</h2>${body}</section>`;

export const plural = (n: number, word: string, many = `${word}s`): string => `${n.toLocaleString("en")} ${n === 1 ? word : many}`;
