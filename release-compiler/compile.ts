/**
 * The compiler as a pipeline of tasks (tasks.ts): `derive` reads and checks every input and
 * derives numbering, HOGs, groups, relations and annotations; the writing tasks each write
 * some of the tables and indexes into packs (write/release.ts); then the release is put
 * together from their packs, with its header and manifest. Each finished task leaves its
 * outputs in the work folder, so a compile killed part-way resumes from them, and a workflow
 * engine can run each task as a job of its own (`--task`, workflow/Snakefile). Rows too many
 * to hold (relations, k-mer postings) go through the row engine (engine.ts, DuckDB).
 */
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, totalmem } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { packKey, type Manifest, type ManifestFile, type ReleaseHeader } from "../release-format/format.js";
import { storedHeader } from "../release-format/header.js";
import { loadConfig, type ReleaseConfig } from "./config.js";
import { queriedIds, readAnnotations } from "./derive/annotations.js";
import { fingerprintGroups } from "./derive/fingerprints.js";
import { deriveGroups, groupOfEntries, readGroups } from "./derive/groups.js";
import { familyPlaces, readHogFamilies } from "./derive/hog-families.js";
import { familiesOf } from "./derive/family-table.js";
import { readOrthoFinderGeneTrees } from "./derive/orthofinder/gene-trees.js";
import { readOrthoFinderHogs } from "./derive/orthofinder/hogs.js";
import { orthologueFiles, orthologuePairs } from "./derive/orthofinder/pairs.js";
import { readOrthoFinderSpecies } from "./derive/orthofinder/species.js";
import { openSequences } from "./derive/sequence-file.js";
import { chooseMainIsoforms, readCdnaByGenome, readIsoforms, readLoci, readProteomes } from "./derive/proteins.js";
import { measurePair } from "./derive/pair-alignment.js";
import { deriveRelations } from "./derive/relations.js";
import { nameSpeciesFromUniProt } from "./derive/species-names.js";
import { subgenomeReader } from "./derive/subgenomes.js";
import { buildTaxonomy, type TaxonomyBuild } from "./derive/taxonomy.js";
import { convertOmaRelease } from "./oma-import/convert.js";
import type { SpeciesInfoRow } from "./inputs.js";
import { formatWarning, InputRejected, Problems } from "./problems.js";
import { readNewick } from "./readers/newick.js";
import { readPairBatches } from "./readers/pairs.js";
import { readSpeciesInfo } from "./readers/species-info.js";
import { openEngine, type Engine } from "./engine.js";
import { scratchFolder, type ScratchFolder } from "./scratch.js";
import { runTasksSideBySide } from "./task-processes.js";
import { derivedLine, filesProgress, stageReporter, type Stages } from "./stages.js";
import { DERIVED_COUNTS, derivedFiles, derivedScale, givenPairsMemory, type DerivedCounts, inputBytes, isRunning, LEAST_WORKING, plannedHeap, plannedMemory, RELATION_PARTS, relationPart, TASK_NAMES, TASKS, taskLedger, UnfinishedTask, workingMemory, type PackedOutput, type RelationPartName, type TaskName } from "./tasks.js";
import { packChunk, packWriter, type PackWriter } from "./write/packs.js";
import { packedChunkReader } from "./write/beside.js";
import { LAYOUT } from "./write/layout.js";
import {
  DERIVED_ROWS,
  derivedRelease,
  releaseBuild,
  releaseManifest,
  putRelationsTogether,
  writeHogIndex,
  writeHogLists,
  writeIndexes,
  writeRelationsPart,
  writeFamilyTables,
  writeProfiles,
  writeAnnotationTables,
  writeProteinTables,
  writeSequenceSearch,
  writeXrefs,
  type DerivedRelease,
  type ReleaseBuild,
  type WriteContext,
  type WrittenRelease,
} from "./write/release.js";
import type { RelationPart } from "./write/relations.js";
import { writeSequences } from "./write/sequences.js";

interface CompileResult {
  manifest: Manifest;
  outDir: string;
  /** `file: warning: message` lines: what the release serves less of than complete inputs would give. */
  warnings: string[];
  stats: { packs: number; chunks: number; bytes: number; largestChunk: number; headerBytes: number; manifestBytes: number; seconds: number; sideBySide: boolean };
}

export interface CompileOptions {
  /** Takes one line per finished stage. */
  log?: (message: string) => void;
  /** `--verbose`: stage lines also give the heap and resident set. */
  verbose?: boolean;
  /** Where long stages draw a live progress bar, when it is a terminal (the CLI's stderr). */
  terminal?: NodeJS.WriteStream;
  /** `--align-pairs`: every pairwise relation gets the score and distance of its alignment (derive/pair-alignment.ts). */
  alignPairs?: boolean;
  /** `--jobs`: worker threads (family pairs and their alignments, packing the relation tables, k-mers) and threads the row engine sorts on (default: the machine's cores). */
  jobs?: number;
  /**
   * `--memory`: the memory the compile keeps to (default: defaultMemory()). Tasks run side by side
   * only while their expected resident sets fit in it together (tasks.ts, tasksToStart), and a
   * task that sorts out of core holds what its own leaves before it spills to disk (workingMemory).
   */
  memory?: number;
  /** `--work`: the folder of finished tasks, kept (default: `<out>.work`, removed once the release is in place). */
  work?: string;
  /**
   * The tasks as child processes side by side (task-processes.ts), derive first and alone, or
   * all in this process one after another (`--in-process`). Default: side by side when the inputs
   * hold SIDE_BY_SIDE_INPUT_BYTES or more, whatever the jobs (with one, one task at a time): a
   * task's process has a heap sized to the memory it holds (tasks.ts, heapOf), where this one's
   * is whatever Node was started with.
   */
  sideBySide?: boolean;
  /** The inputs' hash (TaskLedger.inputs) as the compile that started this task computed it: not hashed again. */
  inputsHash?: string;
}

/**
 * Inputs below this size (about 200,000 proteins with their cDNA, annotations and HOGs; the
 * simulated 100,000 take 0.5 GB) compile in seconds a task, about what a child process takes
 * to start and read the derived release, so their tasks run in this process.
 */
export const SIDE_BY_SIDE_INPUT_BYTES = 2 ** 30;

/** The line of the tasks run side by side: its time overlaps theirs, each of which has its own lines. */
export const SIDE_BY_SIDE_STAGE = "the tasks side by side";

/** The line of a task reading the derived release it was given (each task's process has one when they run side by side). */
export const LOAD_DERIVED_STAGE = "load the derived release";

/** The line of the fingerprints, derived on the worker threads while this thread reads the annotations. */
export const ANNOTATIONS_STAGE = "fingerprints and annotations";

/** The compile's memory when `--memory` is not given: half the machine's. */
export const defaultMemory = (): number => Math.floor(totalmem() / 2);

/** The tasks' outputs, by task. */
type TaskOutputs = { derive: DerivedRelease } & { [N in keyof WrittenRelease]: WrittenRelease[N] & { packed: PackedOutput } };

/**
 * Compiles the release described by a config file into `outDir`: every task that has not
 * finished (in this work folder, with these inputs), then the release. The release is put
 * together in a sibling folder and moved into place only when complete, so a failed compile
 * never touches an existing release.
 */
export async function compileRelease(configPath: string, outDir: string, options: CompileOptions = {}): Promise<CompileResult> {
  const compile = await openCompile(configPath, outDir, options);
  for (const left of [...removeLeftovers(compile.target), ...compile.ledger.prune()]) options.log?.(`removed ${left}, left by a compile that did not finish`);
  const ownWork = !options.work;
  try {
    if (options.sideBySide ?? inputBytes(compile.config) >= SIDE_BY_SIDE_INPUT_BYTES) await compile.sideBySide();
    const result = await compile.release();
    if (ownWork) rmSync(compile.ledger.work, { recursive: true, force: true });
    return result;
  } catch (error) {
    // Kept for a compile started again only when a task finished (not after a failure in the inputs, say).
    if (ownWork && !TASK_NAMES.some(compile.ledger.isDone)) rmSync(compile.ledger.work, { recursive: true, force: true });
    throw error;
  }
}

/**
 * One task of the compile, as a workflow's job runs it (`--task`): the tasks it needs must
 * have finished; `release` puts the release together from the finished tasks.
 */
export async function compileTask(configPath: string, outDir: string, task: TaskName | "release", options: CompileOptions = {}): Promise<CompileResult | undefined> {
  const compile = await openCompile(configPath, outDir, { ...options, only: task });
  if (task === "release") return compile.release();
  await compile.output(task);
  return undefined;
}

/** The tasks and the file that says each has finished, for a workflow's plan (`--plan`). */
export async function planCompile(configPath: string, outDir: string, options: CompileOptions = {}) {
  const { ledger, target, memoryBytes } = await openCompile(configPath, outDir, options);
  return {
    out: target,
    work: ledger.work,
    /** The compile's memory (`--memory`, or the default); the derived release's files and its counts, whose size and genomes the tasks' memory grows with. */
    memory: memoryBytes,
    derived: derivedFiles(ledger),
    counts: join(ledger.folder("derive"), DERIVED_COUNTS),
    /** The hash of everything the release is made from, which names every task's outputs: a job given it (`--inputs`) need not read the inputs to compute it. */
    inputs: ledger.inputs,
    tasks: Object.fromEntries(
      TASK_NAMES.map((name) => {
        const { needs, threads } = TASKS[name];
        // `heap`: the job's --max-old-space-size, as the compile's own tasks get it (tasks.ts, plannedHeap), M being the job's memory.
        return [name, { needs, threads, memory: plannedMemory(name) ?? null, heap: plannedHeap(name), done: ledger.marker(name) }];
      }),
    ),
  };
}

async function openCompile(configPath: string, outDir: string, options: CompileOptions & { only?: TaskName | "release" }) {
  const started = performance.now();
  const stage = stageReporter({ log: options.log, memory: options.verbose, terminal: options.terminal });
  const loaded = await loadConfig(configPath);
  if (!loaded.config) throw new InputRejected(loaded.problems);
  const config = loaded.config;
  const target = resolve(outDir);
  mkdirSync(dirname(target), { recursive: true });
  const jobs = options.jobs ?? availableParallelism();
  const memoryBytes = options.memory ?? defaultMemory();
  const alignPairs = options.alignPairs ?? false;
  const ledger = taskLedger(resolve(options.work ?? `${target}.work`), config, { alignPairs }, options.inputsHash);

  // A task's body: its outputs, and the packs it wrote.
  const bodies: { [N in TaskName]: (folder: string, scratch: string) => Promise<TaskOutputs[N]> } = {
    derive: async (folder, scratch) => {
      const packs = packWriter(ledger.work);
      const working = workingMemory("derive", memoryBytes, { bytes: 0, genomes: 0 });
      const engine = await openEngine({ database: join(folder, DERIVED_ROWS), spill: join(scratch, "spill"), memoryBytes: working, threads: jobs });
      try {
        const build = await deriveRelease(config, loaded.problems, stage, { packs, scratch: scratchFolder(join(scratch, "derive")), keep: folder, engine, jobs, memoryBytes: working, budget: memoryBytes, alignPairs });
        const derived = derivedRelease(build, loaded.problems.warnings.map(formatWarning), packed(packs));
        const counts: DerivedCounts = { ...derived.counts, kmerWindows: derived.kmerWindows };
        writeFileSync(join(folder, DERIVED_COUNTS), JSON.stringify(counts));
        return derived;
      } finally {
        engine.close();
      }
    },
    ...(Object.fromEntries(
      Array.from({ length: RELATION_PARTS }, (_, i) => [relationPart(i + 1), (_: string, scratch: string) => writing(relationPart(i + 1), scratch, (c) => writeRelationsPart(c, i + 1))]),
    ) as { [N in RelationPartName]: (folder: string, scratch: string) => Promise<TaskOutputs[N]> }),
    relations: (_, scratch) =>
      writing("relations", scratch, async (c) => {
        const parts: RelationPart[] = [];
        for (let part = 1; part <= RELATION_PARTS; part++) parts.push(await output(relationPart(part)));
        return putRelationsTogether(c, parts);
      }),
    "family-tables": (_, scratch) => writing("family-tables", scratch, async (c) => writeFamilyTables(c, await output("relations"))),
    "annotation-tables": (_, scratch) => writing("annotation-tables", scratch, writeAnnotationTables),
    "protein-tables": (_, scratch) =>
      writing("protein-tables", scratch, async (c) => writeProteinTables(c, await output("relations"), await output("family-tables"), await output("annotation-tables"))),
    "sequence-index": (_, scratch) => writing("sequence-index", scratch, writeSequenceSearch),
    "xref-search": (_, scratch) => writing("xref-search", scratch, writeXrefs),
    "hog-lists": (_, scratch) => writing("hog-lists", scratch, writeHogLists),
    indexes: (_, scratch) => writing("indexes", scratch, writeIndexes),
    "hog-index": (_, scratch) => writing("hog-index", scratch, async (c) => writeHogIndex(c, await output("family-tables"))),
    profiles: (_, scratch) => writing("profiles", scratch, writeProfiles),
  };

  const writing = async <T>(name: TaskName, scratch: string, write: (c: WriteContext) => T | Promise<T>): Promise<T & { packed: PackedOutput }> => {
    await output("derive");
    const working = workingMemory(name, memoryBytes, derivedScale(ledger));
    // Each writing task reads the derived release afresh, the fields it uses: what one task read is collected before the next.
    const build = releaseBuild(ledger.load<DerivedRelease>("derive"), ledger.folder("derive"));
    const packs = packWriter(ledger.work);
    const engine = (readOnlyDatabase?: string, attach?: string[]) =>
      openEngine({
        database: readOnlyDatabase ?? join(scratch, "rows.duckdb"),
        spill: join(scratch, "spill"),
        memoryBytes: working,
        threads: jobs,
        readOnly: readOnlyDatabase !== undefined,
        attach,
      });
    try {
      const result = await write({ b: build, packs, stage, jobs, memoryBytes: working, derived: ledger.folder("derive"), engine, readChunk: packedChunkReader(ledger.work) });
      return { ...result, packed: packed(packs) };
    } finally {
      build.close();
    }
  };

  const outputs = new Map<TaskName, Promise<unknown>>();
  // Tasks that ran in processes of their own, and a task's needs in a task run alone (`--task`), are loaded without a line each.
  let ranApart = false;
  const output = <N extends TaskName>(name: N): Promise<TaskOutputs[N]> => {
    if (!outputs.has(name)) {
      const unfinished = options.only !== undefined && options.only !== name && !ledger.isDone(name);
      const loading = ledger.isDone(name);
      outputs.set(
        name,
        unfinished
          ? Promise.reject(new UnfinishedTask(`task ${options.only} needs task ${name}, which has not finished in ${ledger.work}`))
          : ledger.run(name, bodies[name], ranApart || (options.only !== undefined && options.only !== name) ? undefined : options.log).then((value) => {
              if (name === "derive") stage.done(loading ? LOAD_DERIVED_STAGE : "keep the derived release");
              if (name === "derive" && !loading) options.log?.(derivedLine(derivedScale(ledger)));
              return value;
            }),
      );
    }
    return outputs.get(name) as Promise<TaskOutputs[N]>;
  };

  /** Every task's output, then the release put together from their packs in a sibling folder, moved into place. */
  const release = async (): Promise<CompileResult> => {
    const done = {} as TaskOutputs;
    for (const name of TASK_NAMES) (done as Record<TaskName, unknown>)[name] = await output(name);
    const manifest = releaseManifest(done.derive, done);
    const partial = `${target}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    try {
      const packs = packWriter(partial);
      const { taxonomy, genomes, hogLists, tables, sequenceIndex, indexes, xrefSearch, ...named } = manifest;
      const header: ReleaseHeader = { taxonomy, genomes, hogLists, tables, sequenceIndex, indexes, xrefSearch };
      const file: ManifestFile = { ...named, header: packs.single(storedHeader(header, packChunk)) };
      const outputsPacked = TASK_NAMES.map((name) => done[name].packed);
      for (const name of new Set(outputsPacked.flatMap((o) => o.packs))) {
        const to = join(partial, packKey(name));
        if (!existsSync(to)) linkOrCopy(join(ledger.work, packKey(name)), to);
      }
      const json = JSON.stringify(file);
      writeFileSync(join(partial, "manifest.json"), json);
      stage.done("put the release together");
      const packFiles = readdirSync(join(partial, "packs"));
      replaceDirectory(partial, target);
      return {
        manifest,
        outDir: target,
        warnings: done.derive.warnings,
        stats: {
          packs: packFiles.length,
          chunks: packs.stats.chunks + outputsPacked.reduce((n, o) => n + o.chunks, 0),
          bytes: packFiles.reduce((n, name) => n + statSync(join(target, "packs", name)).size, 0),
          largestChunk: Math.max(packs.stats.largestChunk, ...outputsPacked.map((o) => o.largestChunk)),
          headerBytes: file.header[2],
          manifestBytes: json.length,
          seconds: (performance.now() - started) / 1000,
          sideBySide: ranApart,
        },
      };
    } catch (error) {
      rmSync(partial, { recursive: true, force: true });
      throw error;
    }
  };

  /**
   * Every task, each in a child process, side by side (task-processes.ts): this process holds
   * none of their memory.
   */
  const sideBySide = async () => {
    const args = ["--config", resolve(configPath), "--out", target, "--work", ledger.work, ...(alignPairs ? ["--align-pairs"] : []), ...(options.verbose ? ["--verbose"] : [])];
    await runTasksSideBySide(TASK_NAMES, {
      args,
      jobs,
      memoryBytes,
      scale: () => derivedScale(ledger),
      inputsHash: ledger.inputs,
      isDone: ledger.isDone,
      log: options.log,
    });
    ranApart = true;
    stage.done(SIDE_BY_SIDE_STAGE);
  };

  return { target, ledger, config, jobs, memoryBytes, output, release, sideBySide };
}

/** A hard link (the packs stay where the tasks wrote them until the work folder goes), or a copy across file systems. */
function linkOrCopy(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EXDEV") throw error;
    copyFileSync(from, to);
  }
}

/** What a task hands on of the packs it wrote. */
function packed(packs: PackWriter): PackedOutput {
  return { packs: [...packs.written], chunks: packs.stats.chunks, largestChunk: packs.stats.largestChunk };
}

/**
 * Folders beside the target that a compile killed part-way left (`.partial-` and `.old-` with
 * the pid of a process that no longer runs) hold up to a release's size of disk: removed
 * before a new compile starts. Returns their paths. (The work folder is kept: it is what a
 * compile started again resumes from.)
 */
function removeLeftovers(target: string): string[] {
  const prefix = `${basename(target)}.`;
  const removed: string[] = [];
  for (const name of readdirSync(dirname(target))) {
    const match = /^(?:partial|scratch|old)-(\d+)$/.exec(name.startsWith(prefix) ? name.slice(prefix.length) : "");
    if (!match || isRunning(Number(match[1]))) continue;
    rmSync(join(dirname(target), name), { recursive: true, force: true });
    removed.push(join(dirname(target), name));
  }
  return removed;
}

function replaceDirectory(from: string, to: string): void {
  const old = `${to}.old-${process.pid}`;
  if (existsSync(to)) renameSync(to, old);
  renameSync(from, to);
  rmSync(old, { recursive: true, force: true });
}

/** Reads and checks every input, then derives numbering, HOGs, groups and annotations. */
async function deriveRelease(
  config: ReleaseConfig,
  problems: Problems,
  stage: Stages,
  { packs, scratch, keep, engine, alignPairs, jobs, memoryBytes, budget }: { packs: PackWriter; scratch: ScratchFolder; keep: string; engine: Engine; alignPairs: boolean; jobs: number; memoryBytes: number; budget: number },
): Promise<ReleaseBuild> {
  const stopIfProblems = () => {
    if (problems.count) throw new InputRejected(problems);
  };
  // An OMA release's files (`oma_release`) are turned into the ordinary inputs first (oma-import/).
  const oma = config.omaRelease ? await convertOmaRelease(config.omaRelease, scratch.folder("oma-release"), problems, { goOntology: config.goOntology }) : undefined;
  stopIfProblems();
  if (oma) {
    const { fingerprints: _, hogReleaseLetter, xrefs, goAnnotations, ...inputs } = oma;
    // The config's own `loci` wins over the annotations file's locations.
    config = { ...config, ...inputs, loci: config.loci ?? inputs.loci, xrefs: [...xrefs, ...config.xrefs], goAnnotations: [...goAnnotations, ...config.goAnnotations], hogReleaseLetter: config.hogReleaseLetter ?? hogReleaseLetter };
    stage.done("OMA release files");
  }
  // OrthoFinder results (`orthofinder`) give the genomes, levels, HOGs, pairs and gene trees
  // themselves (derive/orthofinder/); otherwise species_info, the species tree and the orthoXML do.
  const orthoFinder = config.orthofinder ? await readOrthoFinderSpecies(config, problems) : undefined;
  if (config.orthofinder && !orthoFinder) throw new InputRejected(problems);
  let species: SpeciesInfoRow[];
  let taxonomy: TaxonomyBuild;
  if (orthoFinder) {
    ({ species, taxonomy } = orthoFinder);
  } else {
    species = await readSpeciesInfo(config.speciesInfo!, problems);
    const tree = await readNewick(config.speciesTree!, problems);
    stopIfProblems();
    await nameSpeciesFromUniProt(species, tree!, config.uniprot ?? []);
    taxonomy = buildTaxonomy(tree!, species, config.speciesTree!, config.speciesInfo!, problems);
  }
  stopIfProblems();

  // Each genome's files are read on the worker threads (derive/genome-files.ts).
  const proteins = await readProteomes(species, config.proteomes, problems, { keepStops: orthoFinder !== undefined, jobs, sequenceFolder: keep });
  // The ids the annotation files name proteins by, scanned while this thread waits on the
  // workers reading the genome files and the HOGs (a third of those stages' time at 1M).
  const queried = queriedIds(config, proteins);
  queried.catch(() => {}); // awaited when the annotations are read
  // Read from their file (derive/sequence-file.ts) where a derivation needs them.
  const proteinSequences = openSequences(proteins.sequenceFile, keep);
  try {
    const cdna = config.cdna;
    const sequences = await writeSequences(
      packs,
      proteins,
      proteinSequences,
      cdna ? (take) => readCdnaByGenome(proteins, species, cdna, problems, jobs, take) : undefined,
      LAYOUT.sequencesChunkBytes,
    );
    if (config.loci) await readLoci(proteins, species, config.loci, problems, jobs, keep);
    if (config.isoforms) await readIsoforms(proteins, species, config.isoforms, problems);
    stage.done("proteomes, cDNA, loci, isoforms");

    const orthoFinderHogs = orthoFinder && (await readOrthoFinderHogs(orthoFinder, config.hogReleaseLetter ?? "", proteins, problems));
    const { families } = orthoFinderHogs ?? (await readHogFamilies(config.hogs!, config.hogReleaseLetter ?? "", taxonomy, proteins, problems, { jobs }));
    const places = familyPlaces(families, proteins);
    stage.done("HOGs");
    chooseMainIsoforms(proteins, (e) => places.family[e - 1] > 0, config.isoforms ?? "isoforms", problems);

    const groups = config.groups
      ? await readGroups(config.groups, proteins, problems)
      : deriveGroups(familiesOf(families), (e) => proteins.genome[e - 1]);
    stage.done("groups");
    // The annotations are read on this thread while the worker threads derive the pairs and the
    // fingerprints (this thread is 8% and 14% busy there): awaited after both, their problems
    // reported after the pairs' as when they were read one after the other.
    const annotationProblems = new Problems();
    // Into their file (derive/annotation-file.ts), through a row engine of their own with the least working memory.
    const annotationsRead = readAnnotations(
      proteins,
      config,
      annotationProblems,
      { folder: keep, scratch: { folder: scratch.folder("annotations"), memoryBytes: LEAST_WORKING, threads: jobs } },
      queried,
    );
    annotationsRead.catch(() => {}); // awaited below; a failure while the pairs are derived is not unhandled
    const orthologues = orthoFinder ? orthologueFiles(orthoFinder, problems) : [];
    // Given pairs are checked and typed in a row engine of their own (derive/given-pairs.ts), with derive's working memory.
    const givenScratch = { folder: scratch.folder("given-pairs"), memoryBytes: givenPairsMemory(budget) };
    // A bar over the given pairs' files while they are read, then the families' (created at its first count).
    const givenFiles = orthologues.length ? orthologues.map(([, , path]) => path) : config.pairs ? [config.pairs] : [];
    const givenRead = givenFiles.length ? filesProgress(stage, "given pairs", givenFiles) : undefined;
    let familiesBar: ((done: number) => void) | undefined;
    const relations = await deriveRelations(
      families,
      orthologues.length
        ? { path: orthoFinder!.results.folder, rows: orthologuePairs(orthologues, orthoFinder!, proteins, problems, givenRead), scratch: givenScratch }
        : config.pairs
          ? { path: config.pairs, rows: readPairBatches(config.pairs, problems, givenRead && ((bytes) => givenRead(config.pairs!, bytes))), scratch: givenScratch }
          : undefined,
      {
        proteinCount: proteins.count,
        genomeOf: (e) => proteins.genome[e - 1],
        isMain: (e) => proteins.isMain[e - 1] === 1,
        genomeFirstEntry: proteins.genomeFirstEntry,
        genomeSize: proteins.genomeSize,
        subgenomeOf: subgenomeReader(species, proteins),
        entryOfId: (id) => proteins.inputIds.numberOf(id),
        idOf: (e) => proteins.inputIds.idOf(e),
        measure: alignPairs ? (a, b) => measurePair(proteinSequences.get(a), proteinSequences.get(b)) : undefined,
        sequenceOf: proteinSequences.get,
        jobs,
        // The pair workers' database files are kept beside the task's own (DERIVED_ROWS), for the relations parts to read.
        workerRows: { folder: keep, scratch: scratch.folder("pair-workers"), memoryBytes },
      },
      problems,
      engine,
      (done) => (familiesBar ??= stage.progress("pairwise relations", families.count, "families"))(done),
    );
    stage.done("pairwise relations");
    const group = groupOfEntries(groups, proteins.count);
    // A mirror keeps the fingerprints its release gave (`n/a` included).
    const fingerprints = oma?.fingerprints ?? (await fingerprintGroups(groups, proteinSequences.get, proteins.count, jobs));
    const annotations = await annotationsRead.finally(() => problems.append(annotationProblems));
    stage.done(ANNOTATIONS_STAGE);
    const geneTrees = orthoFinderHogs && (await readOrthoFinderGeneTrees(orthoFinder!, orthoFinderHogs.orthogroupOf, proteins, problems, keep));
    if (orthoFinder) stage.done("gene trees");
    stopIfProblems();
    const hogAliases = orthoFinderHogs?.aliases;
    return {
      config, taxonomy, species, proteins, sequences, families, ...places, groups, fingerprints, group, annotations, relations,
      ...(geneTrees ? { geneTrees } : {}),
      ...(hogAliases ? { hogAliases } : {}),
    };
  } finally {
    proteinSequences.close();
  }
}
