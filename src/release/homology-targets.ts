/**
 * `target_species` and `target_level`: the partner genomes an ortholog answer keeps (what
 * users of homology services ask for instead of filtering whole answers themselves). Both
 * narrow: with both, a partner must be of one of the species and below the level.
 */
import { isAncestorOrSelf } from "../../release-format/taxonomy.js";
import type { GenomeInfo } from "../../release-format/format.js";
import { badRequest, echo } from "../errors.js";
import type { Release } from "./release.js";
import { levelOf } from "./taxonomy.js";

/** Whether a partner's genome is kept; undefined when neither parameter is given (keep all). */
export type TargetFilter = ((genome: GenomeInfo) => boolean) | undefined;

/**
 * The filter of `target_species` (species codes or NCBI taxon ids; repeated, or comma-separated)
 * and `target_level` (a level name, species code or taxon id). Unknown values → 400.
 */
export function homologyTargets(release: Release, species: string[] | undefined, level: string | undefined): TargetFilter {
  const { genomes, taxonomy } = release.manifest;
  let kept: Set<GenomeInfo> | undefined;
  if (species && species.length) {
    kept = new Set();
    for (const value of species.flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean)) {
      const byCode = genomes.find((g) => g.code === value);
      const matches = byCode ? [byCode] : /^[0-9]{1,12}$/.test(value) ? genomes.filter((g) => g.taxonId === Number(value)) : [];
      if (!matches.length) throw badRequest(`Unknown target_species '${echo(value)}': not a species code or taxon id of this release.`);
      for (const g of matches) kept.add(g);
    }
  }
  if (level !== undefined) {
    const at = levelOf(release, level.trim());
    if (at === undefined) throw badRequest(`Unknown target_level '${echo(level)}': not a level name, species code or taxon id of this release.`);
    const below = new Set(genomes.filter((g) => isAncestorOrSelf(taxonomy, at, g.level)));
    kept = kept ? new Set([...kept].filter((g) => below.has(g))) : below;
  }
  return kept ? (genome) => kept.has(genome) : undefined;
}
