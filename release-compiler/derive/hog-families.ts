/**
 * The HOG families of the orthoXML, read one top-level group at a time, and where each
 * protein stands in them.
 *
 * With several jobs, worker threads parse the families and build them (hog-run-worker.ts),
 * runs of whole top-level groups cut from the file by this thread (readers/orthoxml-runs.ts)
 * and taken back in document order. That reading stands only for inputs without a problem or
 * warning: a run the workers cannot read cleanly, or a protein in two runs' families, and the
 * file is read again on this thread, so that problems are reported as one reading gives them.
 */
import { BigMap } from "../collections.js";
import { FamilyTableBuilder, familiesOf, type FamilyTable } from "./family-table.js";
import { geneEntries, geneEntriesFrom, type GeneEntries, type GeneEntriesData } from "./gene-entries.js";
import { Problems } from "../problems.js";
import { lineage } from "../../release-format/taxonomy.js";
import { parseOrthoXmlRun, readOrthoXml, type KnownHeader, type OrthoXmlHeader } from "../readers/orthoxml.js";
import { groupRuns } from "../readers/orthoxml-runs.js";
import { runTasksInOrder, sharedInt32 } from "../workers.js";
import { nodeIdIndex, nodeLevel } from "./hog-columns.js";
import { buildFamily, orthoXmlTaxonNames, type FamilyBuild } from "./hogs.js";
import type { ProteinTable } from "./proteins.js";
import type { TaxonomyBuild } from "./taxonomy.js";

/** Proteins from which the families are read on worker threads when there are several jobs. */
export const HOGS_ON_WORKERS_PROTEINS = 100_000;
/** Characters of orthoXML a worker parses at a time (a run of whole families). */
const RUN_CHARS = 1 << 20;

export interface HogFamilies {
  /** The families and every HOG id (family-table.ts). */
  families: FamilyTable;
}

/** Reads the families; a protein in two families and a HOG id used by two are problems. */
export async function readHogFamilies(
  file: string,
  hogPrefix: string,
  taxonomy: TaxonomyBuild,
  proteins: ProteinTable,
  problems: Problems,
  options: { jobs?: number; onWorkers?: boolean; runChars?: number } = {},
): Promise<HogFamilies & { onWorkers: boolean }> {
  const jobs = options.jobs ?? 1;
  const onWorkers = options.onWorkers ?? (jobs > 1 && proteins.count >= HOGS_ON_WORKERS_PROTEINS);
  const read = onWorkers ? await familiesOnWorkers(file, hogPrefix, taxonomy, proteins, Math.max(jobs, 1), options.runChars ?? RUN_CHARS) : undefined;
  const { builder, takenIds } = read ?? (await familiesHere(file, hogPrefix, taxonomy, proteins, problems));
  // After the families' own problems, as each id comes.
  for (const [id, other, family] of takenIds) problems.report(file, 0, `HOG id ${id} is used by two families (${builder.rootIdOf(other)}, ${builder.rootIdOf(family)})`);
  // onWorkers: whether worker threads read them (else this thread did, reporting every problem).
  return { families: builder.finish(), onWorkers: read !== undefined };
}

/** The families read so far, and the HOG ids a family has that an earlier one has: id, the earlier family, the family. */
interface FamiliesRead {
  builder: FamilyTableBuilder;
  takenIds: Array<[string, number, number]>;
}

/** Adds `family` to what has been read. */
function take({ builder, takenIds }: FamiliesRead, family: FamilyBuild): void {
  for (const [id, other] of builder.add(family)) takenIds.push([id, other, family.index]);
}

/** The genes of the header mapped to entries (a protein not in the proteomes is a problem), and its taxon names. */
function headerGenes(header: OrthoXmlHeader, file: string, proteins: ProteinTable, problems: Problems) {
  const genes: Array<[string, number]> = [];
  for (const sp of header.species) {
    for (const gene of sp.genes) {
      const entry = proteins.inputIds.numberOf(gene.protId);
      if (entry === undefined) problems.report(file, gene.line, `protein ${gene.protId} of the HOGs is not in the proteomes`);
      else genes.push([gene.id, entry]);
    }
  }
  const { entries, data } = geneEntries(genes);
  return { entryOfGene: entries, entryOfGeneData: data, taxonNames: orthoXmlTaxonNames(header.taxonomy) };
}

/** One reading on this thread, reporting every problem as it comes. */
async function familiesHere(file: string, hogPrefix: string, taxonomy: TaxonomyBuild, proteins: ProteinTable, problems: Problems): Promise<FamiliesRead> {
  const read: FamiliesRead = { builder: new FamilyTableBuilder(), takenIds: [] };
  let genes: { entryOfGene: GeneEntries; taxonNames: Map<string, string> } = { entryOfGene: new BigMap<string, number>(), taxonNames: new Map<string, string>() };
  // The index of the family each protein is in (0 = none yet), by entry - 1.
  const inFamily = new Int32Array(proteins.count);
  await readOrthoXml(
    file,
    problems,
    (root) => {
      const family = buildFamily(root, read.builder.count + 1, {
        taxonomy,
        prefix: hogPrefix,
        entryOfGene: (id) => genes.entryOfGene.get(id),
        genomeOf: (entry) => proteins.genome[entry - 1],
        taxonNames: genes.taxonNames,
        file,
        problems,
      });
      if (!family) return;
      for (const entry of family.members) {
        const other = inFamily[entry - 1];
        if (other) problems.report(file, root.line, `protein ${proteins.inputIds.idOf(entry)} is in two HOGs (${other === family.index ? family.rootId : read.builder.rootIdOf(other)}, ${family.rootId})`);
        inFamily[entry - 1] = family.index;
      }
      take(read, family);
    },
    // The species and taxonomy blocks precede <groups>: map genes to entries before any family.
    (header) => {
      genes = headerGenes(header, file, proteins, problems);
    },
  );
  return read;
}

/** What a worker of hog-run-worker.ts is given once. */
export interface HogRunContext {
  file: string;
  prefix: string;
  taxonomy: TaxonomyBuild;
  /** Genome index of entry - 1 (in shared memory: the threads read it in place). */
  genome: Int32Array;
  /** The header's gene entries as posted to a worker (geneEntriesFrom takes them back). */
  entryOfGene: GeneEntriesData;
  taxonNames: Map<string, string>;
  taxa: Set<string>;
  externalTaxonomy: boolean;
}

/** A run of whole top-level groups, its first family's index. */
export interface HogRunTask {
  text: string;
  first: number;
}

/** A run's families, or null when reading it gave a problem or a warning (or declared genes or taxa of its own). */
export async function readHogRun(context: HogRunContext, task: HogRunTask): Promise<FamilyBuild[] | null> {
  const problems = new Problems();
  const families: FamilyBuild[] = [];
  // Every gene of a clean header has an entry: its map is the header's gene ids.
  const entryOfGene = geneEntriesFrom(context.entryOfGene);
  const known: KnownHeader = { genes: entryOfGene, taxa: context.taxa, externalTaxonomy: context.externalTaxonomy };
  const ctx = {
    taxonomy: context.taxonomy,
    prefix: context.prefix,
    entryOfGene: (id: string) => entryOfGene.get(id),
    genomeOf: (entry: number) => context.genome[entry - 1],
    taxonNames: context.taxonNames,
    file: context.file,
    problems,
  };
  const header = await parseOrthoXmlRun(task.text, context.file, known, problems, (root) => {
    const family = buildFamily(root, task.first + families.length, ctx);
    if (family) families.push(family);
  });
  const clean = problems.count === 0 && problems.warnings.length === 0 && header.species.length === 0 && header.taxonomy.length === 0;
  return clean ? families : null;
}

/**
 * The families read on `jobs` worker threads, or undefined when the file has anything to report
 * (nothing is reported here: the caller reads it again on its own thread).
 */
async function familiesOnWorkers(file: string, prefix: string, taxonomy: TaxonomyBuild, proteins: ProteinTable, jobs: number, runChars: number): Promise<FamiliesRead | undefined> {
  const quiet = new Problems();
  const read: FamiliesRead = { builder: new FamilyTableBuilder(), takenIds: [] };
  let clean = true;
  let header: OrthoXmlHeader | undefined;
  await readOrthoXml(
    file,
    quiet,
    () => {
      clean = false; // no family reaches here: the groups are read apart
    },
    (h) => {
      header = h;
    },
    async (rest) => {
      if (!header || quiet.count > 0 || quiet.warnings.length > 0 || !header.rootName) return void (clean = false);
      const { entryOfGeneData, taxonNames } = headerGenes(header, file, proteins, quiet);
      if (quiet.count > 0) return void (clean = false);
      // A clean header's taxon ids are its names' keys (an id missing or given twice is a problem).
      const taxa = new Set(taxonNames.keys());
      const context: HogRunContext = { file, prefix, taxonomy, genome: sharedInt32(proteins.genome), entryOfGene: entryOfGeneData, taxonNames, taxa, externalTaxonomy: header.externalTaxonomy ?? false };
      const inFamily = new Uint8Array(proteins.count);
      const expected: number[] = [];
      let first = 1;
      let ended = false;
      const rootName = header.rootName;
      async function* tasks(): AsyncGenerator<HogRunTask> {
        for await (const run of groupRuns(rest, rootName, runChars)) {
          if (!clean) return; // read again on one thread: no use cutting further
          if (typeof run === "boolean") {
            ended = run;
            return;
          }
          expected.push(run.groups);
          yield { text: run.text, first };
          first += run.groups;
        }
      }
      const takeRun = (run: FamilyBuild[] | null) => {
        const groups = expected.shift();
        if (!clean) return;
        if (run === null || run.length !== groups) return void (clean = false);
        for (const family of run) {
          for (const entry of family.members) {
            if (inFamily[entry - 1]) return void (clean = false); // a protein in two families: told on one thread
            inFamily[entry - 1] = 1;
          }
          take(read, family);
        }
      };
      await runTasksInOrder(tasks(), takeRun, { module: new URL("./hog-run-worker.ts", import.meta.url), jobs, workerData: context });
      if (!ended) clean = false;
    },
  );
  return clean && quiet.count === 0 && quiet.warnings.length === 0 ? read : undefined;
}

/**
 * Per entry - 1: family index (0 = none), own HOG id (its index in the family's `tree.ids`;
 * a number rather than the id, which a million proteins would hold 40 MB of copies of once
 * the derived release is read back: `ownHogId` gives it).
 */
export interface FamilyPlaces {
  family: Int32Array;
  hogId: Int32Array;
}

/** The own HOG id of entry i + 1 ("" when it is in no family). */
export const ownHogId = ({ families: t, family, hogId }: FamilyPlaces & HogFamilies, i: number): string =>
  family[i] ? t.hogIds.idOf(t.idNumbers[t.idStarts[family[i] - 1] + hogId[i]]) : "";

export function familyPlaces(families: FamilyTable, proteins: ProteinTable): FamilyPlaces {
  const family = new Int32Array(proteins.count);
  const hogId = new Int32Array(proteins.count);
  for (const f of familiesOf(families)) {
    f.members.forEach((entry, i) => {
      family[entry - 1] = f.index;
      hogId[entry - 1] = nodeIdIndex(f.tree, f.memberNode[i]);
    });
  }
  return { family, hogId };
}

/**
 * Entry i + 1's count of the lineage levels its family spans: from its genome's level up to
 * its family's root level, both counted; 0 in no family, or when the root is not above its
 * genome. Worked out as the protein rows are written, not held by derive (4 bytes a protein).
 */
export function hogLevelCounts(families: FamilyTable, family: Int32Array, taxonomy: TaxonomyBuild, genome: Int32Array): (i: number) => number {
  const rootLevel = Int32Array.from(familiesOf(families), (f) => nodeLevel(f.tree, 0));
  // Each genome's lineage, its own level first, made once.
  const lineages = Array.from(taxonomy.genomeLevels, (level) => lineage(taxonomy, level));
  return (i) => (family[i] ? lineages[genome[i]].indexOf(rootLevel[family[i] - 1]) + 1 : 0);
}
