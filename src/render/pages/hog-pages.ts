/**
 * HOG pages for people: a HOG on a level (its facts, its family drawn on the species tree, its
 * members), a HOG's members as a table, and the HOGs of a level (or the root HOGs) as a table
 * with the pager.
 */
import { esc, pager, rawJsonUrl } from "../html.js";
import { segment, type Links } from "../links.js";
import { chips, facts, link, personPage, plural, section, type Html } from "./layout.js";
import { dataTable, proteinTable, type ProteinLine } from "./tables.js";

export interface HogRecordLine {
  id: string;
  level: string;
  genes: number;
  completeness: number;
  parents: string[];
  children: string[];
  /** Other levels the id stands on, most ancient first. */
  otherLevels: string[];
}

export interface HogPage {
  /** The id the request named (a HOG id, or a protein's). */
  asked: string;
  level: string;
  rootId: string;
  description: string;
  /** The HOGs on the level the page is about (one, or the sub-HOGs of the id there). */
  records: HogRecordLine[];
  /** The family drawn on the species tree (SVG, inline). */
  picture: Html;
  /** The drawing alone, for embedding. */
  pictureUrl: string;
  /** The members of the HOG on the level (the first of them, by entry number), when one HOG stands for the id there. */
  members?: ProteinLine[];
  /** How many members the HOG has: more than `members` when the table is cut. */
  memberCount?: number;
  membersUrl?: string;
  json: Array<[string, string]>;
}

const hogLink = (links: Links, id: string, level?: string) => link(links.api(`/hog/${segment(id)}/`, { level }), id);

export function hogPage(links: Links, url: URL, page: HogPage): string {
  const one = page.records.length === 1 ? page.records[0] : undefined;
  const heading = one ? `${esc(one.id)} <small>at ${esc(page.level)}</small>` : `${esc(page.asked)} <small>at ${esc(page.level)}: ${plural(page.records.length, "HOG")}</small>`;
  const about = one
    ? facts([
        ["Family", `${hogLink(links, page.rootId, "root")}${page.description ? ` · ${esc(page.description)}` : ""}`],
        ["Level", esc(one.level)],
        ["Genes", one.genes.toLocaleString("en")],
        ["Completeness", one.completeness < 0 ? `<span class="muted">unknown</span>` : `${Math.round(one.completeness * 1000) / 10}% of the level's genomes`],
        ["Parent HOGs", one.parents.length ? chips(one.parents.map((id) => hogLink(links, id))) : undefined],
        ["Sub-HOGs", one.children.length ? chips(one.children.map((id) => hogLink(links, id))) : undefined],
        ["Also on", one.otherLevels.length ? chips(one.otherLevels.map((l) => link(links.api(`/hog/${segment(one.id)}/`, { level: l }), l))) : undefined],
      ])
    : facts([
        ["Family", `${hogLink(links, page.rootId, "root")}${page.description ? ` · ${esc(page.description)}` : ""}`],
        ["Level", esc(page.level)],
      ]);

  const figure = `<div class="figure" id="hog-drawing">${page.picture}</div>
<p class="figure-note">Rows are the levels of the family's clade: on each, the family's HOGs there (squares, each a link), the duplications and losses on the branch leading to it, and its genes. Columns are the HOGs at ${esc(page.level)}, with the genes of each species in them (each square a link to the protein). ${link(page.pictureUrl, "This drawing alone (SVG)")}.</p>`;

  const records = one
    ? ""
    : section(
        "hogs",
        `HOGs at ${page.level}`,
        dataTable(
          [
            { head: "HOG", cell: (r: HogRecordLine) => hogLink(links, r.id, page.level) },
            { head: "Genes", num: true, cell: (r) => r.genes.toLocaleString("en") },
            { head: "Completeness", num: true, cell: (r) => (r.completeness < 0 ? "–" : r.completeness.toFixed(2)) },
            { head: "Sub-HOGs", num: true, cell: (r) => String(r.children.length) },
          ],
          page.records,
        ),
      );

  const members = page.members
    ? section(
        "members",
        `Members (${(page.memberCount ?? page.members.length).toLocaleString("en")})`,
        `${cutNotice(page.members.length, page.memberCount, membersJson(page))}${proteinTable(links, page.members)}`,
      )
    : "";

  return personPage({
    base: links.base,
    url,
    title: `${one?.id ?? page.asked} at ${page.level}`,
    crumbs: [["HOGs", links.api("/hog/")], [page.rootId, links.api(`/hog/${segment(page.rootId)}/`, { level: "root" })], [`${one?.id ?? page.asked} at ${page.level}`]],
    heading,
    lead: page.description ? esc(page.description) : undefined,
    body: [about, section("drawing", "The family on the species tree", figure), records, members, jsonLinks(page.json)].join("\n"),
  });
}

export interface HogMembersPage {
  id: string;
  level: string;
  rootId: string;
  /** The first members by entry number (all, unless the HOG is longer than a table shows). */
  members: ProteinLine[];
  memberCount: number;
  hogUrl: string;
}

/** The raw JSON of the HOG's members (its link among the page's JSON links). */
function membersJson(page: HogPage): string | undefined {
  const members = page.json.find(([name]) => name === "members")?.[1];
  return members === undefined ? undefined : rawJsonUrl(new URL(members));
}

/** Above a table cut short: how many of its rows it shows, and where they all are (the JSON). */
function cutNotice(shown: number, total: number | undefined, json: string | undefined): Html {
  if (total === undefined || total <= shown) return "";
  const all = json ? `; ${link(json, "the JSON")} lists them all` : "";
  return `<p class="notice">This table shows the first ${shown.toLocaleString("en")} of the HOG's ${total.toLocaleString("en")} genes, by entry number${all}.</p>`;
}

export function hogMembersPage(links: Links, url: URL, page: HogMembersPage): string {
  return personPage({
    base: links.base,
    url,
    title: `Members of ${page.id} at ${page.level}`,
    crumbs: [["HOGs", links.api("/hog/")], [page.rootId, links.api(`/hog/${segment(page.rootId)}/`, { level: "root" })], [page.id, page.hogUrl], ["members"]],
    heading: `Members of ${esc(page.id)} <small>at ${esc(page.level)}</small>`,
    lead: `${plural(page.memberCount, "gene")} · ${link(page.hogUrl, "the HOG drawn on the species tree")}`,
    body: `${cutNotice(page.members.length, page.memberCount, rawJsonUrl(url))}${proteinTable(links, page.members)}`,
  });
}

export interface HogListLine {
  id: string;
  genes?: number;
  completeness?: number;
  description: string;
  event?: string;
}

export interface HogListPage {
  /** A level's name, or undefined for the root HOGs. */
  level?: string;
  compareWith?: string;
  hogs: HogListLine[];
  headers: Headers;
}

export function hogListPage(links: Links, url: URL, page: HogListPage): string {
  const level = page.level;
  const columns = [
    { head: "HOG", cell: (h: HogListLine) => hogLink(links, h.id, level ?? "root") },
    ...(level ? [{ head: "Genes", num: true, cell: (h: HogListLine) => (h.genes ?? 0).toLocaleString("en") }] : []),
    ...(level ? [{ head: "Completeness", num: true, cell: (h: HogListLine) => (h.completeness === undefined || h.completeness < 0 ? "–" : h.completeness.toFixed(2)) }] : []),
    ...(page.compareWith ? [{ head: `Since ${page.compareWith}`, cell: (h: HogListLine) => esc(h.event ?? "") }] : []),
    { head: "Description", wrap: true, cell: (h: HogListLine) => esc(h.description) || `<span class="muted">–</span>` },
  ];
  const controls = pager({ headers: page.headers, url, base: links.base }, (u) => u);
  const title = level ? `HOGs at ${level}` : "Root HOGs";
  return personPage({
    base: links.base,
    url,
    title,
    crumbs: [["Species tree", links.api("/taxonomy/")], [title]],
    heading: esc(title),
    lead: level
      ? `Every HOG on this level${page.compareWith ? `, and what happened to it since ${esc(page.compareWith)}` : ""}: each a link to its page, with its family drawn on the species tree.`
      : "One per HOG family, in family order. The HOGs of a level: pick the level on the species tree.",
    body: `${controls}${dataTable(columns, page.hogs, "No HOGs.")}${controls}`,
  });
}

export const jsonLinks = (json: Array<[string, string]>): Html =>
  section("json", "As JSON", `<ul class="links">${json.map(([name, href]) => `<li>${link(href, name)}</li>`).join("")}</ul>`);
