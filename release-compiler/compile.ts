/**
 * The compiler as a pipeline: read and check every input, derive (numbering, HOGs, groups,
 * relations, annotations), write the packs, the header and the manifest. Each stage lives in readers/,
 * derive/ or write/; this file only runs them in order. Rows too many to hold (relations,
 * k-mer postings) go through the row engine (engine.ts, DuckDB) in a scratch folder beside the
 * release; everything else is held in the Node heap.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import type { Manifest, ManifestFile, ReleaseHeader } from "../release-format/format.js";
import { loadConfig, type ReleaseConfig } from "./config.js";
import { readAnnotations } from "./derive/annotations.js";
import { deriveGroups, fingerprintGroups, groupOfEntries, readGroups } from "./derive/groups.js";
import { familyPlaces, readHogFamilies } from "./derive/hog-families.js";
import { readOrthoFinderGeneTrees } from "./derive/orthofinder/gene-trees.js";
import { readOrthoFinderHogs } from "./derive/orthofinder/hogs.js";
import { orthologueFiles, orthologuePairs } from "./derive/orthofinder/pairs.js";
import { readOrthoFinderSpecies } from "./derive/orthofinder/species.js";
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
import { readPairsTsv } from "./readers/pairs.js";
import { readSpeciesInfo } from "./readers/species-info.js";
import { openEngine, type Engine } from "./engine.js";
import { scratchFolder, type ScratchFolder } from "./scratch.js";
import { stageReporter, type Stages } from "./stages.js";
import { packWriter, type PackWriter } from "./write/packs.js";
import { LAYOUT } from "./write/layout.js";
import { writeRelease, type ReleaseBuild } from "./write/release.js";
import { writeSequences } from "./write/sequences.js";

interface CompileResult {
  manifest: Manifest;
  outDir: string;
  /** `file: warning: message` lines: what the release serves less of than complete inputs would give. */
  warnings: string[];
  stats: { packs: number; chunks: number; bytes: number; largestChunk: number; headerBytes: number; manifestBytes: number; seconds: number };
}

/**
 * Compiles the release described by a config file into `outDir`. The release is built in a
 * sibling folder and moved into place only when complete, so a failed compile never
 * touches an existing release.
 */
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
  /** `--memory`: bytes the row engine may hold before it spills to disk (default: DEFAULT_ENGINE_MEMORY). */
  memory?: number;
}

/** The row engine's memory when `--memory` is not given. */
export const DEFAULT_ENGINE_MEMORY = 2 * 2 ** 30;

export async function compileRelease(
  configPath: string,
  outDir: string,
  options: CompileOptions = {},
): Promise<CompileResult> {
  const started = performance.now();
  const stage = stageReporter({ log: options.log, memory: options.verbose, terminal: options.terminal });
  const loaded = await loadConfig(configPath);
  if (!loaded.config) throw new InputRejected(loaded.problems);

  const target = resolve(outDir);
  mkdirSync(dirname(target), { recursive: true });
  for (const left of removeLeftovers(target)) options.log?.(`removed ${left}, left by a compile that did not finish`);
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  // Spill files of the derivations, beside the release (same disk, no /tmp size limit).
  const scratch = scratchFolder(`${target}.scratch-${process.pid}`);
  let engine: Engine | undefined;
  try {
    const jobs = options.jobs ?? availableParallelism();
    engine = await openEngine({ folder: scratch.folder("engine"), memoryBytes: options.memory ?? DEFAULT_ENGINE_MEMORY, threads: jobs });
    // Packs are written from the first genome read on (the sequences table as the cDNA streams in).
    const packs = packWriter(partial);
    const build = await deriveRelease(loaded.config, loaded.problems, stage, { packs, scratch, engine, jobs, alignPairs: options.alignPairs ?? false });
    const manifest = await writeRelease(build, packs, engine, stage, jobs);
    const { taxonomy, genomes, hogLists, tables, sequenceIndex, indexes, xrefSearch, ...named } = manifest;
    const header: ReleaseHeader = { taxonomy, genomes, hogLists, tables, sequenceIndex, indexes, xrefSearch };
    const file: ManifestFile = { ...named, header: packs.single(header) };
    stage.done("write the other tables and indexes");
    const json = JSON.stringify(file);
    writeFileSync(join(partial, "manifest.json"), json);
    replaceDirectory(partial, target);
    return {
      manifest,
      outDir: target,
      warnings: loaded.problems.warnings.map(formatWarning),
      stats: {
        ...packs.stats,
        headerBytes: file.header[2],
        manifestBytes: json.length,
        seconds: (performance.now() - started) / 1000,
      },
    };
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  } finally {
    engine?.close();
    scratch.remove();
  }
}

/**
 * Folders beside the target that a compile killed part-way left (`.partial-`, `.scratch-` and
 * `.old-` with the pid of a process that no longer runs) hold up to a release's size of disk:
 * removed before a new compile starts. Returns their paths.
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

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // running, as another user
  }
  // A killed process whose parent died too may linger as a zombie where nothing reaps orphans (containers).
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return true; // no /proc: trust the signal
  }
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
  { packs, scratch, engine, alignPairs, jobs }: { packs: PackWriter; scratch: ScratchFolder; engine: Engine; alignPairs: boolean; jobs: number },
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

  const proteins = await readProteomes(species, config.proteomes, problems, { keepStops: orthoFinder !== undefined });
  const sequences = await writeSequences(
    packs,
    proteins,
    config.cdna ? readCdnaByGenome(proteins, species, config.cdna, problems) : undefined,
    LAYOUT.sequencesChunkBytes,
  );
  if (config.loci) await readLoci(proteins, species, config.loci, problems);
  if (config.isoforms) await readIsoforms(proteins, species, config.isoforms, problems);
  stage.done("proteomes, cDNA, loci, isoforms");

  const orthoFinderHogs = orthoFinder && (await readOrthoFinderHogs(orthoFinder, config.hogReleaseLetter ?? "", proteins, problems));
  const { families, hogIds } = orthoFinderHogs ?? (await readHogFamilies(config.hogs!, config.hogReleaseLetter ?? "", taxonomy, proteins, problems));
  const places = familyPlaces(families, taxonomy, proteins);
  stage.done("HOGs");
  chooseMainIsoforms(proteins, (e) => places.family[e - 1] > 0, config.isoforms ?? "isoforms", problems);

  const groups = config.groups
    ? await readGroups(config.groups, proteins, problems)
    : deriveGroups(families, (e) => proteins.genome[e - 1]);
  stage.done("groups");
  const orthologues = orthoFinder ? orthologueFiles(orthoFinder, problems) : [];
  const relations = await deriveRelations(
    families,
    orthologues.length
      ? { path: orthoFinder!.results.folder, rows: orthologuePairs(orthologues, orthoFinder!, proteins, problems) }
      : config.pairs
        ? { path: config.pairs, rows: readPairsTsv(config.pairs, problems) }
        : undefined,
    {
      proteinCount: proteins.count,
      genomeOf: (e) => proteins.genome[e - 1],
      genomeFirstEntry: proteins.genomeFirstEntry,
      genomeSize: proteins.genomeSize,
      subgenomeOf: subgenomeReader(species, proteins),
      entryOfId: (id) => proteins.byInputId.get(id),
      measure: alignPairs ? (a, b) => measurePair(proteins.sequence[a - 1], proteins.sequence[b - 1]) : undefined,
      sequenceOf: (e) => proteins.sequence[e - 1],
      jobs,
    },
    problems,
    engine,
    stage.progress("pairwise relations", families.length, "families"),
  );
  stage.done("pairwise relations");
  const annotations = await readAnnotations(proteins, config, problems);
  stage.done("annotations");
  const geneTrees = orthoFinderHogs && (await readOrthoFinderGeneTrees(orthoFinder!, orthoFinderHogs.orthogroupOf, proteins, problems, scratch));
  if (orthoFinder) stage.done("gene trees");
  stopIfProblems();

  const group = groupOfEntries(groups, proteins.count);
  // A mirror keeps the fingerprints its release gave (`n/a` included).
  const fingerprints = oma?.fingerprints ?? fingerprintGroups(groups, (e) => proteins.sequence[e - 1], proteins.count);
  stage.done("fingerprints");
  const hogAliases = orthoFinderHogs?.aliases;
  return {
    config, taxonomy, species, proteins, sequences, families, hogIds, ...places, groups, fingerprints, group, annotations, relations,
    ...(geneTrees ? { geneTrees } : {}),
    ...(hogAliases ? { hogAliases } : {}),
  };
}
