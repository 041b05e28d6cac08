import type { HogListRow, Taxonomy } from "../../release-format/format.js";
import { familyLevelHogs } from "../../release-format/hog-levels.js";
import { hogNodes } from "./hog-columns.js";
import type { FamilyBuild } from "./hogs.js";

/** The HOG list table's rows, and where the root HOGs and each level's HOGs stand in it (`[first row, rows]`). */
interface HogList {
  rows: HogListRow[];
  roots: [number, number];
  levels: Array<[number, number]>;
}

/**
 * HOG list items: every family's root HOG, then for each level every HOG on it (a speciation
 * node on each of its levels, and the implied HOGs of release-format/hog-levels.ts: a species
 * level lists the HOGs of its genes), in family and tree order.
 */
export function hogListRows(
  families: Iterable<FamilyBuild>,
  taxonomy: Pick<Taxonomy, "names" | "parents" | "genomes">,
  speciesLevelOf: (entry: number) => number,
  descriptions: string[],
): HogList {
  const rows: HogListRow[] = [];
  const byLevel: HogListRow[][] = taxonomy.names.map(() => []);
  for (const f of families) {
    const description = descriptions[f.index - 1];
    const nodes = hogNodes(f.tree);
    const familyTop = nodes[0].levels[0];
    const idTop = new Map<string, number>();
    for (const n of nodes) if (n.id && !idTop.has(n.id)) idTop.set(n.id, n.levels[0]);
    const root = nodes[0];
    rows.push([f.rootId, f.rootHog, description, root.completeness, root.hi - root.lo, familyTop, familyTop]);
    for (const h of familyLevelHogs(nodes, f.members.map(speciesLevelOf), taxonomy)) {
      byLevel[h.level].push([h.id, f.rootHog, description, h.completeness, h.genes, idTop.get(h.id)!, familyTop]);
    }
  }
  const roots: [number, number] = [0, rows.length];
  const levels = byLevel.map((list): [number, number] => {
    const first = rows.length;
    for (const row of list) rows.push(row);
    return [first, list.length];
  });
  return { rows, roots, levels };
}
