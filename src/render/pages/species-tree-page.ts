/**
 * The species tree page: the taxonomy below a level drawn as a tree (levels link to their HOGs,
 * genomes to their pages, folded clades to their own tree), and the same tree as Newick text,
 * wrapped, to copy.
 */
import { esc } from "../html.js";
import { segment, type Links } from "../links.js";
import { link, personPage, plural, section, type Html } from "./layout.js";

export interface SpeciesTreePage {
  rootName: string;
  /** Whether the page is the whole tree (no root asked). */
  whole: boolean;
  genomes: number;
  picture: Html;
  newick: string;
  /** The levels above the root, most ancient first. */
  above: string[];
}

export function speciesTreePage(links: Links, url: URL, page: SpeciesTreePage): string {
  const title = page.whole ? "Species tree" : `Species tree of ${page.rootName}`;
  const crumbs: Array<[string, string?]> = [["Species tree", page.whole ? undefined : links.api("/taxonomy/")]];
  for (const name of page.above.slice(1)) crumbs.push([name, links.api(`/taxonomy/${segment(name)}/`)]);
  if (!page.whole) crumbs.push([page.rootName]);
  const body = [
    `<div class="figure" id="species-tree">${page.picture}</div>`,
    `<p class="figure-note">A level's name lists the HOGs on it; a genome's name opens the genome; a folded clade (▸) opens its own tree.</p>`,
    section("newick", "Newick", `<pre class="newick" id="newick">${esc(page.newick)}</pre>`),
  ].join("\n");
  return personPage({
    base: links.base,
    url,
    title,
    crumbs,
    heading: esc(title),
    lead: `${plural(page.genomes, "genome")} · ${link(links.api("/genome/"), "all genomes as a table")}`,
    body,
  });
}
