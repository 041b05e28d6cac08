/**
 * The HOGs of a family on every level, as the compiler lists them and the worker reads them.
 *
 * An orthoXML file writes an orthologGroup only where lineages split, so a gene hangs from the
 * deepest group of its lineage (its own node) and the levels between that group's level and
 * the gene's species (the species itself, and levels skipped because the other lineages lost
 * the gene) carry no node. On those levels the gene still has a HOG: the same id, no event
 * lies between, holding the genes of that node that hang from it directly and descend from
 * that level. Such an implied HOG is the species-level HOG of every gene whose own node stands
 * above its species; in-paralogs only share one when the orthoXML records no duplication
 * between them (a duplication makes each copy a sub-HOG of its own). A node standing on
 * (id, level) takes precedence: that pair is never implied as well.
 */
import { SPECIATION, type HogNode, type Taxonomy } from "./format.js";

type Tree = Pick<Taxonomy, "parents" | "genomes">;

/** A HOG on a level below the deepest node of its genes' lineages. */
export interface ImpliedHog {
  id: string;
  level: number;
  /** The first node, in preorder, whose genes it holds (its parent HOGs are that node's). */
  node: number;
  /** Positions of its members in the family's member list, ascending (tree order). */
  members: number[];
  /** Share of the level's genomes with a member, rounded to 4 decimals. */
  completeness: number;
}

/** A HOG of a family on one level: a node standing on it, or an implied HOG. */
export interface LevelHog {
  id: string;
  level: number;
  node: number;
  genes: number;
  completeness: number;
}

/** Each member's own node: the deepest speciation node whose range holds it (-1 for none). */
export function ownNodes(nodes: HogNode[], memberCount: number): Int32Array {
  const own = new Int32Array(memberCount).fill(-1);
  // Preorder: a node comes after every node above it, so the deepest one writes last.
  nodes.forEach((n, i) => {
    if (n.kind === SPECIATION) own.fill(i, n.lo, n.hi);
  });
  return own;
}

/**
 * The implied HOGs of a family, by anchor node then level index. `speciesLevels` holds the
 * species level of each member, in member order.
 */
export function impliedHogs(nodes: HogNode[], speciesLevels: ArrayLike<number>, taxonomy: Tree): ImpliedHog[] {
  const own = ownNodes(nodes, speciesLevels.length);
  const standing = new Set<string>();
  for (const n of nodes) if (n.kind === SPECIATION) for (const l of n.levels) standing.add(`${l} ${n.id}`);
  const byKey = new Map<string, { hog: ImpliedHog; genomes: Set<number> }>();
  for (let m = 0; m < speciesLevels.length; m++) {
    const node = own[m];
    if (node < 0 || nodes[node].level < 0) continue;
    const { id, level: top } = nodes[node];
    const below: number[] = [];
    let l = speciesLevels[m];
    for (; l >= 0 && l !== top; l = taxonomy.parents[l]) below.push(l);
    if (l !== top) continue; // not below its node's level: refused by the compiler, never served
    for (const level of below) {
      const key = `${level} ${id}`;
      if (standing.has(key)) continue;
      let entry = byKey.get(key);
      if (!entry) {
        entry = { hog: { id, level, node, members: [], completeness: 0 }, genomes: new Set() };
        byKey.set(key, entry);
      }
      entry.hog.members.push(m);
      entry.genomes.add(speciesLevels[m]);
    }
  }
  const out = [...byKey.values()].map(({ hog, genomes }) => ({ ...hog, completeness: levelCompleteness(taxonomy, hog.level, genomes.size) }));
  return out.sort((a, b) => a.node - b.node || a.level - b.level);
}

/**
 * Every HOG of a family on every level, in tree order: each speciation node on each of its
 * levels, followed by the implied HOGs anchored at it (the rows of the HOG list by level).
 */
export function familyLevelHogs(nodes: HogNode[], speciesLevels: ArrayLike<number>, taxonomy: Tree): LevelHog[] {
  const implied = impliedHogs(nodes, speciesLevels, taxonomy);
  const out: LevelHog[] = [];
  let k = 0;
  nodes.forEach((n, i) => {
    if (n.kind === SPECIATION) {
      for (const level of n.levels) out.push({ id: n.id, level, node: i, genes: n.hi - n.lo, completeness: n.completeness });
    }
    for (; k < implied.length && implied[k].node === i; k++) {
      const h = implied[k];
      out.push({ id: h.id, level: h.level, node: i, genes: h.members.length, completeness: h.completeness });
    }
  });
  return out;
}

const genomesBelowCache = new WeakMap<Tree, Int32Array>();

/** How many genomes lie at or below each level. */
function genomesBelow(taxonomy: Tree): Int32Array {
  let counts = genomesBelowCache.get(taxonomy);
  if (!counts) {
    counts = new Int32Array(taxonomy.parents.length);
    taxonomy.genomes.forEach((g, species) => {
      if (g >= 0) for (let l = species; l >= 0; l = taxonomy.parents[l]) counts![l]++;
    });
    genomesBelowCache.set(taxonomy, counts);
  }
  return counts;
}

/** CompletenessScore of a HOG on `level` with members in `present` genomes. */
export function levelCompleteness(taxonomy: Tree, level: number, present: number): number {
  return Math.round((present / Math.max(1, genomesBelow(taxonomy)[level])) * 1e4) / 1e4;
}

/**
 * Levels most ancient first: nearer the root of the taxonomy first (a level before every level
 * below it), levels as near the root in the taxonomy's order (level index, preorder of the tree).
 */
export function mostAncientFirst(levels: readonly number[], taxonomy: Pick<Taxonomy, "parents">): number[] {
  const depth = (level: number) => {
    let d = 0;
    for (let l = taxonomy.parents[level]; l >= 0; l = taxonomy.parents[l]) d++;
    return d;
  };
  return levels
    .map((level) => [depth(level), level])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([, level]) => level);
}
