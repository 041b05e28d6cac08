/**
 * A protein's card (as UniProt's entry page): who it is (ids, species, locus, description),
 * where it belongs (its HOG on each level of its lineage, its group), its domains drawn along
 * the sequence, the sequence and cDNA as FASTA blocks wrapped at 60 (one click selects a
 * whole block), its GO annotations and its orthologs as tables.
 */
import { fastaRecord } from "../fasta.js";
import { esc } from "../html.js";
import { segment, type Links } from "../links.js";
import { domainTrackSvg, type DomainMark } from "../pictures/domains.js";
import { chips, facts, link, personPage, plural, section } from "./layout.js";
import { dataTable, locusText, proteinTable, speciesCell, type ProteinLine } from "./tables.js";

export interface GoLine {
  id: string;
  name: string;
  aspect: string;
  evidence: string;
  reference: string;
}

export interface OrthologLine extends ProteinLine {
  relType: string;
  distance: number | null;
  score: number | null;
}

export interface ProteinCard {
  protein: ProteinLine;
  taxonId: number;
  description: string;
  md5: string;
  /** Names of the levels its HOG family spans, its species first. */
  hogLevels: string[];
  rootHog: string;
  sequence: string;
  cdna: string;
  domains: DomainMark[];
  go: GoLine[];
  orthologs: OrthologLine[];
  /** Other isoforms of its gene. */
  isoforms: Array<{ entry: number; orthid: string }>;
  xrefs: Array<[string, string]>;
  /** Sub-resources as JSON: name → URL. */
  json: Array<[string, string]>;
}

/** A FASTA block as the downloads write it (lines of 60), without its last line break. */
const fasta = (header: string, sequence: string): string => fastaRecord(header, sequence).trimEnd();

const MAX_XREFS = 40;

export function proteinCardPage(links: Links, url: URL, card: ProteinCard): string {
  const p = card.protein;
  const header = `${p.orthid} ${p.canonicalId}${card.description ? ` ${card.description}` : ""} [${p.species}]`;
  const hogChips = card.hogLevels.map((level) => link(links.api(`/hog/${segment(p.hog)}/`, { level }), level));
  const about = facts([
    ["Entry", `${p.entry} · ${esc(p.orthid)} · ${esc(p.canonicalId)}`],
    ["Species", `${speciesCell(links, p.species, p.code)} · taxon ${card.taxonId}`],
    ["Locus", esc(locusText(p.chromosome, p.locus))],
    ["Length", `${p.length.toLocaleString("en")} aa${card.cdna ? ` · cDNA ${card.cdna.length.toLocaleString("en")} nt` : ""}`],
    ["Isoform", p.isMain ? "main isoform" + (card.isoforms.length ? ` · others: ${card.isoforms.map((i) => link(links.api(`/protein/${i.entry}/`), i.orthid)).join(", ")}` : "") : `alternative isoform${card.isoforms.length ? ` of ${card.isoforms.map((i) => link(links.api(`/protein/${i.entry}/`), i.orthid)).join(", ")}` : ""}`],
    ["HOG", p.hog ? `${link(links.api(`/hog/${segment(p.hog)}/`), p.hog)} in family ${link(links.api(`/hog/${segment(card.rootHog)}/`, { level: "root" }), card.rootHog)}` : `<span class="muted">none</span>`],
    ["HOG by level", hogChips.length ? chips(hogChips) : undefined],
    ["Group", p.group ? link(links.api(`/group/${p.group}/`), `group ${p.group}`) : `<span class="muted">none</span>`],
    ["Sequence MD5", `<code>${esc(card.md5)}</code>`],
  ]);

  const domainSection = card.domains.length
    ? `<div class="figure">${domainTrackSvg(p.length, card.domains, `Domains of ${p.orthid} along its ${p.length} residues`)}</div>${dataTable(
        [
          { head: "Domain", wrap: true, cell: (d: DomainMark) => esc(d.name || d.id) },
          { head: "Source", cell: (d) => esc(d.source) },
          { head: "Id", cell: (d) => `<code>${esc(d.id)}</code>` },
          { head: "From", num: true, cell: (d) => String(d.start) },
          { head: "To", num: true, cell: (d) => String(d.end) },
        ],
        card.domains,
      )}`
    : `<p class="empty">No domains are annotated on this protein.</p>`;

  const sequences = [
    `<div class="seq-head"><h2 id="sequence">Sequence</h2><span>${plural(p.length, "residue")} · click once to select it all</span></div><pre class="fasta" id="fasta-protein">${esc(fasta(header, card.sequence))}</pre>`,
    card.cdna
      ? `<div class="seq-head"><h2 id="cdna">cDNA</h2><span>${plural(card.cdna.length, "nucleotide")}</span></div><pre class="fasta" id="fasta-cdna">${esc(fasta(`${p.orthid} ${p.canonicalId} cDNA [${p.species}]`, card.cdna))}</pre>`
      : "",
  ].join("");

  const go = dataTable(
    [
      { head: "GO term", cell: (g: GoLine) => `<a href="${esc(`https://www.ebi.ac.uk/QuickGO/term/${g.id}`)}">${esc(g.id)}</a>` },
      { head: "Name", wrap: true, cell: (g) => esc(g.name) || `<span class="muted">–</span>` },
      { head: "Aspect", cell: (g) => esc(g.aspect.replace("_", " ")) },
      { head: "Evidence", cell: (g) => esc(g.evidence) },
      { head: "Reference", wrap: true, cell: (g) => esc(g.reference) },
    ],
    card.go,
    "No GO annotations.",
  );

  const orthologs = proteinTable(
    links,
    card.orthologs,
    [
      { head: "Relation", cell: (o) => esc(o.relType) },
      { head: "Distance", num: true, cell: (o) => (o.distance === null ? `<span class="muted">–</span>` : esc(String(o.distance))) },
      { head: "Score", num: true, cell: (o) => (o.score === null ? `<span class="muted">–</span>` : esc(String(o.score))) },
    ],
    "No pairwise orthologs.",
  );

  const xrefs = card.xrefs.length
    ? `${chips(card.xrefs.slice(0, MAX_XREFS).map(([source, id]) => `<span title="${esc(source)}">${esc(source)}: ${esc(id)}</span>`))}${card.xrefs.length > MAX_XREFS ? `<p class="muted">and ${card.xrefs.length - MAX_XREFS} more: ${link(links.api(`/protein/${p.entry}/xref/`), "all cross-references")}</p>` : ""}`
    : `<p class="empty">None.</p>`;

  const body = [
    about,
    section("domains", "Domains", domainSection),
    sequences,
    section("gene-ontology", `GO annotations (${card.go.length})`, go),
    section("orthologs", `Orthologs (${card.orthologs.length})`, orthologs),
    section("xrefs", `Cross-references (${card.xrefs.length})`, xrefs),
    section("json", "As JSON", `<ul class="links">${card.json.map(([name, href]) => `<li>${link(href, name)}</li>`).join("")}</ul>`),
  ].join("\n");

  return personPage({
    base: links.base,
    url,
    title: `${p.orthid} ${p.canonicalId} – ${p.species}`,
    crumbs: [["Genomes", links.api("/genome/")], [p.code, links.api(`/genome/${segment(p.code)}/`)], [p.orthid]],
    heading: `${esc(p.orthid)} <small>${esc(p.canonicalId)}</small>`,
    lead: `${card.description ? `${esc(card.description)} · ` : ""}<span class="sp">${esc(p.species)}</span>`,
    body,
  });
}
