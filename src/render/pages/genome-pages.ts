/**
 * Genome pages for people: the genomes as a table, one genome (its lineage, counts and
 * chromosomes), a genome's proteins or genes as a table with the pager, and an orthologous group.
 */
import type { GenomeInfo } from "../../../release-format/format.js";
import { esc, pager, rawJsonUrl } from "../html.js";
import { segment, type Links } from "../links.js";
import { chips, facts, link, personPage, plural, section } from "./layout.js";
import { dataTable, proteinTable, type ProteinLine } from "./tables.js";

const ncbiTaxon = (id: number) => `https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=${id}`;
const taxonLink = (id: number) => (id > 0 ? `<a href="${esc(ncbiTaxon(id))}">${id}</a>` : `<span class="muted">${id}</span>`);

export function genomeListPage(links: Links, url: URL, genomes: GenomeInfo[], headers: Headers): string {
  const controls = pager({ headers, url, base: links.base }, (u) => u);
  const table = dataTable(
    [
      { head: "Species", cell: (g: GenomeInfo) => `<a class="sp" href="${esc(links.api(`/genome/${segment(g.code)}/`))}">${esc(g.species)}</a>` },
      { head: "Code", cell: (g) => `<code>${esc(g.code)}</code>` },
      { head: "Taxon", num: true, cell: (g) => taxonLink(g.taxonId) },
      { head: "Proteins", num: true, cell: (g) => link(links.api(`/genome/${segment(g.code)}/proteins/`), g.nrEntries.toLocaleString("en")) },
      { head: "Genes", num: true, cell: (g) => link(links.api(`/genome/${segment(g.code)}/genes/`), g.nrGenes.toLocaleString("en")) },
      { head: "Subgenomes", cell: (g) => (g.subgenomes.length ? esc(g.subgenomes.join(", ")) : `<span class="muted">–</span>`) },
    ],
    genomes,
    "No genomes.",
  );
  return personPage({
    base: links.base,
    url,
    title: "Genomes",
    crumbs: [["API", links.api("/")], ["Genomes"]],
    heading: "Genomes",
    lead: `The genomes of this release, in release order; their taxonomy as ${link(links.api("/taxonomy/"), "the species tree")}.`,
    body: `${controls}${table}${controls}`,
  });
}

export interface GenomePage {
  genome: GenomeInfo;
  lineage: string[];
  chromosomes: Array<{ id: string; proteins: number; first: number }>;
}

export function genomePage(links: Links, url: URL, page: GenomePage): string {
  const g = page.genome;
  const lineage = [...page.lineage].reverse();
  const about = facts([
    ["Species", `<span class="sp">${esc(g.species)}</span>`],
    ["Code", `<code>${esc(g.code)}</code>`],
    ["Taxon", taxonLink(g.taxonId)],
    ["Proteins", link(links.api(`/genome/${segment(g.code)}/proteins/`), `${g.nrEntries.toLocaleString("en")} proteins`)],
    ["Genes", link(links.api(`/genome/${segment(g.code)}/genes/`), `${g.nrGenes.toLocaleString("en")} genes (main isoforms)`)],
    ["Subgenomes", g.subgenomes.length ? esc(g.subgenomes.join(", ")) : undefined],
    ["Lineage", chips(lineage.map((name) => link(links.api(`/taxonomy/${segment(name)}/`), name)))],
    ["HOGs", link(links.api("/hog/", { level: g.code }), `the HOGs of its genes`)],
  ]);
  const chromosomes = dataTable(
    [
      { head: "Chromosome", cell: (c: GenomePage["chromosomes"][number]) => esc(c.id || "(none)") },
      { head: "Proteins", num: true, cell: (c) => c.proteins.toLocaleString("en") },
      { head: "First protein", cell: (c) => link(links.api(`/protein/${c.first}/`), String(c.first)) },
    ],
    page.chromosomes,
    "No chromosomes are known (the release has no loci for this genome).",
  );
  return personPage({
    base: links.base,
    url,
    title: `${g.species} (${g.code})`,
    crumbs: [["Genomes", links.api("/genome/")], [g.code]],
    heading: `<span class="sp">${esc(g.species)}</span> <small>${esc(g.code)}</small>`,
    body: [about, section("chromosomes", `Chromosomes (${page.chromosomes.length})`, chromosomes)].join("\n"),
  });
}

export function genomeProteinsPage(links: Links, url: URL, genome: GenomeInfo, genes: boolean, proteins: ProteinLine[], headers: Headers, shownOf?: number): string {
  const controls = pager({ headers, url, base: links.base }, (u) => u);
  const what = genes ? "Genes" : "Proteins";
  const cut = shownOf !== undefined ? `<p class="notice">This page shows the first ${proteins.length.toLocaleString("en")} of its ${shownOf.toLocaleString("en")} rows; ask for smaller pages with <code>per_page</code>, or take ${link(rawJsonUrl(url), "the JSON")}.</p>` : "";
  return personPage({
    base: links.base,
    url,
    title: `${what} of ${genome.species}`,
    crumbs: [["Genomes", links.api("/genome/")], [genome.code, links.api(`/genome/${segment(genome.code)}/`)], [what.toLowerCase()]],
    heading: `${what} of <span class="sp">${esc(genome.species)}</span>`,
    lead: genes ? `Main isoforms, by entry number: ${plural(genome.nrGenes, "gene")}.` : `Every protein entry, alternative isoforms included, by entry number: ${plural(genome.nrEntries, "protein")}.`,
    body: `${controls}${cut}${proteinTable(links, proteins, [], "No proteins.", false)}${controls}`,
  });
}

export interface GroupPage {
  nr: number;
  fingerprint: string;
  description: string;
  members: ProteinLine[];
}

export function groupPage(links: Links, url: URL, page: GroupPage): string {
  const about = facts([
    ["Group", String(page.nr)],
    ["Fingerprint", `<code>${esc(page.fingerprint)}</code>`],
    ["Description", page.description ? esc(page.description) : undefined],
    ["Related", link(links.api(`/group/${page.nr}/close_groups/`), "groups its members' orthologs fall into")],
  ]);
  return personPage({
    base: links.base,
    url,
    title: `Orthologous group ${page.nr}`,
    crumbs: [["Groups", links.api("/group/")], [String(page.nr)]],
    heading: `Orthologous group ${page.nr} <small>${esc(page.fingerprint)}</small>`,
    lead: page.description ? esc(page.description) : undefined,
    body: [about, section("members", `Members (${page.members.length})`, proteinTable(links, page.members))].join("\n"),
  });
}
