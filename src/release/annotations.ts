import type { AnnotationRow, AnnotationShard, GoTerm } from "../../release-format/format.js";
import type { Release } from "./release.js";

/** Cross-references, GO annotations and domains of an entry (one annotations chunk, found beside its protein's). */
export async function annotationRow(release: Release, entry: number): Promise<AnnotationRow> {
  return release.rowBeside("annotations", entry, entry - 1);
}

/**
 * Name, aspect and information content of the GO terms a protein cites, by id, from the
 * annotations chunk its annotationRow reads (found beside its proteins chunk): nothing else is read.
 */
export async function proteinGoTerms(release: Release, entry: number): Promise<Map<string, GoTerm>> {
  const found = await release.locateBeside("annotations", entry, entry - 1);
  return termsOf([found && (await release.chunk<AnnotationShard>(found.ref))]);
}

/**
 * The same for entries whose annotation rows were read through the table's tree (rowsOf, as
 * the function search reads its hits'): their chunks, found the same way, are read already.
 * Terms the release lacks are left out.
 */
export async function goTermsOf(release: Release, entries: Iterable<number>): Promise<Map<string, GoTerm>> {
  const table = release.manifest.tables.annotations;
  const chunks = await Promise.all([...new Set(entries)].map(async (e) => (await release.chunkAt<AnnotationShard, number>(table.tree, e - 1))?.value));
  return termsOf(chunks);
}

/** Each annotations chunk carries the terms its rows cite. */
function termsOf(chunks: Array<AnnotationShard | undefined>): Map<string, GoTerm> {
  const out = new Map<string, GoTerm>();
  for (const chunk of chunks) {
    const terms = chunk?.goTerms;
    if (terms) terms.keys.forEach((id, i) => out.set(id, terms.values[i]));
  }
  return out;
}
