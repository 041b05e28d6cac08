/**
 * The HOG families of the orthoXML, read one top-level group at a time, and where each
 * protein stands in them.
 */
import { lineage } from "../../release-format/taxonomy.js";
import type { Problems } from "../problems.js";
import { readOrthoXml } from "../readers/orthoxml.js";
import { buildFamily, familyHogIds, orthoXmlTaxonNames, type FamilyBuild } from "./hogs.js";
import type { ProteinTable } from "./proteins.js";
import type { TaxonomyBuild } from "./taxonomy.js";

export interface HogFamilies {
  families: FamilyBuild[];
  /** Every HOG id → family index. */
  hogIds: Map<string, number>;
}

/** Reads the families; a protein in two families and a HOG id used by two are problems. */
export async function readHogFamilies(
  file: string,
  hogPrefix: string,
  taxonomy: TaxonomyBuild,
  proteins: ProteinTable,
  problems: Problems,
): Promise<HogFamilies> {
  const families: FamilyBuild[] = [];
  const entryOfGene = new Map<string, number>();
  const inFamily = new Map<number, string>();
  let taxonNames = new Map<string, string>();
  await readOrthoXml(
    file,
    problems,
    (root) => {
      const family = buildFamily(root, families.length + 1, {
        taxonomy,
        prefix: hogPrefix,
        entryOfGene: (id) => entryOfGene.get(id),
        genomeOf: (entry) => proteins.genome[entry - 1],
        taxonNames,
        file,
        problems,
      });
      if (!family) return;
      for (const entry of family.members) {
        const other = inFamily.get(entry);
        if (other) problems.report(file, root.line, `protein ${proteins.inputId[entry - 1]} is in two HOGs (${other}, ${family.rootId})`);
        inFamily.set(entry, family.rootId);
      }
      families.push(family);
    },
    // The species and taxonomy blocks precede <groups>: map genes to entries before any family.
    (header) => {
      for (const sp of header.species) {
        for (const gene of sp.genes) {
          const entry = proteins.byInputId.get(gene.protId);
          if (entry === undefined) problems.report(file, gene.line, `protein ${gene.protId} of the HOGs is not in the proteomes`);
          else entryOfGene.set(gene.id, entry);
        }
      }
      taxonNames = orthoXmlTaxonNames(header.taxonomy);
    },
  );
  const hogIds = new Map<string, number>();
  for (const f of families) {
    for (const id of familyHogIds(f)) {
      const other = hogIds.get(id);
      if (other !== undefined) problems.report(file, 0, `HOG id ${id} is used by two families (${families[other - 1].rootId}, ${f.rootId})`);
      hogIds.set(id, f.index);
    }
  }
  return { families, hogIds };
}

/** Per entry - 1: family index (0 = none), own HOG id ("" = none), lineage levels the family spans. */
export interface FamilyPlaces {
  family: Int32Array;
  hog: string[];
  hogLevelCount: Int32Array;
}

export function familyPlaces(families: FamilyBuild[], taxonomy: TaxonomyBuild, proteins: ProteinTable): FamilyPlaces {
  const family = new Int32Array(proteins.count);
  const hog = new Array<string>(proteins.count).fill("");
  const hogLevelCount = new Int32Array(proteins.count);
  for (const f of families) {
    const rootLevel = f.nodes[0].level;
    f.members.forEach((entry, i) => {
      family[entry - 1] = f.index;
      hog[entry - 1] = f.nodes[f.memberNode[i]].id;
      const up = lineage(taxonomy, taxonomy.genomeLevels[proteins.genome[entry - 1]]);
      hogLevelCount[entry - 1] = up.indexOf(rootLevel) + 1;
    });
  }
  return { family, hog, hogLevelCount };
}
