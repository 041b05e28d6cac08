import { badRequest, echo, notFound } from "../errors.js";
import type { Taxonomy } from "../../release-format/format.js";
import { isAncestorOrSelf } from "../../release-format/taxonomy.js";
import type { Release } from "./release.js";

/**
 * The species taxonomy as a tree to serve: the whole tree below a root level, or the subtree
 * induced by some members, with single-child levels collapsed. A level's `id` everywhere is its
 * taxon id (`manifest.taxonomy.taxonIds`: NCBI ids for species, the tree's numeric label or a
 * negative release-local id for internal levels).
 */
export interface TaxonNode {
  level: number;
  /** Genome index of the level, -1 for none. */
  genome: number;
  /** The extra leaf that stands for the genome of a level that also has levels below it. */
  disambiguates: boolean;
  children: TaxonNode[];
}

/** Child levels of each level, in tree order; computed once per manifest. */
const childLists = new WeakMap<Taxonomy, number[][]>();

function childrenOf(t: Taxonomy): number[][] {
  let out = childLists.get(t);
  if (!out) {
    out = t.names.map(() => []);
    t.parents.forEach((p, i) => p >= 0 && out![p].push(i));
    childLists.set(t, out);
  }
  return out;
}

const TAXON_ID = /^-?[0-9]{1,12}$/;

/** A level by name or species code, else by taxon id; undefined when unknown. */
export function levelOf(release: Release, id: string): number | undefined {
  const byName = release.levelByName.get(id);
  if (byName !== undefined) return byName;
  if (!TAXON_ID.test(id)) return undefined;
  const at = release.manifest.taxonomy.taxonIds.indexOf(Number(id));
  return at >= 0 ? at : undefined;
}

/** The root of the whole tree (the level without parent). */
export function rootLevel(release: Release): number {
  return release.manifest.taxonomy.parents.indexOf(-1);
}

/** `root_id`: a taxon id, scientific name, species code, or `LUCA` (the whole tree). Unknown → 404. */
export function resolveTaxonRoot(release: Release, id: string): number {
  const level = levelOf(release, id) ?? (id.toUpperCase() === "LUCA" ? rootLevel(release) : undefined);
  if (level === undefined) throw notFound(`root level '${echo(id)}' not found`);
  return level;
}

/**
 * The `members` parameter: each value a comma-separated list (a value that is itself a known
 * name is taken whole, for names with commas). Unknown members → 400.
 */
export function resolveTaxonMembers(release: Release, values: string[]): number[] {
  const out: number[] = [];
  for (const value of values) {
    const whole = levelOf(release, value.trim());
    const parts = whole !== undefined ? [value.trim()] : value.split(",").map((s) => s.trim()).filter(Boolean);
    for (const part of parts) {
      const level = levelOf(release, part);
      if (level === undefined) {
        throw badRequest(`Unknown member '${echo(part)}': not a taxon id, species code or scientific name of this release.`);
      }
      out.push(level);
    }
  }
  return out;
}

/**
 * The tree below `root`. With members, only the levels on the paths from the root to them
 * (a member that is an internal level becomes a leaf unless other members lie below it).
 * A level that is also a genome and has levels below it gets an extra leaf for the genome
 * (when the genome is asked for). With `collapse`, a level with a single child gives way to
 * that child, the root included, unless it was asked for as a member.
 */
export function taxonomyTree(release: Release, root: number, members: number[] | undefined, collapse: boolean): TaxonNode {
  const t = release.manifest.taxonomy;
  const children = childrenOf(t);
  let kept: Set<number> | undefined;
  const asked = new Set(members ?? []);
  if (members && members.length) {
    kept = new Set();
    for (const m of members) {
      if (!isAncestorOrSelf(t, root, m)) {
        throw badRequest(`Member '${t.names[m]}' is not below the root level '${t.names[root]}'.`);
      }
      for (let l = m; l >= 0 && !kept.has(l); l = t.parents[l]) {
        kept.add(l);
        if (l === root) break;
      }
    }
  }
  const build = (level: number): TaxonNode => {
    const below = children[level].filter((c) => !kept || kept.has(c)).map(build);
    const genome = t.genomes[level];
    if (genome >= 0 && below.length && (!kept || asked.has(level))) {
      below.push({ level, genome, disambiguates: true, children: [] });
    }
    const node: TaxonNode = { level, genome, disambiguates: false, children: below };
    if (collapse && below.length === 1 && !asked.has(level)) return below[0];
    return node;
  };
  return build(root);
}
