/**
 * Synthetic organisms, for simulations larger than the real-organism catalog (organisms.ts):
 * `--genomes N` above ORGANISMS.length takes the real organisms, then the first
 * N − ORGANISMS.length synthetic ones. Each synthetic species belongs to the radiation of one
 * real organism, its anchor: a clade that replaces the anchor's leaf in the real tree and holds
 * the anchor and its synthetic relatives (sister species radiating inside the real clades).
 *
 * - **Codes** `0` + four letters (`0AAAA`, `0AAAB`, …, in `--genomes` order): UniProt's species
 *   codes begin with a letter (or with `9` for its virtual higher-taxon codes), so a code
 *   beginning with `0` never clashes with a real one; the letters keep it from looking like a
 *   number.
 * - **Taxon ids** SYNTHETIC_TAXON_BASE + 1, + 2, … (1,000,000,001 …): NCBI Taxonomy ids are
 *   below 10^8 today; the block [10^9, 10^9 + 10^6) is reserved for synthetic species.
 * - **Scientific names**: the anchor's genus and an invented epithet, unique (`Homo focelina`).
 * - **Kingdom and chromosomes**: the anchor's; UniProt OC lines give the anchor's lineage.
 * - **How many per anchor**: prokaryotes radiate more than eukaryotes (weights E 1, B 6, A 3:
 *   8, 45 and 23 synthetic relatives an organism), so that 2,500 genomes hold 912 eukaryotes,
 *   1,426 bacteria and 162 archaea, prokaryote-rich like a large all-of-life release. Synthetic
 *   species are dealt to the anchors by smooth weighted round robin, so any prefix
 *   (`--genomes 300`) spreads them over the whole tree.
 * - **Radiation clades** are named `<anchor code> radiation` and, below it, `<anchor code>
 *   radiation <k>` (k = 1, 2, … in preorder of the full radiation). A radiation starts at
 *   0.3–0.8 × the age of the anchor's real parent clade; below it the tree splits at random
 *   (uniform split sizes), each subclade 0.2–0.9 × the age of its parent, leaves at age 0, so
 *   the tree stays ultrametric. Everything comes from a fixed random stream, not from the
 *   simulation seed: the species tree depends on N alone, as for real organisms.
 *
 * Restricted to the real organisms (N ≤ ORGANISMS.length), every radiation has a single chosen
 * leaf, the anchor, and collapses onto it: the tree, and so the whole simulation, is exactly
 * that of the real catalog.
 */
import { CLADES, ORGANISMS, type Kingdom, type Organism } from "./organisms.js";
import { Rng } from "./rng.js";

/** Largest `--genomes` value: real organisms plus synthetic ones (at most 4,225 epithets). */
export const MAX_ORGANISMS = 2500;

/** Synthetic taxon ids are SYNTHETIC_TAXON_BASE + 1 …: above every NCBI Taxonomy id. */
export const SYNTHETIC_TAXON_BASE = 1_000_000_000;

/** Synthetic species per real organism, by kingdom (relative weights). */
const RADIATION_WEIGHT: Record<Kingdom, number> = { E: 1, B: 6, A: 3 };

export interface SyntheticOrganism extends Organism {
  /** Code of the real organism whose radiation it belongs to. */
  anchor: string;
}

export type Clade = readonly [name: string, age: number, children: readonly string[]];

export interface Catalog {
  /** Organisms in `--genomes` order. */
  organisms: readonly Organism[];
  /** The tree as clades (organisms.ts's CLADES format). */
  clades: readonly Clade[];
}

/** The real organisms and tree only (organisms.ts). */
export const REAL_CATALOG: Catalog = { organisms: ORGANISMS, clades: CLADES };

const CONSONANTS = "bcdfglmnprstv";
const VOWELS = "aeiou";
const SUFFIXES = ["lensis", "rica", "nata", "toides", "rella", "ricus", "nia", "lina"];

/** Synthetic species code: `0` + i in four base-26 letters. */
export function syntheticCode(i: number): string {
  let s = "";
  for (let k = 0; k < 4; k++) {
    s = String.fromCharCode(65 + (i % 26)) + s;
    i = Math.floor(i / 26);
  }
  return `0${s}`;
}

/**
 * An invented species epithet: two syllables that i determines (a bijection of [0, 65²), so
 * epithets are unique), then a suffix.
 */
function epithet(i: number, rng: Rng): string {
  const syllable = (k: number): string => CONSONANTS[Math.floor(k / VOWELS.length)] + VOWELS[k % VOWELS.length];
  const n = CONSONANTS.length * VOWELS.length;
  const j = (i * 2477) % (n * n); // 2477 is prime to 65² = 4225
  return syllable(Math.floor(j / n)) + syllable(j % n) + rng.pick(SUFFIXES);
}

/** Which anchor each synthetic species radiates from, in `--genomes` order (smooth weighted round robin). */
function dealAnchors(count: number): number[] {
  const weights = ORGANISMS.map((o) => RADIATION_WEIGHT[o.kingdom]);
  const total = weights.reduce((s, w) => s + w, 0);
  const current = weights.map(() => 0);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    let best = 0;
    for (let a = 0; a < weights.length; a++) {
      current[a] += weights[a];
      if (current[a] > current[best]) best = a;
    }
    current[best] -= total;
    out.push(best);
  }
  return out;
}

let full: Catalog | null = null;

/** The real catalog extended with MAX_ORGANISMS − ORGANISMS.length synthetic organisms. */
export function fullCatalog(): Catalog {
  if (full) return full;
  const rng = new Rng("synthetic organisms", 1);
  const anchors = dealAnchors(MAX_ORGANISMS - ORGANISMS.length);
  const synthetic: SyntheticOrganism[] = anchors.map((a, i) => {
    const anchor = ORGANISMS[a];
    return {
      code: syntheticCode(i),
      taxonId: SYNTHETIC_TAXON_BASE + i + 1,
      scientificName: `${anchor.scientificName.split(" ")[0]} ${epithet(i, rng)}`,
      kingdom: anchor.kingdom,
      chromosomes: anchor.chromosomes,
      anchor: anchor.code,
    };
  });

  const parentAge = new Map<string, number>();
  for (const [, age, children] of CLADES) for (const c of children) parentAge.set(c, age);
  const relatives = new Map<string, string[]>();
  for (const s of synthetic) {
    const list = relatives.get(s.anchor);
    if (list) list.push(s.code);
    else relatives.set(s.anchor, [s.code]);
  }

  // Radiations, in catalog order of their anchors.
  const radiations: Clade[] = [];
  const radiationOf = new Map<string, string>();
  for (const anchor of ORGANISMS) {
    const members = relatives.get(anchor.code);
    if (!members) continue;
    const leaves = [anchor.code, ...members];
    const order = new Map(leaves.map((code, i) => [code, i]));
    let next = 1;
    // Splits `part` (in catalog order) into two random parts below a clade of age `age`.
    const split = (name: string, age: number, part: string[]): void => {
      const at = radiations.length;
      radiations.push([name, age, []]);
      const shuffled = rng.shuffle([...part]);
      const size = 1 + rng.int(part.length - 1);
      const parts = [shuffled.slice(0, size), shuffled.slice(size)].map((p) => p.sort((x, y) => order.get(x)! - order.get(y)!));
      // The part holding the earlier leaf first (the anchor comes first in its radiation).
      if (order.get(parts[0][0])! > order.get(parts[1][0])!) parts.reverse();
      const children = parts.map((p) => {
        if (p.length === 1) return p[0];
        const child = `${anchor.code} radiation ${next++}`;
        split(child, age * (0.2 + 0.7 * rng.float()), p);
        return child;
      });
      radiations[at] = [name, age, children];
    };
    const name = `${anchor.code} radiation`;
    radiationOf.set(anchor.code, name);
    split(name, parentAge.get(anchor.code)! * (0.3 + 0.5 * rng.float()), leaves);
  }

  const clades: Clade[] = CLADES.map(([name, age, children]) => [name, age, children.map((c) => radiationOf.get(c) ?? c)]);
  full = { organisms: [...ORGANISMS, ...synthetic], clades: [...clades, ...radiations] };
  return full;
}
