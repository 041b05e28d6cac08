import type { AnnotationRow, GoTerm, ProteinRow, ProteinSummary } from "../../release-format/format.js";
import type { HogOrtholog } from "../release/hog-orthologs.js";
import type { Release } from "../release/release.js";
import type { Xref } from "../../release-format/xrefs.js";
import type { Links } from "./links.js";
import { orthid, proteinSummary } from "./protein.js";

/** `{"seq_id", "length", "regions"}`; a protein without domains gets one placeholder region over its middle 80%. */
export function domainsBody(p: ProteinRow, a: AnnotationRow) {
  const regions = a.domains.map(([source, domainid, name, start, end]) => ({ source, domainid, name, location: `${start}:${end}` }));
  if (regions.length === 0) {
    const location = `${Math.floor(0.1 * p.length)}:${Math.floor(0.9 * p.length)}`;
    regions.push({ source: "n/a", domainid: "n/a", name: "n/a", location });
  }
  return { seq_id: p.md5, length: p.length, regions };
}

/** XRef items (without `genome`). */
export function xrefItems(release: Release, p: ProteinSummary, xrefs: Xref[]) {
  const id = orthid(release.genomeOfEntry(p.entry), p.entry);
  return xrefs.map((x) => ({ xref: x.id, source: x.source, seq_match: x.seqMatch, entry_nr: p.entry, orthid: id }));
}

const ASPECTS = { P: "biological_process", F: "molecular_function", C: "cellular_component" } as const;

/**
 * GO annotation items, sorted by aspect, then information content descending (a stable sort:
 * equal ones keep the input order). A term the index lacks keeps its annotated aspect, an
 * empty name and ic 0.
 */
export function goItems(release: Release, p: ProteinSummary, a: AnnotationRow, terms: Map<string, GoTerm>) {
  const id = orthid(release.genomeOfEntry(p.entry), p.entry);
  const items = a.go.map(([goId, evidence, reference, aspect]) => {
    const term = terms.get(goId);
    return {
      id,
      GO_term: goId,
      name: term?.name ?? "",
      aspect: term?.aspect ?? ASPECTS[aspect],
      ic: term?.ic ?? 0,
      entry_nr: p.entry,
      evidence,
      reference,
    };
  });
  return items.sort((x, y) => (x.aspect < y.aspect ? -1 : x.aspect > y.aspect ? 1 : y.ic - x.ic));
}

/** An isoform: the protein summary whose `locus` is its exons (strand of the gene), plus `nr_exons`. */
export function isoformItem(release: Release, links: Links, p: ProteinRow) {
  const strand = p.locus[2];
  return Object.assign(proteinSummary(release, links, p), {
    locus: p.exons.map(([start, end]) => ({ start, end, strand })),
    nr_exons: p.exons.length,
  });
}

/** A HOG-derived ortholog: the partner's summary and the relation type from the query's side. */
export function hogOrthologItem(release: Release, links: Links, partner: ProteinSummary, o: HogOrtholog) {
  return Object.assign(proteinSummary(release, links, partner), { rel_type: o.relType });
}
