/**
 * OrthoFinder's hierarchical orthogroups as the release's HOG families.
 *
 * Each row of `N<k>.tsv` is a HOG on level N<k> (3.x: each orthogroup of `Orthogroups.tsv` is
 * the root level's HOG). Within an orthogroup, a HOG's parent is the HOG of the nearest more
 * ancient level holding its genes; it must hold all of them (OrthoFinder nests its HOGs so).
 * A HOG with no parent is a family's root. Below a HOG on level L, each child clade C of L in the
 * species tree has lineages: the child HOGs in C, and the HOG's genes in C that no child HOG
 * holds (each its own lineage). One lineage is a speciation child; several are the copies of a
 * duplication between L and C. The tree is written as orthoXML groups and built by the same
 * code as an orthoXML input (derive/hogs.ts: ids, levels, completeness), so the HOG ids are the
 * generated `HOG:<letters><family>` form with `.1a` copies.
 *
 * OrthoFinder's own ids become aliases: each HOG's id names its (HOG id, level), each
 * orthogroup's the root of its first family (2.x splits some orthogroups into several N0 HOGs).
 */
import { SPECIATION, type AliasTarget } from "../../../release-format/format.js";
import { isAncestorOrSelf } from "../../../release-format/taxonomy.js";
import type { HogXmlGroup, HogXmlNode } from "../../inputs.js";
import type { Problems } from "../../problems.js";
import { fileLabel } from "../../readers/lines.js";
import { readHogTable, type HogTableKind } from "../../readers/orthofinder/hog-table.js";
import type { HogFamilies } from "../hog-families.js";
import { hogNodes, nodeLevel } from "../hog-columns.js";
import { buildFamily } from "../hogs.js";
import { FamilyTableBuilder } from "../family-table.js";
import type { ProteinTable } from "../proteins.js";
import type { OrthoFinderSpecies } from "./species.js";

export interface OrthoFinderHogs extends HogFamilies {
  /** OrthoFinder HOG and orthogroup ids → the HOG they name. */
  aliases: Map<string, AliasTarget>;
  /** Per family index - 1: the orthogroup of its root. */
  orthogroupOf: string[];
}

/** One HOG row of a table. */
interface Row {
  name: string;
  og: string;
  level: number;
  entries: Int32Array;
  file: string;
  line: number;
  /** Order of its table (tables in level order), for the family order. */
  table: number;
  parent?: Row;
  children: Row[];
}

export async function readOrthoFinderHogs(
  of: OrthoFinderSpecies,
  hogPrefix: string,
  proteins: ProteinTable,
  problems: Problems,
): Promise<OrthoFinderHogs> {
  const { results, taxonomy } = of;
  const rootNode = [...of.levelOfNode].find(([, level]) => taxonomy.parents[level] < 0)?.[0] ?? "N0";
  const tables: Array<{ level: string; path: string; kind: HogTableKind }> = results.hogTables.map((t) => ({ ...t, kind: "hogs" }));
  if (results.layout === "3.x") tables.unshift({ level: rootNode, path: results.orthogroups, kind: "orthogroups" });
  const levelOf = (name: string) => of.levelOfNode.get(name);
  tables.sort((a, b) => (levelOf(a.level) ?? Infinity) - (levelOf(b.level) ?? Infinity));

  // Every row, grouped by orthogroup (in order of first appearance, the root level's table first).
  const byOrthogroup = new Map<string, Row[]>();
  /** Per entry - 1, the line of the row holding it in the table being read (0 = none). */
  const lineOfEntry = new Int32Array(proteins.count);
  for (const [t, table] of tables.entries()) {
    const file = fileLabel(table.path);
    const level = levelOf(table.level);
    if (level === undefined) {
      problems.report(file, 0, `${table.level} is not a node of the species tree ${results.speciesTree}`);
      continue;
    }
    let columns: Array<number | undefined> = [];
    const used: number[] = [];
    for await (const row of readHogTable(table.path, table.kind, problems, (species) => {
      columns = species.map((name) => of.genomeOfName.get(name));
      species.forEach((name, i) => {
        if (columns[i] === undefined) problems.report(file, 1, `column ${name} is not a species of the OrthoFinder results`);
      });
    })) {
      const entries: number[] = [];
      row.genes.forEach((genes, i) => {
        const genome = columns[i];
        if (genome === undefined) return;
        for (const gene of genes) {
          const entry = proteins.inputIds.numberOf(gene);
          if (entry === undefined) {
            problems.report(file, row.line, `gene ${gene} (${of.species[genome].file}) is not in any proteome`);
          } else if (proteins.genome[entry - 1] !== genome) {
            problems.report(file, row.line, `gene ${gene} is in the ${of.species[genome].file} column but in the proteome of ${of.species[proteins.genome[entry - 1]].file}`);
          } else if (!isAncestorOrSelf(taxonomy, level, taxonomy.genomeLevels[genome])) {
            problems.report(file, row.line, `gene ${gene}: ${of.species[genome].file} is not below ${table.level} in the species tree`);
          } else if (lineOfEntry[entry - 1] > 0) {
            const where = lineOfEntry[entry - 1] === row.line ? "twice in this row" : `also on line ${lineOfEntry[entry - 1]}`;
            problems.report(file, row.line, `gene ${gene} is ${where}: a gene is in one HOG of a level`);
          } else {
            lineOfEntry[entry - 1] = row.line;
            used.push(entry);
            entries.push(entry);
          }
        }
      });
      if (entries.length === 0) continue;
      const r: Row = { name: row.hog, og: row.og, level, entries: Int32Array.from(entries), file, line: row.line, table: t, children: [] };
      const list = byOrthogroup.get(row.og);
      if (list) list.push(r);
      else byOrthogroup.set(row.og, [r]);
    }
    for (const e of used) lineOfEntry[e - 1] = 0;
  }

  // Parents within each orthogroup; rows without one are roots.
  const roots: Row[] = [];
  for (const rows of byOrthogroup.values()) {
    const atLevel = new Map<number, Map<number, Row>>();
    for (const r of rows) {
      let m = atLevel.get(r.level);
      if (!m) atLevel.set(r.level, (m = new Map()));
      for (const e of r.entries) m.set(e, r);
    }
    for (const r of rows) {
      for (let up = taxonomy.parents[r.level]; up >= 0 && !r.parent; up = taxonomy.parents[up]) {
        const m = atLevel.get(up);
        if (!m) continue;
        const holders = new Set<Row | undefined>();
        for (const e of r.entries) holders.add(m.get(e));
        if (holders.size === 1 && holders.has(undefined)) continue; // none of its genes on that level: look further up
        const parent = [...holders].find((h) => h !== undefined);
        if (holders.size > 1 || !parent) {
          const names = [...holders].map((h) => h?.name ?? "no HOG").join(", ");
          problems.report(r.file, r.line, `HOG ${r.name} is not within one HOG of ${taxonomy.names[up]}: its genes are in ${names}`);
        }
        if (parent) {
          r.parent = parent;
          parent.children.push(r);
        }
        break;
      }
      if (!r.parent) roots.push(r);
    }
  }
  roots.sort((a, b) => a.table - b.table || a.line - b.line);

  const families = new FamilyTableBuilder();
  const aliases = new Map<string, AliasTarget>();
  const orthogroupOf: string[] = [];
  // The family root each protein is in, by entry - 1 (a Map holds fewer than a public release's proteins).
  const familyOfEntry = new Array<Row | undefined>(proteins.count);
  const cladeCache = new Map<number, number>();
  /** The child of `level` on the way down to `below` (a descendant level). */
  const childClade = (level: number, below: number): number => {
    const key = below * taxonomy.names.length + level;
    let clade = cladeCache.get(key);
    if (clade === undefined) {
      clade = below;
      while (clade >= 0 && taxonomy.parents[clade] !== level) clade = taxonomy.parents[clade];
      cladeCache.set(key, clade);
    }
    return clade;
  };
  const speciesLevel = (entry: number) => taxonomy.genomeLevels[proteins.genome[entry - 1]];

  for (const root of roots) {
    let clash = false;
    for (const e of root.entries) {
      const other = familyOfEntry[e - 1];
      if (other) {
        problems.report(root.file, root.line, `gene ${proteins.inputIds.idOf(e)} of ${root.name} is also in ${other.name} (${other.file}:${other.line}), in another HOG family`);
        clash = true;
      } else familyOfEntry[e - 1] = root;
    }
    if (clash) continue;
    const groupOfRow = new Map<HogXmlGroup, Row>();
    const xmlOf = (r: Row): HogXmlGroup => {
      const group: HogXmlGroup = { kind: "orthologGroup", taxRange: taxonomy.names[r.level], children: [], line: r.line };
      groupOfRow.set(group, r);
      const held = new Set<number>();
      for (const c of r.children) for (const e of c.entries) held.add(e);
      const lineages = new Map<number, HogXmlNode[]>();
      const add = (clade: number, node: HogXmlNode) => {
        const list = lineages.get(clade);
        if (list) list.push(node);
        else lineages.set(clade, [node]);
      };
      for (const c of [...r.children].sort((a, b) => a.level - b.level || a.line - b.line)) add(childClade(r.level, c.level), xmlOf(c));
      for (const e of r.entries) if (!held.has(e)) add(childClade(r.level, speciesLevel(e)), { kind: "geneRef", ref: String(e), line: r.line });
      for (const clade of [...lineages.keys()].sort((a, b) => a - b)) {
        const copies = lineages.get(clade)!;
        group.children.push(copies.length === 1 ? copies[0] : { kind: "paralogGroup", children: copies, line: r.line });
      }
      return group;
    };
    const xml = xmlOf(root);
    const family = buildFamily(xml, families.count + 1, {
      taxonomy,
      prefix: hogPrefix,
      entryOfGene: (ref) => Number(ref),
      genomeOf: (entry) => proteins.genome[entry - 1],
      taxonNames: new Map(),
      file: root.file,
      problems,
    });
    if (!family) continue;
    families.add(family); // its ids are made from its number (no group here carries one): none is another family's
    orthogroupOf.push(root.og);

    // Each row's node: the speciation node on the row's level spanning the row's genes, found by
    // counting genes in the order buildFamily takes them (preorder, paralogGroup copies in order).
    const nodeAt = new Map<string, number>();
    const nodes = hogNodes(family.tree);
    nodes.forEach((n, i) => {
      if (n.kind === SPECIATION) nodeAt.set(`${n.lo}:${n.hi}:${n.level}`, i);
    });
    let genes = 0;
    const walk = (node: HogXmlNode): void => {
      if (node.kind === "geneRef") {
        genes++;
        return;
      }
      const lo = genes;
      node.children.forEach(walk);
      const row = node.kind === "orthologGroup" ? groupOfRow.get(node) : undefined;
      if (!row) return;
      const at = nodeAt.get(`${lo}:${genes}:${row.level}`);
      if (at === undefined) throw new Error(`no node for ${row.name} in family ${family.index}`);
      aliases.set(row.name, [family.index, nodes[at].id, row.level]);
    };
    walk(xml);
    if (!aliases.has(root.og)) aliases.set(root.og, [family.index, family.rootId, nodeLevel(family.tree, 0)]);
  }

  return { families: families.finish(), aliases, orthogroupOf };
}
