/**
 * Gene family evolution along the species tree. A family is born at a node of the species tree
 * (FamilyBreadth below: most at the root, or most in a clade, and a few as orphans in one
 * genome) with a random root sequence; walking down the tree, every branch may duplicate the
 * gene (both copies continue) or lose it, and substitutions and short indels accumulate in proportion to branch length.
 * The result is the family's true gene tree, pruned of lost lineages: internal nodes with a
 * single surviving child are removed, and a duplication directly below a duplication is merged
 * into it (all pairs across its children are paralogs either way).
 *
 * Allopolyploidy (a leaf with subgenomes, species-tree.ts): a lineage reaching the leaf runs the
 * branch down to the split of the subgenomes' progenitors (its `homoeologHeight` above the
 * leaf), then becomes one copy per subgenome (each copy lost at once with probability
 * MODEL.homoeologLoss), and every copy runs the rest of the branch with the usual duplications,
 * losses and mutations. The split is a speciation at the leaf's own species node (the
 * progenitors split by speciation), so homoeologs are joined by a SPECIATION node whose species
 * is the leaf. A duplication above the split yields copies that are each split into
 * homoeologs; one below it yields in-subgenome paralogs. Families born in the polyploid genome
 * itself (orphans) are young genes of one random subgenome.
 */
import { archetypesFor, DOMAIN_KINDS, type Archetype, type DomainKind } from "./catalog.js";
import type { Kingdom } from "./organisms.js";
import { Rng } from "./rng.js";
import { mutate, randomProtein, type MutationModel, type Region } from "./sequences.js";
import type { SpeciesNode, SpeciesTree } from "./species-tree.js";

export const LEAF = 0;
export const SPECIATION = 1;
export const DUPLICATION = 2;
type GeneNodeKind = typeof LEAF | typeof SPECIATION | typeof DUPLICATION;

/** A node of a family's pruned true gene tree. */
export interface GeneNode {
  kind: GeneNodeKind;
  /**
   * Leaf: the genome's species node. Speciation: the species node where the lineages split.
   * Duplication: the species node at the bottom of the branch the duplication happened on.
   */
  species: SpeciesNode;
  children: GeneNode[];
  gene: Gene | null;
}

/** A gene of a genome (its main isoform is the protein in the gene tree). */
export interface Gene {
  family: Family;
  genome: number;
  protein: Uint8Array;
  /** Gene symbol: family name plus a letter per paralogous lineage (in-species copies share it). */
  symbol: string;
  /** Position key: genes are laid out along a genome in key order (keeps synteny). */
  key: number;
  // Set by the layout (layout.ts):
  /** 0-based rank among the genome's genes (FASTA order of main isoforms). */
  rank: number;
  proteinId: string;
  /** Numeric orthoXML `<gene id>`. */
  xmlId: string;
  /** Number of alternative isoforms (0–2). */
  isoforms: number;
  /** Subgenome letter of a polyploid genome's gene (its chromosomes end in it); "" otherwise. */
  subgenome: string;
}

/** A family domain in root-sequence coordinates [start, end). */
interface FamilyDomain extends Region {
  kind: DomainKind;
}

export interface Family {
  /** 1-based simulation number (also in gene symbols: SIMF<number>). */
  number: number;
  birth: SpeciesNode;
  archetype: Archetype;
  goTerms: string[];
  domains: FamilyDomain[];
  rootLength: number;
  /** Pruned true gene tree; null when every copy was lost. */
  tree: GeneNode | null;
  /** Surviving genes in gene-tree order. */
  genes: Gene[];
  /** Number of genomes with at least one gene. */
  genomeCount: number;
  duplications: number;
  losses: number;
}

/**
 * Where families are born, so how many genomes they span:
 * - `root` (the default up to the real organisms' 145 genomes): 72% at the root, 24% in a
 *   younger clade (each internal node equally likely), 4% as orphans in one genome. Nearly
 *   every family spans the whole tree, so pair rows grow as genomes squared.
 * - `clade` (the default above 145 genomes): 4% orphans; root families (universal genes) hold
 *   MODEL.rootGeneShare of the genes; every other family is born on the branch above an
 *   internal node, chosen with probability proportional to the branch's length (new families
 *   arise at a constant rate along every lineage, on the same evolutionary-time scale as
 *   substitutions, duplications and losses: `branchLength`), and spans that node's clade.
 */
export type FamilyBreadth = "root" | "clade";
export const FAMILY_BREADTHS: readonly FamilyBreadth[] = ["root", "clade"];

/** Tunable rates of the evolution model. */
const MODEL = {
  /** Where families are born (`root` breadth): at the root, in a younger clade, or as a one-genome orphan. */
  birthAtRoot: 0.72,
  birthOrphan: 0.04,
  /** `clade` breadth: the share of genes in families born at the root. */
  rootGeneShare: 0.02,
  /** Median duplications and losses per unit of root-to-tip branch length (log-normal per family). */
  duplicationRate: 0.45,
  lossRate: 0.25,
  rateSpread: 0.8,
  /** Branch length floor for event probabilities, so that short leaf branches still see events. */
  minEventBranch: 0.025,
  /** Substitutions per site from root to tip: uniform in this range per family. */
  substitutionRange: [0.05, 0.25] as const,
  conservedAcceptance: 0.35,
  indelRate: 1.2,
  /** Root sequence length: log-normal median and spread, clamped. */
  medianLength: 330,
  lengthSpread: 0.55,
  minRootLength: 80,
  maxRootLength: 900,
  minLength: 50,
  maxLength: 1200,
  /** Probability that the second copy of a duplication stays next to the first (tandem). */
  tandem: 0.6,
  /** Polyploid genomes: probability that a gene's copy in a subgenome is lost (fractionation). */
  homoeologLoss: 0.15,
};

interface EvolutionContext {
  tree: SpeciesTree;
  seed: number;
  breadth: FamilyBreadth;
  /** Internal nodes except the root, where younger families are born. */
  youngClades: SpeciesNode[];
  /** `clade` breadth: cumulative branch lengths above youngClades, for a weighted choice. */
  stemCumulative: Float64Array;
  /** `clade` breadth: probability that a family that is not an orphan is born at the root. */
  rootBirth: number;
  /** Kingdoms of each species node's genomes, by taxonomy id. */
  kingdoms: Map<number, Set<Kingdom>>;
}

export function evolutionContext(tree: SpeciesTree, seed: number, breadth: FamilyBreadth = "root"): EvolutionContext {
  const kingdoms = new Map<number, Set<Kingdom>>();
  for (const node of tree.nodes) {
    const set = new Set<Kingdom>();
    for (let g = node.firstGenome; g < node.firstGenome + node.leafCount; g++) {
      set.add(tree.leaves[g].organism!.kingdom);
    }
    kingdoms.set(node.taxonomyId, set);
  }
  const youngClades = tree.nodes.filter((n) => n !== tree.root && n.children.length > 0);
  const stemCumulative = new Float64Array(youngClades.length);
  let total = 0;
  youngClades.forEach((n, i) => (stemCumulative[i] = total += n.branchLength));
  // Root families span all N genomes, the others on average `span` (branch-weighted clade size):
  // p·N / (p·N + (1 − p)·span) = rootGeneShare.
  const span = youngClades.reduce((s, n) => s + n.branchLength * n.leafCount, 0) / total || 1;
  const r = MODEL.rootGeneShare;
  const n = tree.leaves.length;
  const rootBirth = youngClades.length > 0 ? (r * span) / (n * (1 - r) + r * span) : 1;
  return { tree, seed, breadth, youngClades, stemCumulative, rootBirth, kingdoms };
}

/** `clade` breadth: the root, or an internal node chosen by the length of the branch above it. */
function cladeBirth(ctx: EvolutionContext, rng: Rng): SpeciesNode {
  if (rng.float() < ctx.rootBirth) return ctx.tree.root;
  const cumulative = ctx.stemCumulative;
  const x = rng.float() * cumulative[cumulative.length - 1];
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return ctx.youngClades[lo];
}

/** Simulates family `number` (1-based); deterministic in (seed, number, tree). */
export function evolveFamily(ctx: EvolutionContext, number: number): Family {
  const rng = new Rng(ctx.seed, "family", number);
  const { tree } = ctx;

  // Birth place.
  let birth: SpeciesNode = tree.root;
  const u = rng.float();
  if (tree.leaves.length > 1) {
    if (u < MODEL.birthOrphan) birth = rng.pick(tree.leaves);
    else if (ctx.breadth === "clade") birth = cladeBirth(ctx, rng);
    else if (u >= MODEL.birthAtRoot + MODEL.birthOrphan && ctx.youngClades.length > 0) birth = rng.pick(ctx.youngClades);
  }

  // What the family is.
  const choices = archetypesFor(ctx.kingdoms.get(birth.taxonomyId)!);
  const archetype = choices[rng.weighted(choices.map((a) => a.weight))];
  const goTerms = rng.shuffle([...archetype.go]).slice(0, 1 + rng.int(Math.min(4, archetype.go.length)));

  // Root sequence and domain layout.
  const kinds = archetype.domains.map((k) => DOMAIN_KINDS[k]);
  const domainLengths = kinds.map((k) => Math.round(k.length * (0.9 + 0.2 * rng.float())));
  const needed = domainLengths.reduce((s, l) => s + l + 10, 0) + 30;
  let rootLength = Math.round(Math.exp(Math.log(MODEL.medianLength) + MODEL.lengthSpread * rng.normal()));
  rootLength = Math.max(MODEL.minRootLength, Math.min(MODEL.maxRootLength, rootLength));
  rootLength = Math.max(rootLength, needed);
  const domains: FamilyDomain[] = [];
  {
    const slack = rootLength - needed;
    let at = 15;
    for (let i = 0; i < kinds.length; i++) {
      at += Math.floor(rng.float() * (slack / kinds.length));
      domains.push({ kind: kinds[i], start: at, end: at + domainLengths[i] });
      at += domainLengths[i] + 10;
    }
  }
  const root = randomProtein(rng, rootLength);

  const model: MutationModel = {
    rate: MODEL.substitutionRange[0] + (MODEL.substitutionRange[1] - MODEL.substitutionRange[0]) * rng.float(),
    conservedAcceptance: MODEL.conservedAcceptance,
    indelRate: MODEL.indelRate,
    minLength: MODEL.minLength,
    maxLength: MODEL.maxLength,
  };
  const duplicationRate = MODEL.duplicationRate * Math.exp(MODEL.rateSpread * rng.normal() - MODEL.rateSpread ** 2 / 2);
  const lossRate = MODEL.lossRate * Math.exp(0.5 * rng.normal() - 0.125);
  // A family may not grow beyond a few copies per genome of its clade.
  const maxDuplications = 3 * birth.leafCount + 4;

  const family: Family = {
    number,
    birth,
    archetype,
    goTerms,
    domains,
    rootLength,
    tree: null,
    genes: [],
    genomeCount: 0,
    duplications: 0,
    losses: 0,
  };
  const symbolBase = `SIMF${number}`;
  let nextLetter = 1;
  const letter = (i: number): string => {
    let s = "";
    i++;
    while (i > 0) {
      i--;
      s = String.fromCharCode(65 + (i % 26)) + s;
      i = Math.floor(i / 26);
    }
    return s;
  };

  const evolve = (seq: Uint8Array, branch: number) =>
    mutate(rng, seq, branch, model, rootLength, domains);

  const leaf = (seq: Uint8Array, node: SpeciesNode, symbol: string, key: number, subgenome: string): GeneNode => {
    const gene: Gene = {
      family,
      genome: node.genome,
      protein: seq,
      symbol,
      key: key + 0.002 * rng.normal(),
      rank: -1,
      proteinId: "",
      xmlId: "",
      isoforms: 0,
      subgenome,
    };
    return { kind: LEAF, species: node, children: [], gene };
  };

  const speciate = (seq: Uint8Array, node: SpeciesNode, symbol: string, key: number): GeneNode | null => {
    const children: GeneNode[] = [];
    const last = node.children.length - 1;
    node.children.forEach((child, i) => {
      const copy = i === last ? seq : seq.slice();
      // A polyploid leaf's branch first runs down to its subgenomes' split (homoeologs).
      const result = branch(copy, child, child.branchLength - child.homoeologHeight, symbol, key, "");
      if (result) children.push(result);
    });
    if (children.length === 0) return null;
    if (children.length === 1) return children[0];
    return { kind: SPECIATION, species: node, children, gene: null };
  };

  // A polyploid leaf's lineage at the split of the subgenomes' progenitors: one copy per subgenome.
  const homoeologs = (seq: Uint8Array, node: SpeciesNode, symbol: string, key: number): GeneNode | null => {
    const children: GeneNode[] = [];
    const last = node.subgenomes.length - 1;
    node.subgenomes.forEach((subgenome, i) => {
      if (rng.float() < MODEL.homoeologLoss) {
        family.losses++;
        return;
      }
      const copy = i === last ? seq : seq.slice();
      const result = branch(copy, node, node.homoeologHeight, symbol, key, subgenome);
      if (result) children.push(result);
    });
    if (children.length === 0) return null;
    if (children.length === 1) return children[0];
    return { kind: SPECIATION, species: node, children, gene: null };
  };

  // The lineage runs down `length` of the branch above `node`; `subgenome` is set below a
  // polyploid leaf's split (where the lineage is one subgenome's copy), "" above it.
  const branch = (seq: Uint8Array, node: SpeciesNode, length: number, symbol: string, key: number, subgenome: string): GeneNode | null => {
    const eventLength = Math.max(length, MODEL.minEventBranch);
    seq = evolve(seq, length / 2);
    if (family.duplications < maxDuplications && rng.float() < Math.min(0.5, duplicationRate * eventLength)) {
      family.duplications++;
      const otherSymbol = node.children.length > 0 ? symbolBase + letter(nextLetter++) : symbol;
      const otherKey = rng.float() < MODEL.tandem ? key + 1e-7 * (1 + rng.float()) : rng.float();
      const a = branch(seq, node, length / 2, symbol, key, subgenome);
      const b = branch(seq.slice(), node, length / 2, otherSymbol, otherKey, subgenome);
      return duplication(node, a, b);
    }
    if (rng.float() < Math.min(0.5, lossRate * eventLength)) {
      family.losses++;
      return null;
    }
    seq = evolve(seq, length / 2);
    if (node.children.length > 0) return speciate(seq, node, symbol, key);
    if (node.subgenomes.length > 0 && subgenome === "") return homoeologs(seq, node, symbol, key);
    return leaf(seq, node, symbol, key, subgenome);
  };

  const symbol = symbolBase + letter(0);
  const key = rng.float();
  if (birth.children.length > 0) family.tree = speciate(root, birth, symbol, key);
  else family.tree = leaf(root, birth, symbol, key, birth.subgenomes.length > 0 ? rng.pick(birth.subgenomes) : "");

  if (family.tree) {
    const genomes = new Set<number>();
    const collect = (n: GeneNode): void => {
      if (n.gene) {
        family.genes.push(n.gene);
        genomes.add(n.gene.genome);
      }
      for (const c of n.children) collect(c);
    };
    collect(family.tree);
    family.genomeCount = genomes.size;
  }
  return family;
}

function duplication(node: SpeciesNode, a: GeneNode | null, b: GeneNode | null): GeneNode | null {
  if (!a) return b;
  if (!b) return a;
  const children: GeneNode[] = [];
  for (const c of [a, b]) {
    if (c.kind === DUPLICATION) children.push(...c.children);
    else children.push(c);
  }
  return { kind: DUPLICATION, species: node, children, gene: null };
}
