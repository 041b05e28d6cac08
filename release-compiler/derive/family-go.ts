import type { FamilyGo } from "../../release-format/format.js";
import type { AnnotationTable } from "./annotations.js";
import type { FamilyBuild } from "./hogs.js";

/**
 * The GO annotations of a family's members, with each term's name, aspect and information
 * content: every term once, each member by term indexes (the HOG gene_ontology endpoint reads
 * one row for a whole family).
 */
export function familyGoRow(f: FamilyBuild, annotations: Pick<AnnotationTable, "goAt" | "goTerms">): FamilyGo {
  const terms: FamilyGo["terms"] = [];
  const termIndex = new Map<string, number>();
  const members = Array.from(f.members, (e) => {
    const own = new Set<number>();
    for (const [id, , , aspect] of annotations.goAt(e - 1)) {
      let t = termIndex.get(id);
      if (t === undefined) {
        const term = annotations.goTerms.get(id);
        t = terms.length;
        terms.push([id, term?.name ?? "", aspect, term?.ic ?? 0]);
        termIndex.set(id, t);
      }
      own.add(t);
    }
    return [...own].sort((x, y) => x - y);
  });
  return { terms, members };
}
