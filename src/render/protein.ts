import type { GenomeInfo, ProteinRow, ProteinSummary, SequenceRow } from "../../release-format/format.js";
import { lineage } from "../../release-format/taxonomy.js";
import type { Release } from "../release/release.js";
import { segment, type Links } from "./links.js";

/** `HUMAN00042`: species code and the 1-based index of the entry within its genome. */
export function orthid(genome: GenomeInfo, entry: number): string {
  return `${genome.code}${String(entry - genome.firstEntry + 1).padStart(5, "0")}`;
}

/** Level names from a level up to the root (a species' lineage starts with its own name). */
export function lineageNames(release: Release, level: number, limit = Infinity): string[] {
  const { taxonomy } = release.manifest;
  return lineage(taxonomy, level).slice(0, limit).map((l) => taxonomy.names[l]);
}

/** Genome info (GI) as nested in protein summaries and listed by the genome list. */
export function genomeInfo(links: Links, g: GenomeInfo) {
  return { code: g.code, taxon_id: g.taxonId, species: g.species, genome_url: links.api(`/genome/${g.code}/`) };
}

/**
 * The Protein summary (PS) of the interface reference, fields in emission order. Answers that
 * extend it add their fields to this object (`Object.assign`) rather than spreading it into a
 * literal: V8 built `{ ...summary, 14 fields }` in ~20 µs a protein record against ~3–5, and
 * a bulk retrieve makes 1,000 of them.
 */
export function proteinSummary(release: Release, links: Links, p: ProteinSummary) {
  const genome = release.genomeOfEntry(p.entry);
  return {
    entry_nr: p.entry,
    entry_url: links.api(`/protein/${p.entry}/`),
    orthid: orthid(genome, p.entry),
    canonicalid: p.canonicalId,
    sequence_md5: p.md5,
    sequence_length: p.length,
    species: genomeInfo(links, genome),
    orth_group: p.group,
    orth_hog_id: p.hog,
    chromosome: p.chromosome,
    locus: { start: p.locus[0], end: p.locus[1], strand: p.locus[2] },
    is_main_isoform: p.isMain,
  };
}

/** The Protein record (PR): the summary, then sequences, levels and links to related data. */
export function proteinRecord(release: Release, links: Links, p: ProteinRow, s: SequenceRow) {
  const genome = release.genomeOfEntry(p.entry);
  const own = (name: string) => links.api(`/protein/${p.entry}/${name}/`);
  return Object.assign(proteinSummary(release, links, p), {
    roothog_id: p.rootHog,
    hog_levels: lineageNames(release, genome.level, p.hogLevelCount),
    sequence: s.sequence,
    cdna: s.cdna,
    description: p.description,
    domains: own("domains"),
    xref: own("xref"),
    orthologs: own("orthologs"),
    gene_ontology: own("gene_ontology"),
    homoeologs: genome.subgenomes.length ? own("homoeologs") : null,
    orth_group_url: p.group ? links.api(`/group/${p.group}/`) : null,
    orth_hog_members: p.hog ? links.api(`/hog/${segment(p.hog)}/members/`) : null,
    isoforms: own("isoforms"),
    alternative_isoforms_urls: p.isoforms.filter((e) => e !== p.entry).map((e) => links.api(`/protein/${e}/`)),
  });
}
