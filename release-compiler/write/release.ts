/**
 * The writers' stage: every table, index and genome blob of a derived release, and the
 * manifest naming them.
 */
import {
  FORMAT_VERSION,
  type AnnotationRow,
  type AnnotationShard,
  type GoTerm,
  type FamilyGo,
  type FamilyProfile,
  type FamilyRow,
  type GeneTreeRow,
  type GenomeInfo,
  type GenomePairRow,
  type GroupRow,
  type HogAlias,
  type HogListRow,
  type Manifest,
  type ProteinRow,
  type ProteinSummary,
  type SequenceRow,
  type TableRef,
} from "../../release-format/format.js";
import type { ReleaseConfig } from "../config.js";
import type { SpeciesInfoRow } from "../inputs.js";
import type { AnnotationTable } from "../derive/annotations.js";
import { mostCommonDescription } from "../derive/descriptions.js";
import { entryIdPairs } from "../derive/entry-ids.js";
import { familyGoRow } from "../derive/family-go.js";
import { countGenes, genomeDetail } from "../derive/genomes.js";
import { groupsByFingerprint } from "../derive/groups.js";
import type { FamilyPlaces, HogFamilies } from "../derive/hog-families.js";
import type { GeneTreeTable } from "../derive/orthofinder/gene-trees.js";
import { hogListRows } from "../derive/hog-list.js";
import { similarProfiles } from "../derive/profiles.js";
import { exonPairs, type ProteinTable } from "../derive/proteins.js";
import type { RelationsBuild } from "../derive/relations.js";
import { genesSharingFamilies } from "../derive/shared-families.js";
import type { TaxonomyBuild } from "../derive/taxonomy.js";
import type { Engine } from "../engine.js";
import type { Stages } from "../stages.js";
import type { PackWriter } from "./packs.js";
import { LAYOUT } from "./layout.js";
import { writeRelationTables } from "./relations.js";
import { writeSequenceIndex } from "./sequence-index.js";
import { writeKeyIndex, writeKeyIndexOfPairs, writeTable } from "./tables.js";
import { writeXrefSearch } from "./xref-search.js";

/** Everything the derivations produce, ready to be written. */
export interface ReleaseBuild extends HogFamilies, FamilyPlaces {
  config: ReleaseConfig;
  taxonomy: TaxonomyBuild;
  species: SpeciesInfoRow[];
  proteins: ProteinTable;
  /** Written while the cDNA was read. */
  sequences: TableRef<SequenceRow>;
  groups: number[][];
  fingerprints: string[];
  /** Per entry - 1: group number (0 = none). */
  group: Int32Array;
  annotations: AnnotationTable;
  relations: RelationsBuild;
  /** Per family, its gene tree (OrthoFinder releases with gene trees); the table is left out without. */
  geneTrees?: GeneTreeTable;
  /** Another tool's ids of the HOGs (OrthoFinder releases); the index is left out without. */
  hogAliases?: Map<string, HogAlias>;
}

/** Writes every table, index and genome blob, and returns the manifest naming them. */
export async function writeRelease(b: ReleaseBuild, packs: PackWriter, engine: Engine, stage: Stages, jobs: number): Promise<Manifest> {
  const p = b.proteins;
  const genomeOf = (e: number) => p.genome[e - 1];
  const relationsProgress = stage.progress("write relations and pairs", b.species.length, "genomes");
  const related = await writeRelationTables(
    packs,
    b.relations,
    {
      genomes: b.species.length,
      genome: shared(Int32Array, p.genome),
      isMain: shared(Uint8Array, p.isMain.map(Number)),
      group: shared(Int32Array, b.group),
      groupCount: b.groups.length,
    },
    LAYOUT,
    jobs,
    relationsProgress,
  );
  stage.done("write relations and pairs");
  const summary = (entry: number): ProteinSummary => {
    const i = entry - 1;
    return {
      entry,
      canonicalId: p.canonicalId[i],
      md5: p.md5[i],
      length: p.sequence[i].length,
      group: b.group[i],
      hog: b.hog[i],
      chromosome: p.chromosome[i],
      locus: p.locus[i],
      isMain: p.isMain[i],
    };
  };

  const proteins = writeTable<ProteinRow>(packs, p.count, LAYOUT.proteinsChunkBytes, (i) => ({
    ...summary(i + 1),
    family: b.family[i],
    rootHog: b.family[i] ? b.families[b.family[i] - 1].rootHog : 0,
    hogLevelCount: b.hogLevelCount[i],
    isoforms: p.isoforms[i] ?? [],
    exons: exonPairs(p.exons[i]),
    description: p.description[i],
  }));
  const sequences = b.sequences;
  const groups = writeTable<GroupRow>(packs, b.groups.length, LAYOUT.groupsChunkBytes, (g) => ({
    nr: g + 1,
    fingerprint: b.fingerprints[g],
    description: mostCommonDescription(p.description, b.groups[g]),
    members: b.groups[g].map(summary),
    closeGroups: related.closeGroups[g],
  }));
  const familyDescriptions = b.families.map((f) => mostCommonDescription(p.description, f.members));
  const families = writeTable<FamilyRow>(packs, b.families.length, LAYOUT.familiesChunkBytes, (f) => {
    const fam = b.families[f];
    return {
      family: fam.index,
      rootId: fam.rootId,
      rootHog: fam.rootHog,
      description: familyDescriptions[f],
      nodes: fam.nodes,
      members: fam.members.map(summary),
    };
  });
  const annotations = writeTable(packs, p.count, LAYOUT.annotationsChunkBytes, (i) => b.annotations.rowAt(i), undefined, (rows) =>
    citedGoTerms(rows, b.annotations.goTerms),
  );
  const { relations, pairs, directory } = related;
  const inFamilies = genesSharingFamilies(b.families, genomeOf, b.species.length);
  const pairDirectory = writeTable<GenomePairRow>(packs, directory.length, LAYOUT.pairDirectoryChunkBytes, (k) => [
    ...directory[k],
    inFamilies[k],
    related.withRelations[k],
  ]);
  const familyProfiles = similarProfiles(b.families, genomeOf);
  const profiles = writeTable<FamilyProfile>(packs, b.families.length, LAYOUT.profilesChunkBytes, (f) => familyProfiles[f]);
  const familyGo = writeTable<FamilyGo>(packs, b.families.length, LAYOUT.familyGoChunkBytes, (f) => familyGoRow(b.families[f], b.annotations));
  const peptides = writeTable<string>(packs, p.count, LAYOUT.peptidesChunkBytes, (i) => p.sequence[i], (s) => s.length + 3);
  // Optional: only releases with gene trees have the table, so every other release stays as it was.
  const geneTrees = b.geneTrees && writeTable<GeneTreeRow>(packs, b.families.length, LAYOUT.geneTreesChunkBytes, (f) => b.geneTrees!.rowOf(f + 1));
  b.geneTrees?.close();
  stage.done("write protein, group, family and annotation tables");
  const sequenceIndex = await writeSequenceIndex(packs, p.count, (e) => p.sequence[e - 1], engine, jobs, stage.progress("write sequence index", p.count, "proteins"));
  stage.done("write sequence index");
  const xrefSearch = writeXrefSearch(packs, p, (i) => b.annotations.rowAt(i), b.species.map((s) => s.code));
  stage.done("write cross-reference search");
  const hogLists = hogListRows(b.families, b.taxonomy, (e) => b.taxonomy.genomeLevels[genomeOf(e)], familyDescriptions);
  const hogList = writeTable<HogListRow>(packs, hogLists.rows.length, LAYOUT.hogListChunkBytes, (k) => hogLists.rows[k]);

  const genomes: GenomeInfo[] = b.species.map((s, g) => ({
    code: s.code,
    taxonId: s.taxonId,
    species: s.scientificName,
    firstEntry: p.genomeFirstEntry[g],
    nrEntries: p.genomeSize[g],
    level: b.taxonomy.genomeLevels[g],
    nrGenes: countGenes(p, g),
    subgenomes: s.subgenomes ?? [],
  }));
  const genomeDetails = writeTable(packs, genomes.length, LAYOUT.genomeDetailsChunkBytes, (g) => genomeDetail(p, g));
  const entryIds = entryIdPairs(p, b.annotations);

  return {
    format: FORMAT_VERSION,
    name: b.config.name,
    hogPrefix: b.config.hogReleaseLetter ?? "",
    date: b.config.date ?? "",
    // Only the `oma` profile is recorded: a release compiled without the key (or with "orth") is byte-identical to one from before the key.
    ...(b.config.fieldNames === "oma" ? { fieldNames: "oma" as const } : {}),
    counts: {
      genomes: genomes.length,
      proteins: p.count,
      groups: b.groups.length,
      families: b.families.length,
      hogs: b.hogIds.size,
    },
    taxonomy: { names: b.taxonomy.names, parents: b.taxonomy.parents, genomes: b.taxonomy.genomes, taxonIds: b.taxonomy.taxonIds },
    genomes,
    tables: { proteins, sequences, groups, families, annotations, relations, pairs, pairDirectory, hogList, profiles, familyGo, peptides, ...(geneTrees ? { geneTrees } : {}), genomeDetails },
    sequenceIndex,
    hogLists: { roots: hogLists.roots, levels: hogLists.levels },
    xrefSearch,
    indexes: {
      entryIds: writeKeyIndexOfPairs(packs, entryIds.keys, entryIds.entries, LAYOUT.leafBytes),
      fingerprints: writeKeyIndex(packs, groupsByFingerprint(b.fingerprints), LAYOUT.leafBytes),
      hogIds: writeKeyIndex(packs, b.hogIds, LAYOUT.leafBytes),
      goTerms: writeKeyIndex(packs, b.annotations.goTerms, LAYOUT.leafBytes),
      ...(b.hogAliases ? { hogAliases: writeKeyIndex(packs, b.hogAliases, LAYOUT.leafBytes) } : {}),
    },
  };
}

/** The GO terms a chunk of annotation rows cites, sorted by id (AnnotationShard): a term the release has no entry for is left out. */
function citedGoTerms(rows: AnnotationRow[], terms: Map<string, GoTerm>): Pick<AnnotationShard, "goTerms"> {
  const ids = [...new Set(rows.flatMap((r) => r.go.map(([id]) => id)))].filter((id) => terms.has(id)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { goTerms: { keys: ids, values: ids.map((id) => terms.get(id)!) } };
}

/** A copy of `values` in a SharedArrayBuffer, which worker threads read without a copy of their own. */
function shared<A extends Int32Array | Uint8Array>(kind: { new (buffer: SharedArrayBuffer): A; BYTES_PER_ELEMENT: number }, values: ArrayLike<number>): A {
  const array = new kind(new SharedArrayBuffer(values.length * kind.BYTES_PER_ELEMENT));
  array.set(values);
  return array;
}
