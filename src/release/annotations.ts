import type { AnnotationRow, GoTerm } from "../../release-format/format.js";
import type { Release } from "./release.js";

/** Cross-references, GO annotations and domains of an entry (one annotation shard). */
export async function annotationRow(release: Release, entry: number): Promise<AnnotationRow> {
  return release.row(release.manifest.tables.annotations, entry - 1);
}

/**
 * Name, aspect and information content of GO terms, by id. The lookups run concurrently; the
 * release view shares a read between lookups of one index leaf, so the terms of one leaf cost
 * one read however many they are. Terms the index lacks are left out.
 */
export async function goTerms(release: Release, ids: Iterable<string>): Promise<Map<string, GoTerm>> {
  const distinct = [...new Set(ids)];
  const terms = await Promise.all(distinct.map((id) => release.lookup(release.manifest.indexes.goTerms, id)));
  const out = new Map<string, GoTerm>();
  distinct.forEach((id, i) => {
    const term = terms[i];
    if (term) out.set(id, term);
  });
  return out;
}
