import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  FORMAT_VERSION,
  type FamilyRow,
  type GenomeDetail,
  type GenomeInfo,
  type FamilyGo,
  type FamilyProfile,
  type GenomePairRow,
  type GroupRow,
  type HogListRow,
  type Manifest,
  type ProteinRow,
  type ProteinSummary,
  type SequenceRow,
  type TableRef,
} from "../release-format/format.js";
import { loadConfig, type ReleaseConfig } from "./config.js";
import { readAnnotations } from "./derive/annotations.js";
import { deriveGroups, fingerprintGroups } from "./derive/groups.js";
import { buildFamily, familyHogIds, orthoXmlTaxonNames, type FamilyBuild } from "./derive/hogs.js";
import { chooseMainIsoforms, exonPairs, readCdnaByGenome, readIsoforms, readLoci, readProteomes, type ProteinTable } from "./derive/proteins.js";
import { nameSpeciesFromUniProt } from "./derive/species-names.js";
import { deriveRelations, type RelationsBuild } from "./derive/relations.js";
import { buildTaxonomy, lineage, type TaxonomyBuild } from "./derive/taxonomy.js";
import { InputRejected, Problems } from "./problems.js";
import { readGroupsTsv } from "./readers/groups.js";
import { readNewick } from "./readers/newick.js";
import { readOrthoXml } from "./readers/orthoxml.js";
import { readPairsTsv } from "./readers/pairs.js";
import { readSpeciesInfo } from "./readers/species-info.js";
import { scratchFolder, type ScratchFolder } from "./spill.js";
import { blobWriter, type BlobWriter } from "./write/blobs.js";
import { writeRelationTables } from "./write/relations.js";
import { writeSequences } from "./write/sequences.js";
import { writeSequenceIndex } from "./write/sequence-index.js";
import { writeKeyIndex, writeKeyIndexOfPairs, writeTable } from "./write/tables.js";
import { writeXrefSearch } from "./write/xref-search.js";

/** Shard sizes: a shard is one blob read, so these trade request cost against blob count. */
export const LAYOUT = {
  proteinsPerShard: 512,
  sequencesPerShard: 128,
  groupsPerShard: 256,
  familiesPerShard: 64,
  annotationsPerShard: 256,
  relationsPerShard: 128,
  pairsPerShard: 4096,
  pairDirectoryPerShard: 4096,
  hogListPerShard: 2048,
  profilesPerShard: 64,
  familyGoPerShard: 64,
  peptidesPerShard: 256,
  keysPerLeaf: 4096,
};

export interface CompileResult {
  manifest: Manifest;
  outDir: string;
  stats: { blobs: number; bytes: number; largestBlob: number; manifestBytes: number; seconds: number };
}

/** Everything the derivations produce, ready to be written. */
interface ReleaseBuild {
  config: ReleaseConfig;
  taxonomy: TaxonomyBuild;
  species: Awaited<ReturnType<typeof readSpeciesInfo>>;
  proteins: ProteinTable;
  /** Written while the cDNA was read. */
  sequences: TableRef<SequenceRow>;
  families: FamilyBuild[];
  /** Every HOG id → family index. */
  hogIds: Map<string, number>;
  /** Per entry - 1: family index (0 = none), HOG id, lineage levels spanned. */
  family: Int32Array;
  hog: string[];
  hogLevelCount: Int32Array;
  groups: number[][];
  fingerprints: string[];
  group: Int32Array;
  annotations: Awaited<ReturnType<typeof readAnnotations>>;
  relations: RelationsBuild;
}

/**
 * Compiles the release described by a config file into `outDir`. The release is built in a
 * sibling folder and moved into place only when complete, so a failed compile never
 * touches an existing release.
 */
export async function compileRelease(
  configPath: string,
  outDir: string,
  options: { log?: (message: string) => void } = {},
): Promise<CompileResult> {
  const started = performance.now();
  let last = started;
  /** Reports a finished stage with its time, the heap in use, the resident set and its peak so far. */
  const stage = (name: string) => {
    // With `node --expose-gc`, the heap figure is what is live, not what awaits collection.
    if (options.log) (globalThis as { gc?: () => void }).gc?.();
    const now = performance.now();
    const { heapUsed, rss } = process.memoryUsage();
    const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
    const peak = process.resourceUsage().maxRSS * 1024;
    options.log?.(`${name}: ${((now - last) / 1000).toFixed(1)} s (heap ${mb(heapUsed)} MB, RSS ${mb(rss)} MB, peak ${mb(peak)} MB)`);
    last = now;
  };
  const loaded = await loadConfig(configPath);
  if (!loaded.config) throw new InputRejected(loaded.problems);

  const target = resolve(outDir);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  // Spill files of the derivations, beside the release (same disk, no /tmp size limit).
  const scratch = scratchFolder(`${target}.scratch-${process.pid}`);
  try {
    // Blobs are written from the first genome read on (the sequences table as the cDNA streams in).
    const blobs = blobWriter(partial);
    const build = await deriveRelease(loaded.config, loaded.problems, stage, { blobs, scratch });
    const manifest = writeRelease(build, blobs, scratch, stage);
    stage("write the other tables and indexes");
    const json = JSON.stringify(manifest);
    writeFileSync(join(partial, "manifest.json"), json);
    replaceDirectory(partial, target);
    return {
      manifest,
      outDir: target,
      stats: {
        blobs: blobs.stats.blobs,
        bytes: blobs.stats.bytes,
        largestBlob: blobs.stats.largest,
        manifestBytes: json.length,
        seconds: (performance.now() - started) / 1000,
      },
    };
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  } finally {
    scratch.remove();
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
  stage: (name: string) => void,
  { blobs, scratch }: { blobs: BlobWriter; scratch: ScratchFolder },
): Promise<ReleaseBuild> {
  const stopIfProblems = () => {
    if (problems.count) throw new InputRejected(problems);
  };
  const species = await readSpeciesInfo(config.speciesInfo, problems);
  const tree = await readNewick(config.speciesTree, problems);
  stopIfProblems();
  await nameSpeciesFromUniProt(species, tree!, config.uniprot ?? []);
  const taxonomy = buildTaxonomy(tree!, species, config.speciesTree, config.speciesInfo, problems);
  stopIfProblems();

  const proteins = await readProteomes(species, config.proteomes, problems);
  const sequences = await writeSequences(
    blobs,
    proteins,
    config.cdna ? readCdnaByGenome(proteins, species, config.cdna, problems) : undefined,
    LAYOUT.sequencesPerShard,
  );
  if (config.loci) await readLoci(proteins, species, config.loci, problems);
  if (config.isoforms) await readIsoforms(proteins, species, config.isoforms, problems);
  stage("proteomes, cDNA, loci, isoforms");

  const { families, hogIds } = await readHogs(config, taxonomy, proteins, problems);
  stage("HOGs");
  const n = proteins.count;
  const family = new Int32Array(n);
  const hog = new Array<string>(n).fill("");
  const hogLevelCount = new Int32Array(n);
  for (const f of families) {
    const rootLevel = f.nodes[0].level;
    f.members.forEach((entry, i) => {
      family[entry - 1] = f.index;
      hog[entry - 1] = f.nodes[f.memberNode[i]].id;
      const up = lineage(taxonomy, taxonomy.genomeLevels[proteins.genome[entry - 1]]);
      hogLevelCount[entry - 1] = up.indexOf(rootLevel) + 1;
    });
  }
  chooseMainIsoforms(proteins, (e) => family[e - 1] > 0, config.isoforms ?? "isoforms", problems);

  const groups = config.groups
    ? await readGroups(config.groups, proteins, problems)
    : deriveGroups(families, (e) => proteins.genome[e - 1]);
  stage("groups");
  const relations = await deriveRelations(
    families,
    config.pairs ? { path: config.pairs, rows: readPairsTsv(config.pairs, problems) } : undefined,
    {
      proteinCount: proteins.count,
      genomeOf: (e) => proteins.genome[e - 1],
      genomeFirstEntry: proteins.genomeFirstEntry,
      genomeSize: proteins.genomeSize,
      subgenomeOf: subgenomeReader(species, proteins),
      entryOfId: (id) => proteins.byInputId.get(id),
    },
    problems,
    scratch,
  );
  stage("pairwise relations");
  const annotations = await readAnnotations(proteins, config, problems);
  stage("annotations");
  stopIfProblems();

  const group = new Int32Array(n);
  groups.forEach((members, g) => members.forEach((e) => (group[e - 1] = g + 1)));
  const fingerprints = fingerprintGroups(groups, (e) => proteins.sequence[e - 1], n);
  stage("fingerprints");
  return { config, taxonomy, species, proteins, sequences, families, hogIds, family, hog, hogLevelCount, groups, fingerprints, group, annotations, relations };
}

/** A protein's subgenome: the last letter of its chromosome, when that is a subgenome of its polyploid genome. */
function subgenomeReader(species: Awaited<ReturnType<typeof readSpeciesInfo>>, proteins: ProteinTable): (entry: number) => string {
  return (entry) => {
    const subgenomes = species[proteins.genome[entry - 1]].subgenomes ?? [];
    if (!subgenomes.length) return "";
    const last = proteins.chromosome[entry - 1].slice(-1);
    return subgenomes.includes(last) ? last : "";
  };
}

async function readHogs(config: ReleaseConfig, taxonomy: TaxonomyBuild, proteins: ProteinTable, problems: Problems) {
  const families: FamilyBuild[] = [];
  const entryOfGene = new Map<string, number>();
  const inFamily = new Map<number, string>();
  let taxonNames = new Map<string, string>();
  await readOrthoXml(
    config.hogs,
    problems,
    (root) => {
      const family = buildFamily(root, families.length + 1, {
        taxonomy,
        prefix: config.hogReleaseLetter ?? "",
        entryOfGene: (id) => entryOfGene.get(id),
        genomeOf: (entry) => proteins.genome[entry - 1],
        taxonNames,
        file: config.hogs,
        problems,
      });
      if (!family) return;
      for (const entry of family.members) {
        const other = inFamily.get(entry);
        if (other) problems.report(config.hogs, root.line, `protein ${proteins.inputId[entry - 1]} is in two HOGs (${other}, ${family.rootId})`);
        inFamily.set(entry, family.rootId);
      }
      families.push(family);
    },
    // The species and taxonomy blocks precede <groups>: map genes to entries before any family.
    (header) => {
      for (const sp of header.species) {
        for (const gene of sp.genes) {
          const entry = proteins.byInputId.get(gene.protId);
          if (entry === undefined) problems.report(config.hogs, gene.line, `protein ${gene.protId} of the HOGs is not in the proteomes`);
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
      if (other !== undefined) problems.report(config.hogs, 0, `HOG id ${id} is used by two families (${families[other - 1].rootId}, ${f.rootId})`);
      hogIds.set(id, f.index);
    }
  }
  return { families, hogIds };
}

async function readGroups(file: string, proteins: ProteinTable, problems: Problems): Promise<number[][]> {
  const groups = new Map<string, number[]>();
  const groupOf = new Map<number, string>();
  for await (const row of readGroupsTsv(file, problems)) {
    const entry = proteins.byInputId.get(row.protein);
    if (entry === undefined) {
      problems.report(file, row.line, `unknown protein ${row.protein}`);
      continue;
    }
    const other = groupOf.get(entry);
    if (other !== undefined) {
      problems.report(file, row.line, `protein ${row.protein} is already in group ${other}`);
      continue;
    }
    const members = groups.get(row.group) ?? [];
    if (members.some((m) => proteins.genome[m - 1] === proteins.genome[entry - 1])) {
      problems.report(file, row.line, `group ${row.group} already has a protein of this genome`);
      continue;
    }
    members.push(entry);
    groups.set(row.group, members);
    groupOf.set(entry, row.group);
  }
  return [...groups.values()].map((m) => m.sort((a, b) => a - b));
}

/** Writes every table, index and genome blob, and returns the manifest naming them. */
function writeRelease(b: ReleaseBuild, blobs: BlobWriter, scratch: ScratchFolder, stage: (name: string) => void): Manifest {
  const p = b.proteins;
  const related = writeRelationTables(
    blobs,
    b.relations,
    {
      genomes: b.species.length,
      genomeOf: (e) => p.genome[e - 1],
      isMain: (e) => p.isMain[e - 1],
      groupOf: (e) => b.group[e - 1],
      groupCount: b.groups.length,
    },
    LAYOUT,
  );
  stage("write relations and pairs");
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
  const familyByIndex = b.families;

  const proteins = writeTable<ProteinRow>(blobs, p.count, LAYOUT.proteinsPerShard, (i) => ({
    ...summary(i + 1),
    family: b.family[i],
    rootHog: b.family[i] ? familyByIndex[b.family[i] - 1].rootHog : 0,
    hogLevelCount: b.hogLevelCount[i],
    isoforms: p.isoforms[i] ?? [],
    exons: exonPairs(p.exons[i]),
    description: p.description[i],
  }));
  const sequences = b.sequences;
  const groups = writeTable<GroupRow>(blobs, b.groups.length, LAYOUT.groupsPerShard, (g) => ({
    nr: g + 1,
    fingerprint: b.fingerprints[g],
    description: mostCommonDescription(p, b.groups[g]),
    members: b.groups[g].map(summary),
    closeGroups: related.closeGroups[g],
  }));
  const familyDescriptions = b.families.map((f) => mostCommonDescription(p, f.members));
  const families = writeTable<FamilyRow>(blobs, b.families.length, LAYOUT.familiesPerShard, (f) => {
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
  const annotations = writeTable(blobs, p.count, LAYOUT.annotationsPerShard, (i) => b.annotations.rowAt(i));
  const { relations, pairs, directory } = related;
  const inFamilies = genesSharingFamilies(b);
  const pairDirectory = writeTable<GenomePairRow>(blobs, directory.length, LAYOUT.pairDirectoryPerShard, (k) => [
    ...directory[k],
    inFamilies[k],
    related.withRelations[k],
  ]);
  const familyProfiles = similarProfiles(b);
  const profiles = writeTable<FamilyProfile>(blobs, b.families.length, LAYOUT.profilesPerShard, (f) => familyProfiles[f]);
  const familyGo = writeTable<FamilyGo>(blobs, b.families.length, LAYOUT.familyGoPerShard, (f) => familyGoRow(b, b.families[f]));
  const peptides = writeTable<string>(blobs, p.count, LAYOUT.peptidesPerShard, (i) => p.sequence[i]);
  stage("write protein, group, family and annotation tables");
  const sequenceIndex = writeSequenceIndex(blobs, p.count, (e) => p.sequence[e - 1], scratch);
  stage("write sequence index");
  const xrefSearch = writeXrefSearch(blobs, p, (i) => b.annotations.rowAt(i), b.species.map((s) => s.code));
  stage("write cross-reference search");
  const hogLists = hogListRows(b, familyDescriptions);
  const hogList = writeTable<HogListRow>(blobs, hogLists.rows.length, LAYOUT.hogListPerShard, (k) => hogLists.rows[k]);

  // Every (id, entry) pair; the index groups them by id.
  const idKeys: string[] = [];
  const idEntries: number[] = [];
  const addId = (key: string, entry: number) => {
    if (!key) return;
    idKeys.push(key);
    idEntries.push(entry);
  };
  for (let i = 0; i < p.count; i++) {
    addId(p.canonicalId[i], i + 1);
    for (const a of p.aliases[i]) addId(a, i + 1);
    for (const [, id] of b.annotations.rowAt(i).xrefs) addId(id, i + 1);
  }
  const fingerprintIndex = new Map<string, number[]>();
  b.fingerprints.forEach((fp, g) => {
    if (fp !== "n/a") fingerprintIndex.set(fp, [...(fingerprintIndex.get(fp) ?? []), g + 1]);
  });

  const genomes: GenomeInfo[] = b.species.map((s, g) => ({
    code: s.code,
    taxonId: s.taxonId,
    species: s.scientificName,
    firstEntry: p.genomeFirstEntry[g],
    nrEntries: p.genomeSize[g],
    level: b.taxonomy.genomeLevels[g],
    nrGenes: countGenes(p, g),
    subgenomes: s.subgenomes ?? [],
    detail: blobs.put(genomeDetail(p, g)),
  }));

  return {
    format: FORMAT_VERSION,
    name: b.config.name,
    hogPrefix: b.config.hogReleaseLetter ?? "",
    date: b.config.date ?? "",
    counts: {
      genomes: genomes.length,
      proteins: p.count,
      groups: b.groups.length,
      families: b.families.length,
      hogs: b.hogIds.size,
    },
    taxonomy: { names: b.taxonomy.names, parents: b.taxonomy.parents, genomes: b.taxonomy.genomes, taxonIds: b.taxonomy.taxonIds },
    genomes,
    tables: { proteins, sequences, groups, families, annotations, relations, pairs, pairDirectory, hogList, profiles, familyGo, peptides },
    sequenceIndex,
    hogLists: { roots: hogLists.roots, levels: hogLists.levels },
    xrefSearch,
    indexes: {
      entryIds: writeKeyIndexOfPairs(blobs, idKeys, idEntries, LAYOUT.keysPerLeaf),
      fingerprints: writeKeyIndex(blobs, fingerprintIndex, LAYOUT.keysPerLeaf),
      hogIds: writeKeyIndex(blobs, b.hogIds, LAYOUT.keysPerLeaf),
      goTerms: writeKeyIndex(blobs, b.annotations.goTerms, LAYOUT.keysPerLeaf),
    },
  };
}

/** The description most members share (the first of equals in entry order); "" when none has one. */
function mostCommonDescription(p: ProteinTable, entries: number[]): string {
  const counts = new Map<string, number>();
  let best = "";
  for (const e of [...entries].sort((a, b) => a - b)) {
    const d = p.description[e - 1];
    if (!d) continue;
    const n = (counts.get(d) ?? 0) + 1;
    counts.set(d, n);
    if (n > (counts.get(best) ?? 0)) best = d;
  }
  return best;
}

/** Chromosomes of a genome in order of first appearance, with runs of consecutive entry numbers. */
function genomeDetail(p: ProteinTable, g: number): GenomeDetail {
  const byChromosome = new Map<string, Array<[number, number]>>();
  const first = p.genomeFirstEntry[g];
  for (let e = first; e < first + p.genomeSize[g]; e++) {
    const chr = p.chromosome[e - 1];
    const ranges = byChromosome.get(chr) ?? [];
    const last = ranges[ranges.length - 1];
    if (last && last[1] === e - 1) last[1] = e;
    else ranges.push([e, e]);
    byChromosome.set(chr, ranges);
  }
  const geneRanges: Array<[number, number]> = [];
  for (let e = first; e < first + p.genomeSize[g]; e++) {
    if (!p.isMain[e - 1]) continue;
    const last = geneRanges[geneRanges.length - 1];
    if (last && last[1] === e - 1) last[1] = e;
    else geneRanges.push([e, e]);
  }
  return { chromosomes: [...byChromosome].map(([id, entryRanges]) => ({ id, entryRanges })), geneRanges };
}

function countGenes(p: ProteinTable, g: number): number {
  let n = 0;
  const first = p.genomeFirstEntry[g];
  for (let e = first; e < first + p.genomeSize[g]; e++) if (p.isMain[e - 1]) n++;
  return n;
}

/**
 * Per ordered genome pair (row a · genomes + b): genes of a in a HOG family that also has
 * genes of b; for a = b, genes of a in a family with another gene of a. (The directory's
 * last column, genes of a with a pairwise ortholog in b, or for a = b with a close paralog
 * or homoeolog, comes with the relations: write/relations.ts.)
 */
function genesSharingFamilies(b: ReleaseBuild): Int32Array {
  const genomes = b.species.length;
  const genomeOf = (e: number) => b.proteins.genome[e - 1];
  const inFamilies = new Int32Array(genomes * genomes);
  for (const f of b.families) {
    const genes = new Map<number, number>();
    for (const e of f.members) genes.set(genomeOf(e), (genes.get(genomeOf(e)) ?? 0) + 1);
    for (const [x, nx] of genes) {
      for (const [y] of genes) if (x !== y || nx > 1) inFamilies[x * genomes + y] += nx;
    }
  }
  return inFamilies;
}

const SIMILAR_PROFILES = 50;

/**
 * Each family's genome set and the families whose sets are most alike (Jaccard index,
 * ties by family index). Families with equal sets are compared once; the comparison is
 * all against all, which suits releases up to ~10^5 families (see FORMAT.md for larger).
 */
function similarProfiles(b: ReleaseBuild): FamilyProfile[] {
  const genomeOf = (e: number) => b.proteins.genome[e - 1];
  const sets = b.families.map((f) => [...new Set(f.members.map(genomeOf))].sort((x, y) => x - y));
  const byKey = new Map<string, number[]>();
  sets.forEach((set, f) => {
    const key = set.join(",");
    const same = byKey.get(key);
    if (same) same.push(f);
    else byKey.set(key, [f]);
  });
  const profiles = [...byKey.values()].map((families) => ({ families, set: new Set(sets[families[0]]), size: sets[families[0]].length }));
  const rootLevels = b.families.map((f) => f.nodes.filter((n) => n.id === f.rootId).flatMap((n) => n.levels));
  return b.families.map((f, index) => {
    const own = new Set(sets[index]);
    // Profiles sharing a genome, best first; only the families of the best few are listed.
    const byScore: Array<[number, number]> = [];
    profiles.forEach((p, k) => {
      let common = 0;
      for (const g of p.set) if (own.has(g)) common++;
      if (common > 0) byScore.push([common / (own.size + p.size - common), k]);
    });
    byScore.sort((x, y) => y[0] - x[0]);
    const scored: Array<[number, number]> = [];
    for (let i = 0; i < byScore.length && scored.length < SIMILAR_PROFILES; ) {
      // The families of every profile with this score, by family index.
      const jaccard = byScore[i][0];
      const tied: number[] = [];
      for (; i < byScore.length && byScore[i][0] === jaccard; i++) for (const other of profiles[byScore[i][1]].families) if (other !== index) tied.push(other);
      tied.sort((x, y) => x - y);
      for (const other of tied.slice(0, SIMILAR_PROFILES - scored.length)) scored.push([other, jaccard]);
    }
    return {
      genomes: sets[index],
      similar: scored.map(([other, jaccard]) => [
        other + 1,
        b.families[other].rootId,
        Math.round(jaccard * 1e4) / 1e4,
        sets[other],
        rootLevels[other],
      ]),
    };
  });
}

/** The GO annotations of a family's members, with each term's name, aspect and information content. */
function familyGoRow(b: ReleaseBuild, f: FamilyBuild): FamilyGo {
  const terms: FamilyGo["terms"] = [];
  const termIndex = new Map<string, number>();
  const members = f.members.map((e) => {
    const own = new Set<number>();
    for (const [id, , , aspect] of b.annotations.rowAt(e - 1).go) {
      let t = termIndex.get(id);
      if (t === undefined) {
        const term = b.annotations.goTerms.get(id);
        t = terms.length;
        terms.push([id, term?.name ?? "", aspect, term?.ic ?? 0]);
        termIndex.set(id, t);
      }
      own.add(t);
    }
    return [...own].sort((x, y) => x - y);
  });
  return { terms, members };
}

/**
 * HOG list items: every family's root HOG, then for each level every HOG standing on it
 * (a speciation node on each of its levels), in family and tree order.
 */
function hogListRows(b: ReleaseBuild, descriptions: string[]): { rows: HogListRow[]; roots: [number, number]; levels: Array<[number, number]> } {
  const rows: HogListRow[] = [];
  const byLevel: HogListRow[][] = b.taxonomy.names.map(() => []);
  for (const f of b.families) {
    const description = descriptions[f.index - 1];
    const familyTop = f.nodes[0].levels[0];
    const idTop = new Map<string, number>();
    for (const n of f.nodes) if (n.id && !idTop.has(n.id)) idTop.set(n.id, n.levels[0]);
    const root = f.nodes[0];
    rows.push([f.rootId, f.rootHog, description, root.completeness, root.hi - root.lo, familyTop, familyTop]);
    for (const n of f.nodes) {
      if (!n.id) continue;
      for (const level of n.levels) {
        byLevel[level].push([n.id, f.rootHog, description, n.completeness, n.hi - n.lo, idTop.get(n.id)!, familyTop]);
      }
    }
  }
  const roots: [number, number] = [0, rows.length];
  const levels = byLevel.map((list): [number, number] => {
    const first = rows.length;
    for (const row of list) rows.push(row);
    return [first, list.length];
  });
  return { rows, roots, levels };
}

