/**
 * The writing tasks (tasks.ts): each writes some of the tables and indexes of a derived
 * release into packs of its own, and hands on their refs; the manifest names them all.
 */
import { join } from "node:path";
import {
  AMBIGUOUS_ENTRIES,
  FORMAT_VERSION,
  type AnnotationRow,
  type AnnotationShard,
  type AliasTarget,
  type CardPlace,
  type ChunkRef,
  type GoTerm,
  type FamilyGo,
  type FamilyProfile,
  type FamilyRow,
  type GeneTreeRow,
  type GenomeInfo,
  type GenomePairRow,
  type GroupRow,
  type HogAlias,
  type HogCard,
  type HogPlace,
  MEMBER_SLICE,
  type HogListRow,
  type Manifest,
  type ProteinRow,
  type ProteinSummary,
  type RowChunk,
  type SequenceRow,
  type TableRef,
} from "../../release-format/format.js";
import { BigMap } from "../collections.js";
import type { ReleaseConfig } from "../config.js";
import type { SpeciesInfoRow } from "../inputs.js";
import { restoreAnnotations, type AnnotationData, type AnnotationTable } from "../derive/annotations.js";
import { mostCommonDescription } from "../derive/descriptions.js";
import { entryIdPairs } from "../derive/entry-ids.js";
import { familyGoRow } from "../derive/family-go.js";
import { countGenes, genomeDetail } from "../derive/genomes.js";
import { groupsByFingerprint } from "../derive/groups.js";
import { listMembers, type EntryLists } from "../derive/entry-lists.js";
import { hogLevelCounts, ownHogId, type FamilyPlaces, type HogFamilies } from "../derive/hog-families.js";
import { familiesOf, familyAt, familyMembers, familyOfHogId, hogIdFamilies, type FamilyTable } from "../derive/family-table.js";
import { hogNodes, nodeCount } from "../derive/hog-columns.js";
import type { FamilyBuild } from "../derive/hogs.js";
import { openGeneTrees, type GeneTreeStore } from "../derive/orthofinder/gene-trees.js";
import { familyHogCards } from "../derive/hog-cards.js";
import { isPrefixId } from "../../release-format/hog-tree.js";
import { rowChunkCovering, rowChunkIndex } from "../../release-format/directory.js";
import { hogListRows } from "../derive/hog-list.js";
import { similarProfiles } from "../derive/profiles.js";
import { canonicalIdOf, chromosomeOf, descriptionOf, isoformsOf, exonPairs, loadLoci, loadMd5s, locusOf, md5Of, openExons, type ProteinTable } from "../derive/proteins.js";
import { openSequences } from "../derive/sequence-file.js";
import { readRelations, relationColumns, RELATIONS_TABLE, type StoredRelations } from "../derive/relations.js";
import { genesSharingFamilies } from "../derive/shared-families.js";
import type { TaxonomyBuild } from "../derive/taxonomy.js";
import type { Engine } from "../engine.js";
import type { Stages } from "../stages.js";
import { RELATION_PARTS, type PackedOutput, type RelationPartName } from "../tasks.js";
import type { PackWriter } from "./packs.js";
import { LAYOUT } from "./layout.js";
import { closeGroupsOf, putRelationPartsTogether, relationParts, writeRelationPart, type RelationPart, type RelationTables } from "./relations.js";
import { besideOf, chunkList } from "./beside.js";
import { kmerWindows, writeSequenceIndex } from "./sequence-index.js";
import { rowChunkTableWriter, tableWriter, writeHashIndex, writeHashIndexOfPairs, writeSlottedTable, writeTable } from "./tables.js";
import { writeXrefSearch } from "./xref-search.js";

/** Everything the derivations produce, ready to be written. */
export interface ReleaseBuild extends HogFamilies, FamilyPlaces {
  config: ReleaseConfig;
  taxonomy: TaxonomyBuild;
  species: SpeciesInfoRow[];
  proteins: ProteinTable;
  /** Written while the cDNA was read. */
  sequences: TableRef<SequenceRow>;
  groups: EntryLists;
  fingerprints: string[];
  /** Per entry - 1: group number (0 = none). */
  group: Int32Array;
  annotations: AnnotationTable;
  /** In the derive task's row engine database (DERIVED_ROWS in its folder) and its pair workers' (StoredRelations.parts). */
  relations: StoredRelations;
  /** Per family, its gene tree (OrthoFinder releases with gene trees), in a file of the derive task's folder; the table is left out without. */
  geneTrees?: GeneTreeStore;
  /** Another tool's ids of the HOGs (OrthoFinder releases); the index is left out without. */
  hogAliases?: Map<string, AliasTarget>;
}

/**
 * The derive task's output as kept (snapshot.ts): the build with its annotations as plain data,
 * the manifest's counts (so that putting the release together reads no table), and the input warnings.
 */
/** The derive task's output; `kmerWindows`, its sequences' (kmerWindows): the sequence index's bound on its postings, and what the compile schedules its memory by. */
export type DerivedRelease = Omit<ReleaseBuild, "annotations"> & { annotations: AnnotationData; counts: Manifest["counts"]; kmerWindows: number; warnings: string[]; packed: PackedOutput };
/** The build a writing task reads (releaseBuild). */
export type WriteBuild = ReleaseBuild & Pick<DerivedRelease, "kmerWindows">;

export function derivedRelease(b: ReleaseBuild, warnings: string[], packed: PackedOutput): DerivedRelease {
  const counts = { genomes: b.species.length, proteins: b.proteins.count, groups: b.groups.count, families: b.families.count, hogs: b.families.hogIds.count };
  return { ...b, annotations: b.annotations.data, counts, kmerWindows: kmerWindows(b.proteins.length), warnings, packed };
}

/**
 * The build a writing task reads: the derived release's fields as they are (a loaded snapshot
 * reads each when first used, so nothing is spread here), its annotations a table again, read
 * from their file in `folder` (the derive task's); `close` closes that file if it was read.
 */
export function releaseBuild(derived: DerivedRelease, folder: string): WriteBuild & { close(): void } {
  let annotations: AnnotationTable | undefined;
  return Object.create(derived, {
    annotations: { get: () => (annotations ??= restoreAnnotations(derived.annotations, folder)) },
    close: { value: () => annotations?.close() },
  }) as WriteBuild & { close(): void };
}

/** The derive task's row engine database, in its folder: the relations (StoredRelations), with its pair workers' files beside it. */
export const DERIVED_ROWS = "rows.duckdb";

/** What every writing task is given: the build, where its packs go, and how to reach the derive task's files. */
export interface WriteContext {
  b: WriteBuild;
  packs: PackWriter;
  stage: Stages;
  jobs: number;
  /** The derive task's folder. */
  derived: string;
  /** The memory budget (`--memory`): the row engine's, and what a task holding rows of its own keeps to. */
  memoryBytes: number;
  /** A row engine of the task's own (scratch) or on the derive task's database (read-only), with more of its database files attached. */
  engine(readOnlyDatabase?: string, attach?: string[]): Promise<Engine>;
  /** A chunk written by this compile (this task's or a finished one's), read back from the work folder's packs. */
  readChunk(ref: ChunkRef): unknown;
}

/** Part `part` (1-based) of the relations and pairs (tasks.ts, RELATION_PARTS): its genomes' chunks, in packs of its own. */
export async function writeRelationsPart({ b, packs, stage, jobs, derived, engine }: WriteContext, part: number): Promise<RelationPart> {
  const p = b.proteins;
  const { from, to } = relationParts(b.relations.perGenome, RELATION_PARTS)[part - 1];
  let firstPairRow = 0;
  for (let g = 0; g < from; g++) firstPairRow += b.relations.mainPerGenome[g];
  const rows = await engine(join(derived, DERIVED_ROWS), b.relations.parts.map((file) => join(derived, file)));
  try {
    const layout = { genomeFirstEntry: p.genomeFirstEntry, genomeSize: p.genomeSize, proteinCount: p.count };
    const relations = readRelations(b.relations, rows.existingTable(RELATIONS_TABLE, relationColumns(b.relations.measured)), rows.rowsPerRange, layout, { from, to });
    const name = relationsPartStage(part);
    const written = await writeRelationPart(
      packs,
      relations,
      {
        genomes: b.species.length,
        genomeFirstEntry: shared(Int32Array, [...p.genomeFirstEntry, p.count + 1]),
        isMain: shared(Uint8Array, p.isMain),
        group: shared(Int32Array, b.group),
        groupCount: b.groups.count,
      },
      LAYOUT,
      jobs,
      { from, to, firstPairRow },
      stage.progress(name, to - from, "genomes"),
    );
    stage.done(name);
    return written;
  } finally {
    rows.close();
  }
}

/** The stage of part `part` of the relations and pairs. */
export const relationsPartStage = (part: number) => `write relations and pairs, part ${part} of ${RELATION_PARTS}`;

/** The relations and pairs tables from their parts: directory pages over the parts' chunks, the pair directory, the close groups. */
export function putRelationsTogether({ b, packs, stage }: WriteContext, parts: RelationPart[]): RelationTables {
  const tables = putRelationPartsTogether(packs, parts, { genomes: b.species.length, proteins: b.proteins.count, groupCount: b.groups.count });
  stage.done(PUT_RELATIONS_TOGETHER);
  return tables;
}

export const PUT_RELATIONS_TOGETHER = "put the relations and pairs together";

/** Each protein's summary, as rows that name proteins hold it; its MD5s and loci read from the derive task's folder `derived` first. */
const summaryOf = (b: ReleaseBuild, derived: string) => {
  const p = b.proteins;
  const md5s = loadMd5s(p.md5, derived);
  const loci = loadLoci(p.loci, derived);
  return (entry: number): ProteinSummary => {
    const i = entry - 1;
    return {
      entry,
      canonicalId: canonicalIdOf(p, i),
      md5: md5Of(md5s, i),
      length: p.length[i],
      group: b.group[i],
      hog: ownHogId(b, i),
      chromosome: chromosomeOf(p, i),
      locus: locusOf(loci, i),
      isMain: p.isMain[i] === 1,
    };
  };
};

const familyDescriptionsOf = (b: ReleaseBuild) => Array.from(familiesOf(b.families), (f) => mostCommonDescription(b.proteins, f.members));

export const PROTEIN_TABLES_STAGE = "write the protein table";
export const ANNOTATION_TABLES_STAGE = "write annotation and peptide tables";

/**
 * The tables of a row per protein that need nothing but the derived release: its annotations
 * and its peptides. A task of their own, apart from the proteins table: what they read (the
 * cross-references, GO annotations and domains, 0.7 GB of heap at a million proteins, and the
 * sequences, in order from their file) is what the proteins table does not.
 */
export function writeAnnotationTables({ b, packs, stage, derived }: WriteContext) {
  const p = b.proteins;
  // Packed apart: a protein's cross-references, GO annotations or domains are one row of ~85 a chunk.
  const annotations = writeTable(packs, p.count, LAYOUT.annotationsChunkBytes, (i) => b.annotations.rowAt(i), {
    chunkExtra: (rows) => citedGoTerms(rows, b.annotations.goTerms),
    apart: true,
  });
  const sequences = openSequences(p.sequenceFile, derived);
  try {
    const peptides = writeTable<string>(packs, p.count, LAYOUT.peptidesChunkBytes, (i) => sequences.get(i + 1), { sizeOf: (s) => s.length + 3 });
    stage.done(ANNOTATION_TABLES_STAGE);
    return { annotations, peptides };
  } finally {
    sequences.close();
  }
}

/**
 * The proteins table, each of whose chunks names the chunks of the sequences, annotations,
 * relations and families tables that its rows need (write/beside.ts), so those come first.
 */
export async function writeProteinTables(
  { b, packs, stage, readChunk, derived }: WriteContext,
  related: RelationTables,
  familyTables: { families: TableRef<FamilyRow> },
  annotationTables: { annotations: TableRef<AnnotationRow> },
) {
  const p = b.proteins;
  const summary = summaryOf(b, derived);
  const beside = besideOf({
    sequences: await chunkList(b.sequences.tree, readChunk),
    annotations: await chunkList(annotationTables.annotations.tree, readChunk),
    relations: await chunkList(related.relations.tree, readChunk),
    families: await chunkList(familyTables.families.tree, readChunk),
  });
  const cardRows = hogCardRows(familiesOf(b.families));
  const hogLevelCountOf = hogLevelCounts(b.families, b.family, b.taxonomy, p.genome);
  // A row is its summary (a fresh object) with the protein's own fields added, in the order the
  // format writes them (hogCards, when present, before exons). Spreading the summary and an
  // optional `{ hogCards }` into a literal cost ~6 µs a row (a million proteins: ~6 s) and gave
  // the same bytes.
  const exons = openExons(p.exonFile, derived);
  let proteins: TableRef<ProteinRow>;
  try {
    proteins = writeSlottedTable<ProteinRow>(packs, p.count, LAYOUT.proteinsChunkRows, (i) => {
      const row = summary(i + 1) as ProteinRow;
      row.family = b.family[i];
      row.rootHog = b.family[i] ? b.families.rootHog[b.family[i] - 1] : 0;
      row.hogLevelCount = hogLevelCountOf(i);
      row.isoforms = isoformsOf(p, i);
      const cards = cardRows.get(ownHogId(b, i));
      if (cards) row.hogCards = cards;
      row.exons = exonPairs(exons.get(i + 1));
      row.description = descriptionOf(p, i);
      return row;
    }, beside);
  } finally {
    exons.close();
  }
  stage.done(PROTEIN_TABLES_STAGE);
  return { proteins };
}

/**
 * Each family's first row in the `familyMembers` table (FamilyRow.firstMember): the members of
 * a family of more than `familyInlineMembers`, families in order; -1 for a family whose row holds them.
 */
function firstMembers(families: FamilyTable): number[] {
  let next = 0;
  return Array.from({ length: families.count }, (_, f) => {
    const count = familyMembers(families, f + 1).length;
    if (count <= LAYOUT.familyInlineMembers) return -1;
    next += count;
    return next - count;
  });
}

/** A family's row (FamilyRow): `members` its summaries when the row holds them, else null. */
function familyRow(f: FamilyBuild, description: string, firstMember: number, members: ProteinSummary[] | null): FamilyRow {
  return { family: f.index, rootId: f.rootId, rootHog: f.rootHog, description, nodes: hogNodes(f.tree), entries: Array.from(f.members), members, firstMember };
}

/** The tables of a row per group, family or genome pair: what the relations give them (close groups, the pair directory) included. */
export function writeFamilyTables({ b, packs, stage, derived }: WriteContext, related: RelationTables) {
  const p = b.proteins;
  const genomeOf = (e: number) => p.genome[e - 1];
  const summary = summaryOf(b, derived);
  const groups = writeTable<GroupRow>(packs, b.groups.count, LAYOUT.groupsChunkBytes, (g) => ({
    nr: g + 1,
    fingerprint: b.fingerprints[g],
    description: mostCommonDescription(p, listMembers(b.groups, g)),
    members: Array.from(listMembers(b.groups, g), summary),
    closeGroups: closeGroupsOf(related.closeGroups, g + 1),
  }));
  const familyDescriptions = familyDescriptionsOf(b);
  // A wide family's member summaries go to their own table, pushed as its row is made, in
  // chunks of their own that its row names; the HOG id index names each family's chunk.
  const familyMembers = rowChunkTableWriter<ProteinSummary>(packs, LAYOUT.familyMembersChunkBytes);
  const firstMember = firstMembers(b.families);
  const families = rowChunkTableWriter<FamilyRow>(packs, LAYOUT.familiesChunkBytes);
  for (const fam of familiesOf(b.families)) {
    const f = fam.index - 1;
    if (firstMember[f] < 0) {
      families.push(familyRow(fam, familyDescriptions[f], -1, Array.from(fam.members, summary)));
      continue;
    }
    const chunksBefore = familyMembers.chunks.length;
    for (const e of fam.members) familyMembers.push(summary(e));
    familyMembers.flush();
    families.push({ ...familyRow(fam, familyDescriptions[f], firstMember[f], null), memberChunks: familyMembers.chunks.slice(chunksBefore) });
  }
  const familyTables = { families: families.finish(), familyMembers: familyMembers.finish() };
  const { pairStart, pairCount, withRelations } = related;
  const inFamilies = genesSharingFamilies(familiesOf(b.families), genomeOf, b.species.length);
  const pairDirectory = writeTable<GenomePairRow>(packs, pairStart.length, LAYOUT.pairDirectoryChunkBytes, (k) => [pairStart[k], pairCount[k], inFamilies[k], withRelations[k]]);
  // Packed apart: a HOG's GO terms are one family's row of ~100 a chunk.
  const familyGo = writeTable<FamilyGo>(packs, b.families.count, LAYOUT.familyGoChunkBytes, (f) => familyGoRow(familyAt(b.families, f + 1), b.annotations), { apart: true });
  // Optional: only releases with gene trees have the table, so every other release stays as it was.
  let geneTrees: TableRef<GeneTreeRow> | undefined;
  if (b.geneTrees) {
    const trees = openGeneTrees(b.geneTrees, derived);
    geneTrees = writeTable<GeneTreeRow>(packs, b.families.count, LAYOUT.geneTreesChunkBytes, (f) => trees.rowOf(f + 1));
    trees.close();
  }
  stage.done("write group, family and pair directory tables");
  // Where each family's row and members are, for the HOG id index and the HOG cards (writeHogIndex).
  const chunksOf = { families: families.chunks, familyMembers: familyMembers.chunks };
  return { groups, ...familyTables, pairDirectory, familyGo, ...(geneTrees ? { geneTrees } : {}), chunksOf };
}

export const SIMILAR_PROFILES_STAGE = "write similar genome profiles";
/** The profiles' scoring, a stage line of its own: its work grows with the square of the families, the writing with the families. */
export const SCORE_PROFILES_STAGE = "score similar genome profiles";

/**
 * Each family's genome profile and the families most alike (derive/profiles.ts): a task of its
 * own on every core, its work growing with the square of the families, and needing nothing
 * the relations give.
 */
export async function writeProfiles({ b, packs, stage, jobs }: WriteContext) {
  const genomeOf = (e: number) => b.proteins.genome[e - 1];
  const familyProfiles = await similarProfiles(b.families, genomeOf, jobs);
  stage.done(SCORE_PROFILES_STAGE);
  const profiles = writeTable<FamilyProfile>(packs, b.families.count, LAYOUT.profilesChunkBytes, (f) => familyProfiles[f]);
  stage.done(SIMILAR_PROFILES_STAGE);
  return { profiles };
}

export async function writeSequenceSearch({ b, packs, stage, jobs, memoryBytes, derived }: WriteContext) {
  const p = b.proteins;
  const sequences = openSequences(p.sequenceFile, derived);
  try {
    const sequenceIndex = await writeSequenceIndex(packs, p.count, sequences.slices, b.kmerWindows, memoryBytes, jobs, stage.progress("write sequence index", p.count, "proteins"));
    stage.done("write sequence index");
    return { sequenceIndex };
  } finally {
    sequences.close();
  }
}

export function writeXrefs({ b, packs, stage }: WriteContext) {
  const xrefSearch = writeXrefSearch(packs, b.proteins, (i) => b.annotations.xrefsAt(i), b.species.map((s) => s.code));
  stage.done("write cross-reference search");
  return { xrefSearch };
}

export const HOG_LISTS_STAGE = "write the HOG lists and genome details";
export const INDEXES_STAGE = "write the entry id, fingerprint and GO term indexes";

/**
 * The HOG lists (by level), the genome details, and what the header says of the genomes: a
 * task apart from the indexes, as it reads the families and not the cross-references (at a
 * million proteins the two together held 2.0 GB, expected 2.5: too much to share 4 GB with
 * another task).
 */
export function writeHogLists({ b, packs, stage }: WriteContext) {
  const p = b.proteins;
  const genomeOf = (e: number) => p.genome[e - 1];
  const hogLists = hogListRows(familiesOf(b.families), b.taxonomy, (e) => b.taxonomy.genomeLevels[genomeOf(e)], familyDescriptionsOf(b));
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
  stage.done(HOG_LISTS_STAGE);
  return { genomes, hogList, genomeDetails, hogLists: { roots: hogLists.roots, levels: hogLists.levels } };
}

/** The entry id (every id a protein lookup answers), fingerprint and GO term indexes. */
export function writeIndexes({ b, packs, stage }: WriteContext) {
  const entryIds = entryIdPairs(b.proteins, b.annotations);
  const indexes = {
    entryIds: writeHashIndexOfPairs(packs, entryIds.keys, entryIds.entries, LAYOUT.bucketBytes, AMBIGUOUS_ENTRIES),
    fingerprints: writeHashIndex(packs, groupsByFingerprint(b.fingerprints), LAYOUT.bucketBytes),
    goTerms: writeHashIndex(packs, b.annotations.goTerms, LAYOUT.bucketBytes),
  };
  stage.done(INDEXES_STAGE);
  return { indexes };
}

export const HOG_INDEX_STAGE = "write the HOG cards and the HOG id index";

/**
 * The HOG cards and the index of every HOG id (and alias): after the family tables, whose
 * chunks they name (FORMAT.md, "Chunks named by rows").
 */
export function writeHogIndex({ b, packs, stage }: WriteContext, familyTables: { chunksOf: FamilyChunks }) {
  const cards = writeHogCards(b, packs, familyDescriptionsOf(b), familyTables.chunksOf);
  const hogIds = writeHashIndex(packs, cards.places, LAYOUT.bucketBytes);
  const hogAliases = b.hogAliases && writeHashIndex(packs, cards.aliases(b.hogAliases), LAYOUT.bucketBytes);
  stage.done(HOG_INDEX_STAGE);
  return { hogCards: cards.hogCards, hogLevelCards: cards.hogLevelCards, hogIds, ...(hogAliases ? { hogAliases } : {}) };
}

/** Whether a family's HOG ids have cards: its tree has more than `hogCardsFromNodes` nodes. */
const hasHogCards = (f: FamilyBuild) => nodeCount(f.tree) > LAYOUT.hogCardsFromNodes;

/**
 * The rows of each carded HOG id's cards and of its family root's: the ids of each family with
 * cards in the order of their first nodes, families in order. The protein tables name them
 * (ProteinRow `hogCards`) while the hog-index task writes the cards, in the same order.
 */
function hogCardRows(families: Iterable<FamilyBuild>): BigMap<string, [number, number]> {
  const rows = new BigMap<string, [number, number]>();
  for (const f of families) {
    if (!hasHogCards(f)) continue;
    const root = rows.size;
    for (const id of f.tree.ids) rows.set(id, [rows.size, root]);
  }
  return rows;
}

/** Where the family-tables task wrote each family's row and members: the chunks of both tables, in order. */
export interface FamilyChunks {
  families: readonly RowChunk[];
  familyMembers: readonly RowChunk[];
}

/**
 * The HOG cards of the families of more than `hogCardsFromNodes` nodes, and where every HOG id
 * is: its family and the chunk of its row, and in a family with cards the rows and chunks of
 * its cards and of its root's (HogPlace); an alias names them too. A level card names the
 * chunks of its id's ancestors' level cards (written before it: a family's ids come in the
 * order of their first nodes), so a level query above the id's own levels reads the
 * ancestor's card with no directory page; a card the chunks of its small records' members.
 */
function writeHogCards(b: ReleaseBuild, packs: PackWriter, descriptions: string[], chunksOf: FamilyChunks) {
  const hogCards = rowChunkTableWriter<HogCard>(packs, LAYOUT.hogCardsChunkBytes);
  const hogLevelCards = rowChunkTableWriter<HogCard>(packs, LAYOUT.hogCardsChunkBytes);
  const familyChunk = (family: number) => rowChunkCovering(chunksOf.families, family - 1)!;
  const context = { manifest: { taxonomy: b.taxonomy }, genomeOfEntry: (e: number) => ({ level: b.taxonomy.genomeLevels[b.proteins.genome[e - 1]] }) };
  const firstMember = firstMembers(b.families);
  const cardRows = hogCardRows(familiesOf(b.families));
  for (const f of familiesOf(b.families)) {
    if (!hasHogCards(f)) continue;
    // The family's row as the worker decodes it (its summaries aside): what the cards are made from.
    const row = familyRow(f, descriptions[f.index - 1], firstMember[f.index - 1], null);
    const root = hogCards.rows;
    for (const { id, card, levelCard } of familyHogCards(row, context, (id) => cardRows.get(id)![0])) {
      if (familyOfHogId(b.families, id) !== f.index) throw new Error(`HOG id ${id} of family ${f.index} is not that family's in the HOG id index`);
      if (cardRows.get(id)?.[0] !== hogCards.rows || cardRows.get(id)?.[1] !== root) throw new Error(`HOG id ${id}'s cards are not in the rows the proteins name`);
      hogCards.push(withMemberChunks(card, id, chunksOf.familyMembers));
      const onLevels = withMemberChunks(levelCard, id, chunksOf.familyMembers);
      hogLevelCards.push(onLevels, (chunkOf) => withAncestorChunks(onLevels, id, chunkOf));
    }
  }
  const tables = { hogCards: hogCards.finish(), hogLevelCards: hogLevelCards.finish() };
  const cardPlace = (row: number, root: number): CardPlace => [row, root, hogCards.chunkOf(row), hogLevelCards.chunkOf(row), hogCards.chunkOf(root)];
  const placeOf = (id: string, family: number): HogPlace => {
    const rows = cardRows.get(id);
    return rows ? [family, familyChunk(family), ...cardPlace(...rows)] : [family, familyChunk(family)];
  };
  // Only listed for the HOG id index (writeHashIndex), so a list of entries rather than a map of them.
  const places = Array.from(hogIdFamilies(b.families), ([id, family]): [string, HogPlace] => [id, placeOf(id, family)]);
  // An alias: its target, then where its HOG id is (its place after the family).
  const aliases = (named: Map<string, AliasTarget>) =>
    new Map(
      [...named].map(([alias, target]): [string, HogAlias] => {
        const [, ...where] = placeOf(target[1], target[0]);
        return [alias, [...target, ...where] as HogAlias];
      }),
    );
  return { ...tables, places, aliases };
}

/**
 * A card naming the `familyMembers` chunks of its records of `id` of up to MEMBER_SLICE members
 * (what the worker reads those members from; a larger HOG streams from the family's row).
 */
function withMemberChunks(card: HogCard, id: string, memberChunks: readonly RowChunk[]): HogCard {
  const chunks = new Set<RowChunk>();
  if (card.firstMember >= 0) {
    for (const [k, , , , , runs] of card.records) {
      if (card.ids[k][0] !== id) continue;
      let count = 0;
      for (let r = 0; r < runs.length; r += 2) count += runs[r + 1] - runs[r];
      if (count > MEMBER_SLICE) continue;
      for (let r = 0; r < runs.length; r += 2) {
        const [from, to] = [rowChunkIndex(memberChunks, card.firstMember + runs[r]), rowChunkIndex(memberChunks, card.firstMember + runs[r + 1] - 1)];
        for (let c = from; c <= to; c++) chunks.add(memberChunks[c]);
      }
    }
  }
  return { ...card, memberChunks: [...chunks].sort((a, b) => a[0] - b[0]) };
}

/** A level card of `id` naming, for each ancestor of `id` it lists, the chunk of the ancestor's level card (none: this card's chunk). */
function withAncestorChunks(card: HogCard, id: string, chunkOf: (row: number) => RowChunk | undefined): HogCard {
  const ids = card.ids.map((named): HogCard["ids"][number] => {
    const [other, levels, row] = named;
    if (other === id || !isPrefixId(other, id)) return named;
    const chunk = chunkOf(row);
    return chunk ? [other, levels, row, chunk] : named;
  });
  return { ...card, ids };
}

/** What the writing tasks wrote, by task. */
export type WrittenRelease = { [N in RelationPartName]: RelationPart } & {
  relations: RelationTables;
  "family-tables": ReturnType<typeof writeFamilyTables>;
  "annotation-tables": ReturnType<typeof writeAnnotationTables>;
  "protein-tables": Awaited<ReturnType<typeof writeProteinTables>>;
  "sequence-index": Awaited<ReturnType<typeof writeSequenceSearch>>;
  "xref-search": ReturnType<typeof writeXrefs>;
  "hog-lists": ReturnType<typeof writeHogLists>;
  indexes: ReturnType<typeof writeIndexes>;
  "hog-index": ReturnType<typeof writeHogIndex>;
  profiles: Awaited<ReturnType<typeof writeProfiles>>;
}

/** The manifest naming every table, index and genome blob the tasks wrote. */
export function releaseManifest(d: DerivedRelease, w: WrittenRelease): Manifest {
  const { relations, pairs } = w.relations;
  const { genomes, hogList, genomeDetails, hogLists } = w["hog-lists"];
  const { indexes } = w.indexes;
  const { hogCards, hogLevelCards, hogIds, hogAliases } = w["hog-index"];
  const { groups, families, familyMembers, pairDirectory, familyGo, geneTrees } = w["family-tables"];
  const { profiles } = w.profiles;
  const { proteins } = w["protein-tables"];
  const { annotations, peptides } = w["annotation-tables"];
  return {
    format: FORMAT_VERSION,
    name: d.config.name,
    hogPrefix: d.config.hogReleaseLetter ?? "",
    date: d.config.date ?? "",
    // Only the `oma` profile is recorded: a release compiled without the key (or with "orth") is byte-identical to one from before the key.
    ...(d.config.fieldNames === "oma" ? { fieldNames: "oma" as const } : {}),
    counts: d.counts,
    taxonomy: { names: d.taxonomy.names, parents: d.taxonomy.parents, genomes: d.taxonomy.genomes, taxonIds: d.taxonomy.taxonIds },
    genomes,
    tables: { proteins, sequences: d.sequences, groups, families, familyMembers, hogCards, hogLevelCards, annotations, relations, pairs, pairDirectory, hogList, profiles, familyGo, peptides, ...(geneTrees ? { geneTrees } : {}), genomeDetails },
    sequenceIndex: w["sequence-index"].sequenceIndex,
    hogLists,
    xrefSearch: w["xref-search"].xrefSearch,
    indexes: { entryIds: indexes.entryIds, fingerprints: indexes.fingerprints, hogIds, goTerms: indexes.goTerms, ...(hogAliases ? { hogAliases } : {}) },
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
