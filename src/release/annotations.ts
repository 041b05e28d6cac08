import type { AnnotationRow, AnnotationShard, GoTerm } from "../../release-format/format.js";
import type { Release } from "./release.js";

/** Cross-references, GO annotations and domains of an entry (one annotations chunk, found beside its protein's). */
export async function annotationRow(release: Release, entry: number): Promise<AnnotationRow> {
  return release.rowBeside("annotations", entry, entry - 1);
}

/**
 * Name, aspect and information content of the GO terms the entries cite, by id: each
 * annotations chunk carries the terms its rows cite, so this reads the entries' chunks (which
 * their annotation rows read already) and nothing else. Terms the release lacks are left out.
 */
export async function goTermsOf(release: Release, entries: Iterable<number>): Promise<Map<string, GoTerm>> {
  const chunks = await Promise.all(
    [...new Set(entries)].map(async (e) => {
      const found = await release.locateBeside("annotations", e, e - 1);
      return found && release.chunk<AnnotationShard>(found.ref);
    }),
  );
  const out = new Map<string, GoTerm>();
  for (const chunk of chunks) {
    const terms = chunk?.goTerms;
    if (terms) terms.keys.forEach((id, i) => out.set(id, terms.values[i]));
  }
  return out;
}
