/**
 * Every level a protein's `hog_levels` lists answers the HOG interface, the species level and
 * levels the orthoXML skips included: the HOG read on that level holds the HOG containing the
 * protein, the members endpoint lists it, and the HOG list of that level names that HOG.
 * Walks every fourth protein of the simulated release and every twentieth of primates-chr12 (each
 * pair of HOG id and level once), served by the built worker over HTTP. Also:
 * `alternative_levels` most ancient first, and the HOG list's message for an unknown level.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Manifest } from "../../release-format/format.js";
import { hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { getAllPages, getJson, serveRelease, type ServedRelease } from "./serve.js";

warnWithoutSharedData("the primates-chr12 HOG level walk");

/** Every protein record, through bulk_retrieve (1000 a request). */
async function proteinRecords(served: ServedRelease): Promise<any[]> {
  const out: any[] = [];
  for (let from = 1; from <= served.manifest.counts.proteins; from += 1000) {
    const ids = Array.from({ length: Math.min(1000, served.manifest.counts.proteins - from + 1) }, (_, k) => from + k);
    const res = await fetch(`${served.base}/protein/bulk_retrieve/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ids }),
    });
    expect(res.status).toBe(200);
    for (const { target } of (await res.json()) as any[]) out.push(target);
  }
  return out;
}

/** Runs `work` on every item, `width` requests in flight. */
async function inParallel<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

const isPrefixId = (a: string, b: string) => a === b || b.startsWith(`${a}.`);

/** Level names most ancient first: by distance from the root, then in the taxonomy's order. */
function expectMostAncientFirst(manifest: Manifest, names: string[], what: string): void {
  const { parents } = manifest.taxonomy;
  const index = new Map(manifest.taxonomy.names.map((n, i) => [n, i]));
  const depth = (l: number): number => (parents[l] < 0 ? 0 : 1 + depth(parents[l]));
  const keys = names.map((n) => {
    const l = index.get(n);
    expect(l, `${what}: level ${n}`).toBeDefined();
    return [depth(l!), l!];
  });
  const sorted = [...keys].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  expect(keys, `${what}: ${names.join(", ")}`).toEqual(sorted);
}

/** The walk sends two requests a pair; a loaded machine may answer a few milliseconds each. */
const WALK_TIMEOUT = 600_000;

/** What the walk saw on each level: the HOGs holding a protein there, with their sizes and scores. */
interface Walk {
  /** level name → HOG id → [members, completeness_score of its record]. */
  onLevel: Map<string, Map<string, [number, number]>>;
  pairs: number;
  speciesPairs: number;
}

function walkRelease(name: string, label: string, sampleEvery = 1): void {
  describe(label, () => {
    let served: ServedRelease;
    let walk: Promise<Walk> | undefined;
    beforeAll(async () => {
      served = await serveRelease(name);
    });
    afterAll(() => served?.dispose());

    /** The walk over every protein, once for both tests. */
    function walked(): Promise<Walk> {
      walk ??= walkProteins(served, sampleEvery);
      return walk;
    }

    it("answers the HOG read and the members of every protein on every level of its hog_levels", async () => {
      const { pairs, speciesPairs, onLevel } = await walked();
      expect(pairs).toBeGreaterThan(500);
      expect(speciesPairs).toBeGreaterThan(100);
      for (const genome of served.manifest.genomes) expect(onLevel.has(genome.species), genome.code).toBe(true);
    }, WALK_TIMEOUT);

    it("lists every HOG of a level, the species levels included, as the read answers them", async () => {
      const { onLevel } = await walked();
      const listedIds = new Map<string, Set<string>>();
      for (const [level, hogs] of onLevel) {
        const items = await getAllPages(`${served.base}/hog/?level=${encodeURIComponent(level)}&per_page=5000`);
        const listed = new Map<string, any[]>();
        for (const item of items) listed.set(item.hog_id, [...(listed.get(item.hog_id) ?? []), item]);
        // (id, level) names one HOG: no id twice on a level (in primates-chr12 a generated sub-HOG id
        // of a gene once equalled an id FastOMA gives a group, both on Catarrhini).
        expect(listed.size, `${level}: no HOG twice`).toBe(items.length);
        listedIds.set(level, new Set(listed.keys()));
        for (const [id, [genes, completeness]] of hogs) {
          const found = listed.get(id) ?? [];
          expect(found.length, `${id} in the list of ${level}`).toBeGreaterThan(0);
          expect(found.every((item) => item.level === level)).toBe(true);
          expect(
            found.some((item) => item.nr_genes === genes && item.completeness_score === completeness),
            `${id} at ${level}: ${genes} genes, completeness ${completeness}; listed ${JSON.stringify(found.map((i) => [i.nr_genes, i.completeness_score]))}`,
          ).toBe(true);
        }
      }
      // A species by its code lists what its name lists.
      for (const genome of served.manifest.genomes) {
        const byCode = await getAllPages(`${served.base}/hog/?level=${genome.code}&per_page=5000`);
        expect(new Set(byCode.map((item: any) => item.hog_id)), genome.code).toEqual(listedIds.get(genome.species));
        expect(byCode.every((item: any) => item.level === genome.species && item.completeness_score === 1), genome.code).toBe(true);
      }
    }, WALK_TIMEOUT);

    it("says what is wrong with an unknown level of the HOG list", async () => {
      for (const query of ["level=Nowhere", "level=Nowhere&compare_with=root"]) {
        const res = await fetch(`${served.base}/hog/?${query}`);
        expect(res.status).toBe(404);
        const { detail } = (await res.json()) as { detail: string };
        expect(detail).toMatch(/^Invalid or unknown level parameter/);
        expect(detail).not.toMatch(/this HOG/);
      }
      const level = served.manifest.taxonomy.names[0];
      const res = await fetch(`${served.base}/hog/?level=${encodeURIComponent(level)}&compare_with=Nowhere`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^Invalid or unknown compare_with parameter/);
    });
  });
}

/**
 * For every protein and level of its hog_levels (each HOG id and level once): the members on
 * that level hold the protein and only genes of that level's genomes, on its species the HOG
 * is the protein's own; the read on that level holds that HOG, its levels most ancient first.
 */
async function walkProteins(served: ServedRelease, sampleEvery: number): Promise<Walk> {
  const { base, manifest } = served;
  const { names, parents } = manifest.taxonomy;
  const levelIndex = new Map(names.map((n, i) => [n, i]));
  const genomeLevel = new Map(manifest.genomes.map((g) => [g.code, g.level]));
  const below = (species: number, level: number) => {
    for (let l = species; l >= 0; l = parents[l]) if (l === level) return true;
    return false;
  };
  const proteins = (await proteinRecords(served)).filter((p, i) => p.orth_hog_id && i % sampleEvery === 0);
  const pairs = new Map<string, { hog: string; level: string; entries: number[]; species: boolean }>();
  for (const p of proteins) {
    expect(p.hog_levels[0], p.orthid).toBe(p.species.species);
    p.hog_levels.forEach((level: string, i: number) => {
      const key = `${p.orth_hog_id} ${level}`;
      const pair = pairs.get(key) ?? { hog: p.orth_hog_id as string, level, entries: [] as number[], species: i === 0 };
      pair.entries.push(p.entry_nr);
      pairs.set(key, pair);
    });
  }
  const onLevel = new Map<string, Map<string, [number, number]>>();
  const checkedIds = new Set<string>();
  await inParallel([...pairs.values()], 6, async ({ hog, level, entries, species }) => {
    const at = `${hog} at ${level}`;
    const query = `?level=${encodeURIComponent(level)}`;
    const members = await getJson(`${base}/hog/${hog}/members/${query}`);
    expect(members.level, at).toBe(level);
    // On the species, the HOG holding a protein is its own (deepest) HOG; above, an ancestor's.
    if (species) expect(members.hog_id, at).toBe(hog);
    else expect(isPrefixId(members.hog_id, hog), `${at}: ${members.hog_id}`).toBe(true);
    const held = new Set(members.members.map((m: any) => m.entry_nr));
    for (const entry of entries) expect(held.has(entry), `${at}: protein ${entry}`).toBe(true);
    for (const m of members.members) expect(below(genomeLevel.get(m.species.code)!, levelIndex.get(level)!), `${at}: ${m.orthid}`).toBe(true);

    const records = await getJson(`${base}/hog/${hog}/${query}`);
    const record = records.find((r: any) => r.hog_id === members.hog_id);
    expect(record, `${at}: read holds ${members.hog_id}`).toBeDefined();
    expect(record.level).toBe(level);
    if (record.alternative_levels) {
      expect(record.alternative_levels).not.toContain(level);
      expectMostAncientFirst(manifest, record.alternative_levels, at);
    }
    for (const child of [...record.parent_hogs, ...record.children_hogs]) expectMostAncientFirst(manifest, child.alternative_levels, `${at}: ${child.hog_id}`);
    const ofLevel = onLevel.get(level) ?? new Map<string, [number, number]>();
    onLevel.set(level, ofLevel);
    ofLevel.set(members.hog_id, [members.members.length, record.completeness_score]);
    // Each id's own read (no level): its deepest level first, the others most ancient first.
    if (!checkedIds.has(hog)) {
      checkedIds.add(hog);
      const [deepest] = await getJson(`${base}/hog/${hog}/`);
      expectMostAncientFirst(manifest, [deepest.level, ...(deepest.alternative_levels ?? [])], hog);
    }
  });
  // By protein id, as the issue asked: the species level of a protein answers its own HOG.
  const first = proteins[0];
  const bySpecies = await getJson(`${base}/hog/${first.entry_nr}/?level=${first.species.code}`);
  expect(bySpecies.map((r: any) => r.hog_id)).toContain(first.orth_hog_id);
  const bySpeciesMembers = await getJson(`${base}/hog/${first.entry_nr}/members/?level=${encodeURIComponent(first.species.species)}`);
  expect(bySpeciesMembers.members.map((m: any) => m.entry_nr)).toContain(first.entry_nr);
  return { onLevel, pairs: pairs.size, speciesPairs: [...pairs.values()].filter((p) => p.species).length };
}

walkRelease("sim", "HOG levels of every fourth protein: simulated release", 4);
if (hasSharedData) walkRelease("primates", "HOG levels of every twentieth protein: primates-chr12", 20);
