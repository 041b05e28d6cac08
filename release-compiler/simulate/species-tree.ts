/**
 * The species tree of a simulation: the real topology of organisms.ts, extended by the
 * radiations of synthetic organisms beyond N = ORGANISMS.length (synthetic.ts), restricted to
 * the chosen organisms, internal nodes with a single child collapsed (the child keeps its own
 * name; so for N up to ORGANISMS.length every radiation collapses onto its real organism).
 * Genomes are numbered in the tree's leaf order (depth first), which is also the order of
 * species_info.tsv and of the orthoXML species blocks; every subtree holds a contiguous range of
 * genome numbers. With `polyploid`, bread wheat (POLYPLOID in organisms.ts) joins the chosen
 * organisms where the real tree puts it, and its leaf carries its subgenomes.
 */
import { formatNewick, type NewickNode } from "./newick.js";
import { POLYPLOID, ROOT_CLADE, type Organism } from "./organisms.js";
import { fullCatalog, MAX_ORGANISMS, type Catalog } from "./synthetic.js";

export interface SpeciesNode {
  name: string;
  children: SpeciesNode[];
  parent: SpeciesNode | null;
  /** 1-based preorder number: the orthoXML `<taxon id>` and the `_<taxonId>` of HOG ids. */
  taxonomyId: number;
  /** Edges from the root. */
  depth: number;
  /** Age in million years (0 for leaves). */
  age: number;
  /** sqrt(age / root age): 1 at the root, 0 at the leaves. */
  height: number;
  /** parent.height - height (0 at the root): the evolutionary time of the branch above. */
  branchLength: number;
  /** The organism of a leaf, null for internal nodes. */
  organism: Organism | null;
  /** Genome number of a leaf (leaf order), -1 for internal nodes. */
  genome: number;
  /** Genomes below this node: the range [firstGenome, firstGenome + leafCount). */
  firstGenome: number;
  leafCount: number;
  /** Subgenome letters of a polyploid genome's leaf (e.g. A, B, D); empty otherwise. */
  subgenomes: readonly string[];
  /**
   * Polyploid leaf: the height (same scale as `height`) at which its subgenomes' progenitors
   * split, below which each gene exists as homoeologous copies; 0 otherwise.
   */
  homoeologHeight: number;
}

export interface SpeciesTree {
  root: SpeciesNode;
  /** All nodes in preorder (nodes[i].taxonomyId === i + 1). */
  nodes: SpeciesNode[];
  /** Leaves in genome order. */
  leaves: SpeciesNode[];
  newick: string;
}

/** Largest `--genomes` value: the real organisms, then synthetic ones (synthetic.ts). */
export const MAX_GENOMES = MAX_ORGANISMS;

interface SpeciesTreeOptions {
  /** Add the polyploid organism (bread wheat) to the first N organisms, as a polyploid genome. */
  polyploid?: boolean;
  /**
   * Organisms and clades to take the first N organisms from (default: the real catalog extended
   * with synthetic organisms, synthetic.ts; REAL_CATALOG gives the same tree for N up to the
   * number of real organisms).
   */
  catalog?: Catalog;
}

export function buildSpeciesTree(genomes: number, options: SpeciesTreeOptions = {}): SpeciesTree {
  const { organisms, clades: cladeList } = options.catalog ?? fullCatalog();
  if (!Number.isInteger(genomes) || genomes < 1 || genomes > organisms.length) {
    throw new Error(`genomes must be an integer in 1..${organisms.length}, got ${genomes}`);
  }
  const chosen = new Map(organisms.slice(0, genomes).map((o) => [o.code, o]));
  if (options.polyploid && !chosen.has(POLYPLOID.code)) {
    chosen.set(POLYPLOID.code, organisms.find((o) => o.code === POLYPLOID.code)!);
  }
  const clades = new Map(cladeList.map(([name, age, children]) => [name, { age, children }]));

  const build = (name: string): NewickNode | null => {
    const clade = clades.get(name);
    if (!clade) return chosen.has(name) ? { name, children: [] } : null;
    const children = clade.children.map(build).filter((c): c is NewickNode => c !== null);
    if (children.length === 0) return null;
    if (children.length === 1) return children[0];
    return { name, children };
  };
  const top = build(ROOT_CLADE);
  if (!top) throw new Error("no organism chosen");

  const nodes: SpeciesNode[] = [];
  const leaves: SpeciesNode[] = [];
  const rootAge = clades.get(top.name)?.age ?? 0;
  const convert = (n: NewickNode, parent: SpeciesNode | null): SpeciesNode => {
    const age = clades.get(n.name)?.age ?? 0;
    const height = rootAge > 0 ? Math.sqrt(age / rootAge) : 0;
    const node: SpeciesNode = {
      name: n.name,
      children: [],
      parent,
      taxonomyId: nodes.length + 1,
      depth: parent ? parent.depth + 1 : 0,
      age,
      height,
      branchLength: parent ? parent.height - height : 0,
      organism: n.children.length === 0 ? (chosen.get(n.name) ?? null) : null,
      genome: -1,
      firstGenome: leaves.length,
      leafCount: 0,
      subgenomes: [],
      homoeologHeight: 0,
    };
    nodes.push(node);
    if (n.children.length === 0) {
      node.genome = leaves.length;
      node.leafCount = 1;
      leaves.push(node);
      if (options.polyploid && n.name === POLYPLOID.code && parent && rootAge > 0) {
        node.subgenomes = POLYPLOID.subgenomes;
        node.homoeologHeight = Math.min(Math.sqrt(POLYPLOID.progenitorAge / rootAge), node.branchLength / 2);
      }
    } else {
      for (const child of n.children) node.children.push(convert(child, node));
      node.leafCount = leaves.length - node.firstGenome;
    }
    return node;
  };
  const root = convert(top, null);
  return { root, nodes, leaves, newick: formatNewick(top) };
}
