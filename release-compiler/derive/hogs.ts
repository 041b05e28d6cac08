import { DUPLICATION, SPECIATION, type HogNode } from "../../release-format/format.js";
import { isAncestorOrSelf, mrcaLevel } from "../../release-format/taxonomy.js";
import type { HogXmlGroup, HogXmlNode, OrthoXmlTaxon } from "../inputs.js";
import type { Problems } from "../problems.js";
import { hogTree, type HogTree } from "./hog-columns.js";
import type { TaxonomyBuild } from "./taxonomy.js";

/** A HOG family (root HOG) as derived from one top-level orthoXML group. */
export interface FamilyBuild {
  /** 1-based, in document order. */
  index: number;
  rootId: string;
  rootHog: number;
  /** Its nodes in preorder, as columns (hog-columns.ts). */
  tree: HogTree;
  /** Entry numbers in tree order; node i covers members[lo, hi), where [lo, hi) is nodeMembers(tree, i). */
  members: Int32Array;
  /** For each member, the index of its deepest speciation node (its own HOG). */
  memberNode: Int32Array;
}

/** What HOG derivation needs to know about the proteins and the taxonomy. */
interface HogContext {
  taxonomy: TaxonomyBuild;
  /** Release letters inserted after `HOG:` ("" for none). */
  prefix: string;
  /** orthoXML gene id → entry number (undefined when the protein is unknown; already reported). */
  entryOfGene: (geneId: string) => number | undefined;
  /** Genome index of an entry. */
  genomeOf: (entry: number) => number;
  /** orthoXML taxonomy id → name. */
  taxonNames: Map<string, string>;
  file: string;
  problems: Problems;
}

const GIVEN_ID = /^HOG:([A-Z]*)(\d+)((?:\.\d+[a-z]+)*)(?:_.*)?$/;

/**
 * The HOG id written in orthoXML without its `_<taxon>` suffix, carrying this release's
 * letters (`HOG:0000003.1a_11` → `HOG:E0000003.1a`); letters of another release are replaced.
 */
export function normaliseHogId(raw: string, prefix: string): string | undefined {
  const m = GIVEN_ID.exec(raw);
  if (!m) return undefined;
  return `HOG:${prefix}${m[2]}${m[3]}`;
}

/** `a`, `b`, … `z`, `aa`, `ab`, … for the copies of one duplication. */
export function copyLetter(i: number): string {
  let s = "";
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(97 + ((n - 1) % 26)) + s;
  return s;
}

export function orthoXmlTaxonNames(taxonomy: OrthoXmlTaxon[]): Map<string, string> {
  const names = new Map<string, string>();
  const visit = (t: OrthoXmlTaxon): void => {
    names.set(t.id, t.name);
    t.children.forEach(visit);
  };
  taxonomy.forEach(visit);
  return names;
}

/**
 * Turns one top-level orthoXML group into a family: nodes in preorder with their HOG ids,
 * levels and member ranges. Ids come from the orthoXML where the root carries a HOG id;
 * otherwise they are generated from the family number with the usual `.1a` suffixes.
 * Directly nested paralogGroups are one duplication event; a gene directly below a
 * duplication becomes a sub-HOG of its own at its species level.
 */
export function buildFamily(root: HogXmlNode, index: number, ctx: HogContext): FamilyBuild | undefined {
  const { taxonomy, problems, file } = ctx;
  if (root.kind === "geneRef") {
    problems.report(file, root.line, "a geneRef directly inside <groups> is not a HOG");
    return undefined;
  }
  const givenRoot = root.kind === "orthologGroup" && root.id ? normaliseHogId(root.id, ctx.prefix) : undefined;
  const useGiven = givenRoot !== undefined;
  // The ids the file gives: a generated copy id must not take one (FastOMA letters the copies
  // of nested paralogGroups its own way, so positional letters can meet its ids).
  const givenIds = new Set<string>();
  const collectGiven = (n: HogXmlNode): void => {
    if (n.kind === "geneRef") return;
    const given = n.kind === "orthologGroup" && n.id ? normaliseHogId(n.id, ctx.prefix) : undefined;
    if (given !== undefined) givenIds.add(given);
    n.children.forEach(collectGiven);
  };
  if (useGiven) collectGiven(root);
  const rootId = givenRoot ?? `HOG:${ctx.prefix}${String(index).padStart(7, "0")}`;
  const rootHog = Number(/^HOG:[A-Z]*(\d+)/.exec(rootId)?.[1] ?? index);

  const nodes: HogNode[] = [];
  const members: number[] = [];
  const memberNode: number[] = [];

  const levelOf = (g: HogXmlGroup): number | undefined => {
    const name = g.taxRange ?? (g.taxonId !== undefined ? ctx.taxonNames.get(g.taxonId) : undefined);
    if (name === undefined) return undefined;
    const level = taxonomy.byName.get(name);
    if (level === undefined) problems.report(file, g.line, `level '${name}' is not in the species tree`);
    return level;
  };

  /** Genome levels of all genes below a node, to place groups without a level. */
  const speciesLevels = (n: HogXmlNode, out: number[]): number[] => {
    if (n.kind === "geneRef") {
      const entry = ctx.entryOfGene(n.ref);
      if (entry !== undefined) out.push(taxonomy.genomeLevels[ctx.genomeOf(entry)]);
    } else n.children.forEach((c) => speciesLevels(c, out));
    return out;
  };
  const mrcaOf = (n: HogXmlNode): number => {
    const levels = speciesLevels(n, []);
    return levels.length ? levels.reduce((a, b) => mrcaLevel(taxonomy, a, b)) : -1;
  };

  /** Levels skipped between a node at `level` and the speciation above it at `above` (exclusive both). */
  const skippedLevels = (level: number, above: number): number[] => {
    const out: number[] = [];
    for (let l = taxonomy.parents[level]; l >= 0 && l !== above; l = taxonomy.parents[l]) out.push(l);
    return out.reverse();
  };

  const addSpeciation = (
    id: string,
    level: number,
    parent: number,
    aboveLevel: number,
    completeness: number | undefined,
    line: number,
  ): number => {
    // Within one species a HOG may nest in another on the same (species) level: the subgenomes
    // of a polyploid genome split by speciation, and a copy may duplicate after that split.
    const withinSpecies = level === aboveLevel && taxonomy.genomes[level] >= 0;
    if (aboveLevel >= 0 && level >= 0 && !withinSpecies && (level === aboveLevel || !isAncestorOrSelf(taxonomy, aboveLevel, level))) {
      problems.report(
        file,
        line,
        `level '${taxonomy.names[level]}' of HOG ${id} is not below level '${taxonomy.names[aboveLevel]}' of the HOG containing it`,
      );
    }
    const skipped = aboveLevel >= 0 && level >= 0 && !withinSpecies ? skippedLevels(level, aboveLevel) : [];
    const levels = [...skipped, level];
    nodes.push({ kind: SPECIATION, parent, lo: members.length, hi: -1, id, level, levels, completeness: completeness ?? -1 });
    return nodes.length - 1;
  };

  const addGene = (ref: string, node: number, line: number): void => {
    const entry = ctx.entryOfGene(ref);
    if (entry === undefined) return;
    const level = nodes[node].level;
    const species = taxonomy.genomeLevels[ctx.genomeOf(entry)];
    if (level >= 0 && !isAncestorOrSelf(taxonomy, level, species)) {
      problems.report(file, line, `gene ${ref} of ${taxonomy.names[species]} is not below level '${taxonomy.names[level]}' of HOG ${nodes[node].id}`);
    }
    members.push(entry);
    memberNode.push(node);
  };

  /**
   * Walks a speciation node's children. `id` is the node's HOG id; the duplications directly
   * below that id (on any of its nodes, in document order) are numbered 1, 2, … and their
   * copies lettered a, b, ….
   */
  /** Duplications seen so far directly below each HOG id (an id may span several nodes). */
  const duplicationsBelow = new Map<string, number>();

  const walkSpeciation = (g: HogXmlGroup, self: number, id: string, level: number): void => {
    for (const child of withImplicitDuplication(g.children)) {
      if (child.kind === "geneRef") addGene(child.ref, self, child.line);
      else if (child.kind === "orthologGroup") {
        const childId = (useGiven && child.id ? normaliseHogId(child.id, ctx.prefix) : undefined) ?? id;
        walkGroup(child, self, level, childId);
      } else {
        const n = (duplicationsBelow.get(id) ?? 0) + 1;
        duplicationsBelow.set(id, n);
        walkDuplication(child, self, level, `${id}.${n}`);
      }
    }
  };

  /**
   * Two orthologGroups directly below one speciation whose levels overlap (the same level, or
   * one above the other) can only come from a duplication the file does not record: they
   * become the copies of one implicit paralogGroup, placed where the first of them stood.
   */
  const withImplicitDuplication = (children: HogXmlNode[]): HogXmlNode[] => {
    const groups = children.filter((c): c is HogXmlGroup => c.kind === "orthologGroup");
    if (groups.length < 2) return children;
    const levels = groups.map((c) => levelOf(c) ?? mrcaOf(c));
    const overlapping = new Set<HogXmlGroup>();
    groups.forEach((a, i) =>
      groups.forEach((b, j) => {
        if (i !== j && levels[i] >= 0 && isAncestorOrSelf(taxonomy, levels[i], levels[j])) overlapping.add(a).add(b);
      }),
    );
    if (overlapping.size === 0) return children;
    const copies = groups.filter((c) => overlapping.has(c));
    const implicit: HogXmlGroup = { kind: "paralogGroup", children: copies, line: copies[0].line };
    return children.flatMap((c) => (c === copies[0] ? [implicit] : overlapping.has(c as HogXmlGroup) ? [] : [c]));
  };

  const walkGroup = (
    g: HogXmlGroup,
    parent: number,
    aboveLevel: number,
    id: string,
  ): void => {
    const level = levelOf(g) ?? mrcaOf(g);
    const self = addSpeciation(id, level, parent, aboveLevel, g.completeness, g.line);
    walkSpeciation(g, self, id, level);
    nodes[self].hi = members.length;
  };

  const walkDuplication = (
    d: HogXmlGroup,
    parent: number,
    aboveLevel: number,
    copyPrefix: string,
  ): void => {
    const self = nodes.length;
    nodes.push({ kind: DUPLICATION, parent, lo: members.length, hi: -1, id: "", level: -1, levels: [], completeness: -1 });
    // Directly nested paralogGroups are one duplication event with all their copies.
    const copies: HogXmlNode[] = [];
    const flatten = (n: HogXmlNode): void => {
      if (n.kind === "paralogGroup") n.children.forEach(flatten);
      else copies.push(n);
    };
    d.children.forEach(flatten);
    // A copy whose letter names a given id takes the next letter after all copies that is free.
    let spare = copies.length;
    const freeId = (id: string): string => {
      if (!givenIds.has(id)) return id;
      while (givenIds.has(`${copyPrefix}${copyLetter(spare)}`)) spare++;
      return `${copyPrefix}${copyLetter(spare++)}`;
    };
    copies.forEach((copy, i) => {
      const generated = `${copyPrefix}${copyLetter(i)}`;
      if (copy.kind === "orthologGroup") {
        const given = useGiven && copy.id ? normaliseHogId(copy.id, ctx.prefix) : undefined;
        walkGroup(copy, self, aboveLevel, given ?? freeId(generated));
      } else if (copy.kind === "geneRef") {
        const entry = ctx.entryOfGene(copy.ref);
        if (entry === undefined) return;
        const level = taxonomy.genomeLevels[ctx.genomeOf(entry)];
        const node = addSpeciation(freeId(generated), level, self, aboveLevel, undefined, copy.line);
        addGene(copy.ref, node, copy.line);
        nodes[node].hi = members.length;
      }
    });
    nodes[self].hi = members.length;
  };

  if (root.kind === "orthologGroup") {
    walkGroup(root, -1, -1, rootId);
  } else {
    // A duplication at the top: the family's root HOG is implied at the MRCA of its genes, or
    // at the paralogGroup's own TaxRange (and score) when it gives one (the HOG that duplicated,
    // as the worker's orthoXML writes it).
    const level = (root.taxRange !== undefined || root.taxonId !== undefined ? levelOf(root) : undefined) ?? mrcaOf(root);
    const self = addSpeciation(rootId, level, -1, -1, root.taxRange !== undefined ? root.completeness : undefined, root.line);
    walkDuplication(root, self, level, `${rootId}.1`);
    nodes[self].hi = members.length;
  }
  if (members.length === 0) {
    problems.report(file, root.line, `HOG ${rootId} has no known genes`);
    return undefined;
  }
  fillCompleteness(nodes, members, ctx);
  return { index, rootId, rootHog, tree: hogTree(nodes), members: Int32Array.from(members), memberNode: Int32Array.from(memberNode) };
}

/** CompletenessScore where the input has none: the fraction of the level's genomes with a member. */
function fillCompleteness(nodes: HogNode[], members: number[], ctx: HogContext): void {
  const genomesBelow = new Map<number, number>();
  const countGenomes = (level: number): number => {
    let n = genomesBelow.get(level);
    if (n === undefined) {
      n = ctx.taxonomy.genomeLevels.filter((g) => isAncestorOrSelf(ctx.taxonomy, level, g)).length;
      genomesBelow.set(level, n);
    }
    return n;
  };
  for (const node of nodes) {
    if (node.kind !== SPECIATION || node.completeness >= 0 || node.level < 0) continue;
    const present = new Set(members.slice(node.lo, node.hi).map(ctx.genomeOf));
    node.completeness = Math.round((present.size / Math.max(1, countGenomes(node.level))) * 1e4) / 1e4;
  }
}
