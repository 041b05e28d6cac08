/**
 * A large HOG family made up for the drawing's bounds: a random taxonomy of `genomes` species
 * (a binary tree) and one family over all of it, with a speciation node on every level, a
 * duplication on a branch with probability `duplication` and a lost child lineage with
 * probability `loss`. Deterministic for a seed.
 */
import { DUPLICATION, SPECIATION, type FamilyRow, type GenomeInfo, type HogNode, type ProteinSummary, type Taxonomy } from "../release-format/format.js";

export interface SyntheticFamily {
  family: FamilyRow;
  taxonomy: Taxonomy;
  genomes: GenomeInfo[];
  /** Species level of each member. */
  speciesOf: Int32Array;
}

export function syntheticFamily(genomes: number, duplication: number, loss: number, seed = 7): SyntheticFamily {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const names: string[] = [];
  const parents: number[] = [];
  const genomeOf: number[] = [];
  const infos: GenomeInfo[] = [];
  const clade = (n: number, parent: number): void => {
    const level = names.length;
    parents.push(parent);
    genomeOf.push(-1);
    if (n === 1) {
      const code = `S${String(infos.length).padStart(4, "0")}`;
      names.push(`Species ${code.toLowerCase()}`);
      genomeOf[level] = infos.length;
      infos.push({ code, taxonId: 100000 + infos.length, species: names[level], firstEntry: 0, nrEntries: 0, level, nrGenes: 0, subgenomes: [] });
      return;
    }
    names.push(`Clade ${level}`);
    const left = Math.max(1, Math.min(n - 1, Math.round(n * (0.25 + random() * 0.5))));
    clade(left, level);
    clade(n - left, level);
  };
  clade(genomes, -1);
  const taxonomy: Taxonomy = { names, parents, genomes: genomeOf, taxonIds: names.map((_, i) => -(i + 1)) };
  const children: number[][] = names.map(() => []);
  parents.forEach((p, i) => p >= 0 && children[p].push(i));

  const nodes: HogNode[] = [];
  const members: ProteinSummary[] = [];
  const species: number[] = [];
  const gene = (level: number) => {
    const entry = members.length + 1;
    members.push({ entry, canonicalId: `${infos[genomeOf[level]].code}_${entry}`, md5: "", length: 300, group: 0, hog: "", chromosome: "", locus: [0, 0, 0], isMain: true });
    species.push(level);
  };
  const speciation = (level: number, id: string, parent: number) => {
    const at = nodes.length;
    nodes.push({ kind: SPECIATION, parent, lo: members.length, hi: 0, id, level, levels: [level], completeness: 1 });
    below(level, id, at);
    nodes[at].hi = members.length;
  };
  const below = (level: number, id: string, parent: number) => {
    for (const k of children[level]) {
      if (random() < loss) continue;
      if (!children[k].length) {
        gene(k);
        continue;
      }
      if (random() < duplication) {
        const at = nodes.length;
        nodes.push({ kind: DUPLICATION, parent, lo: members.length, hi: 0, id: "", level: -1, levels: [], completeness: -1 });
        speciation(k, `${id}.${k}a`, at);
        speciation(k, `${id}.${k}b`, at);
        nodes[at].hi = members.length;
      } else speciation(k, id, parent);
    }
  };
  const rootId = "HOG:0000001";
  nodes.push({ kind: SPECIATION, parent: -1, lo: 0, hi: 0, id: rootId, level: 0, levels: [0], completeness: 1 });
  below(0, rootId, 0);
  nodes[0].hi = members.length;
  return {
    family: { family: 1, rootId, rootHog: 1, description: "synthetic family", nodes, entries: members.map((m) => m.entry), members, firstMember: -1 },
    taxonomy,
    genomes: infos,
    speciesOf: Int32Array.from(species),
  };
}

/**
 * The widest drawing there is: a root level with one clade of `species` species directly below
 * it, and the family duplicated `copies` times on the branch to that clade, each copy with one
 * gene in every species (so every cell of the drawing holds a gene).
 */
export function flatFamily(species: number, copies: number): SyntheticFamily {
  const names = ["Root", "Clade", ...Array.from({ length: species }, (_, i) => `Species s${String(i).padStart(4, "0")}`)];
  const parents = [-1, 0, ...Array.from({ length: species }, () => 1)];
  const infos: GenomeInfo[] = [];
  const genomeOf = names.map((name, level) => {
    if (level < 2) return -1;
    infos.push({ code: `S${String(level - 2).padStart(4, "0")}`, taxonId: 100000 + level, species: name, firstEntry: 0, nrEntries: 0, level, nrGenes: 0, subgenomes: [] });
    return infos.length - 1;
  });
  const taxonomy: Taxonomy = { names, parents, genomes: genomeOf, taxonIds: names.map((_, i) => -(i + 1)) };
  const rootId = "HOG:0000001";
  const total = species * copies;
  const nodes: HogNode[] = [
    { kind: SPECIATION, parent: -1, lo: 0, hi: total, id: rootId, level: 0, levels: [0], completeness: 1 },
    { kind: DUPLICATION, parent: 0, lo: 0, hi: total, id: "", level: -1, levels: [], completeness: -1 },
  ];
  const members: ProteinSummary[] = [];
  const speciesOf: number[] = [];
  for (let c = 0; c < copies; c++) {
    nodes.push({ kind: SPECIATION, parent: 1, lo: c * species, hi: (c + 1) * species, id: `${rootId}.${c + 1}a`, level: 1, levels: [1], completeness: 1 });
    for (let s = 0; s < species; s++) {
      const entry = members.length + 1;
      members.push({ entry, canonicalId: `${infos[s].code}_${entry}`, md5: "", length: 300, group: 0, hog: "", chromosome: "", locus: [0, 0, 0], isMain: true });
      speciesOf.push(s + 2);
    }
  }
  return { family: { family: 1, rootId, rootHog: 1, description: "flat family", nodes, entries: members.map((m) => m.entry), members, firstMember: -1 }, taxonomy, genomes: infos, speciesOf: Int32Array.from(speciesOf) };
}
