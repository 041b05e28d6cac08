/**
 * The two real OrthoFinder runs (2.5.5 layout with a species_info and a species tree naming the
 * levels; 3.1 layout with neither) compiled by their test/fixtures configs and served over
 * HTTP, checked against OrthoFinder's own files: every protein by its FASTA id, every HOG row
 * of every level (`N*.tsv`, and 3.x's root-level `Orthogroups.tsv`) as the members of the HOG its
 * OrthoFinder id names on that level (and the same through the release's `HOG:` id), orthogroup
 * ids, every pair of the Orthologues files with its type (and no other ortholog), and every
 * resolved gene tree as served.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSchema, responseErrors } from "../openapi-check.js";
import { data, hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { md5Hex, parseFasta } from "./oracle.js";
import { getJson, serveRelease, type ServedRelease } from "./serve.js";

warnWithoutSharedData("the OrthoFinder end-to-end tests");

interface Run {
  release: string;
  results: string;
  proteomes: string;
  /** OrthoFinder species name → the code the release gives it. */
  codes: Record<string, string>;
  /** OrthoFinder node → level name. */
  levels: Record<string, string>;
  /** Taxon id of the first species (local ids are negative). */
  firstTaxonId: number;
}

const RUNS: Run[] = [
  {
    release: "orthofinder25",
    results: data("orthofinder-mycoplasma-2.5/ExampleData/OrthoFinder/Results_Jan30"),
    proteomes: data("orthofinder-mycoplasma-2.5/ExampleData"),
    // From test/fixtures/orthofinder-mycoplasma-2.5/: species_info (File column) and species_tree.
    codes: { Mycoplasma_agalactiae: "MYCAG", Mycoplasma_gallisepticum: "MYCGA", Mycoplasma_genitalium: "MYCGE", Mycoplasma_hyopneumoniae: "MYCHY" },
    levels: { N0: "Mycoplasma", N1: "Agalactiae and Pneumoniae", N2: "Pneumoniae group" },
    firstTaxonId: 2110,
  },
  {
    release: "orthofinder31",
    results: data("orthofinder-mycoplasmoides-3.1/OrthoFinder/Results_Nov24"),
    proteomes: data("orthofinder-mycoplasmoides-3.1/input"),
    // No species_info, no species_tree: codes by the documented rule, OrthoFinder's level names.
    codes: { Mycoplasmoides_fastidiosum: "MYCFA", Mycoplasmoides_gallisepticum: "MYCGA", Mycoplasmoides_genitalium: "MYCGE", Mycoplasmoides_pneumoniae: "MYCPN" },
    levels: { N0: "N0", N1: "N1", N2: "N2" },
    firstTaxonId: -2,
  },
];

/** Rows of an OrthoFinder group table: id, orthogroup, genes (all species columns). */
function groupTable(path: string, kind: "hogs" | "orthogroups") {
  const [, ...lines] = readFileSync(path, "utf8").split("\n").filter((l) => l.trim() !== "");
  const lead = kind === "hogs" ? 3 : 1;
  return lines.map((line) => {
    const cells = line.split("\t");
    const genes = cells.slice(lead).flatMap((c) => c.split(",").map((g) => g.trim()).filter(Boolean));
    return { hog: cells[0], og: kind === "hogs" ? cells[1] : cells[0], genes };
  });
}

/** Runs `task` over `items`, `width` at a time. */
async function inParallel<T>(items: T[], width: number, task: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await task(items[next++]);
  }));
}

const post = (url: string, body: unknown) => fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });

describe.skipIf(!hasSharedData).each(RUNS)("OrthoFinder results: $release", (run) => {
  let served: ServedRelease;
  let base: string;
  const speciesNames = Object.keys(run.codes);
  /** Every level's HOG rows: `[OrthoFinder node, rows]`. */
  const levels: Array<[string, ReturnType<typeof groupTable>]> = [];

  beforeAll(async () => {
    served = await serveRelease(run.release);
    base = served.base;
    const hogFolder = join(run.results, "Phylogenetic_Hierarchical_Orthogroups");
    for (const file of readdirSync(hogFolder).filter((f) => /^N\d+\.tsv$/.test(f))) levels.push([file.slice(0, -4), groupTable(join(hogFolder, file), "hogs")]);
    // 3.x: no N0.tsv, the root level's HOGs are the orthogroups.
    if (!levels.some(([n]) => n === "N0")) levels.push(["N0", groupTable(join(run.results, "Orthogroups/Orthogroups.tsv"), "orthogroups")]);
  });
  afterAll(() => served?.dispose());

  it("serves every protein of the proteomes OrthoFinder ran on, found by its FASTA id, with the documented species mapping", async () => {
    const genomes = await getJson(`${base}/genome/`);
    expect(genomes.map((g: any) => g.code)).toEqual(Object.values(run.codes));
    expect(genomes[0].taxon_id).toBe(run.firstTaxonId);
    for (const name of speciesNames) {
      const file = readdirSync(run.proteomes).find((f) => f.replace(/\.(fa|faa)$/, "") === name)!;
      const proteins = [...parseFasta(readFileSync(join(run.proteomes, file), "utf8"))];
      const genome = await getJson(`${base}/genome/${run.codes[name]}/`);
      expect(genome.species).toBe(name.replace(/_/g, " "));
      expect(genome.nr_entries).toBe(proteins.length);
      for (let i = 0; i < proteins.length; i += 1000) {
        const chunk = proteins.slice(i, i + 1000);
        const res = await post(`${base}/protein/bulk_retrieve/`, { ids: chunk.map(([id]) => id) });
        const answers = (await res.json()) as any[];
        answers.forEach((a, k) => {
          const [id, sequence] = chunk[k];
          expect(a.query_id).toBe(id);
          expect(a.target.canonicalid).toBe(id);
          expect(a.target.orthid).toBe(`${run.codes[name]}${String(i + k + 1).padStart(5, "0")}`);
          expect(a.target.sequence_md5).toBe(md5Hex(sequence));
        });
      }
    }
  });

  it("serves every HOG row of every level as the members of the HOG its OrthoFinder id names there, also through its HOG: id", async () => {
    let rows = 0;
    for (const [node, table] of levels) {
      await inParallel(table, 16, async (row) => {
        const byAlias = await getJson(`${base}/hog/${row.hog}/members/`);
        expect(byAlias.level, row.hog).toBe(run.levels[node]);
        expect(byAlias.hog_id).toMatch(/^HOG:\d{7}(\.\d+[a-z]+)*$/);
        expect(byAlias.members.map((m: any) => m.canonicalid).sort(), row.hog).toEqual([...row.genes].sort());
        // Every 10th row also through the release's own id and the level's name (the same lookup otherwise).
        if (rows++ % 10 === 0) {
          const byId = await getJson(`${base}/hog/${byAlias.hog_id}/members/?level=${encodeURIComponent(run.levels[node])}`);
          expect(byId.members.map((m: any) => m.entry_nr), row.hog).toEqual(byAlias.members.map((m: any) => m.entry_nr));
        }
      });
    }
    expect(rows).toBeGreaterThan(1400);
    // The record of an OrthoFinder id is its HOG on its own level.
    const [node, table] = levels.find(([n]) => n === "N2")!;
    const [record] = await getJson(`${base}/hog/${table[0].hog}/`);
    expect(record.level).toBe(run.levels[node]);
  });

  it("resolves every orthogroup id to the HOG family of its first root-level HOG", async () => {
    const roots = levels.find(([n]) => n === "N0")![1];
    const first = new Map<string, string[]>();
    for (const row of roots) if (!first.has(row.og)) first.set(row.og, row.genes);
    let n = 0;
    await inParallel([...first], 16, async ([og, genes]) => {
      const members = await getJson(`${base}/hog/${og}/members/`);
      expect(members.level, og).toBe(run.levels.N0);
      expect(members.members.map((m: any) => m.canonicalid).sort(), og).toEqual([...genes].sort());
      if (n++ % 10 === 0) {
        const [record] = await getJson(`${base}/hog/${og}/?level=root`);
        expect(record.hog_id).toBe(members.hog_id);
      }
    });
  });

  it("serves exactly the pairs of the Orthologues files as orthologs, typed from the counts on each side", async () => {
    const expected = new Map<string, Map<string, string>>();
    const folder = join(run.results, "Orthologues");
    for (const sub of readdirSync(folder).filter((f) => f.startsWith("Orthologues_"))) {
      for (const file of readdirSync(join(folder, sub))) {
        const [, ...lines] = readFileSync(join(folder, sub, file), "utf8").split("\n").filter((l) => l.trim() !== "");
        for (const line of lines) {
          const [, a, b] = line.split("\t");
          const xs = a.split(",").map((g) => g.trim());
          const ys = b.split(",").map((g) => g.trim());
          const type = `${xs.length > 1 ? "m" : "1"}:${ys.length > 1 ? "n" : "1"}`;
          for (const x of xs) {
            const partners = expected.get(x) ?? new Map<string, string>();
            expected.set(x, partners);
            for (const y of ys) partners.set(y, type);
          }
        }
      }
    }
    const ids = [...expected.keys()];
    expect(ids.length).toBeGreaterThan(1000);
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      const res = await post(`${base}/protein/orthologs/bulk_retrieve/`, { ids: chunk });
      expect(res.status).toBe(200);
      for (const answer of (await res.json()) as any[]) {
        const served = new Map<string, string>(answer.orthologs.map((o: any) => [o.canonicalid, o.rel_type]));
        expect(served, answer.query_id).toEqual(expected.get(answer.query_id));
      }
    }
  });

  it("serves each resolved gene tree as written, for the orthogroup, its HOGs and its proteins, and 404 without one", async () => {
    const folder = join(run.results, "Resolved_Gene_Trees");
    const lines = join(folder, "Resolved_Gene_Trees.txt");
    const trees = readdirSync(folder).includes("Resolved_Gene_Trees.txt")
      ? readFileSync(lines, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 1).trim()])
      : readdirSync(folder).map((f) => [f.replace(/_tree\.txt$/, ""), readFileSync(join(folder, f), "utf8").trim()]);
    expect(trees.length).toBeGreaterThan(300);
    const doc = await loadSchema(base);
    await inParallel(trees, 16, async ([og, newick]) => {
      const res = await fetch(`${base}/hog/${og}/gene_tree/`);
      const text = await res.text();
      expect(res.status, og).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("text/x-nh; charset=utf-8");
      expect(text, og).toBe(newick);
      expect(responseErrors(doc, "GET", "/hog/{hog_id}/gene_tree/", 200, text, { mediaType: "text/x-nh", headers: res.headers })).toEqual([]);
    });
    // Through a sub-HOG id and a protein of the family: the same tree.
    const [og, newick] = trees[2];
    const root = levels.find(([n]) => n === "N0")![1].find((r) => r.og === og)!;
    const { hog_id: hogId } = await getJson(`${base}/hog/${og}/members/`);
    for (const id of [hogId, encodeURIComponent(root.genes[0])]) expect(await (await fetch(`${base}/hog/${id}/gene_tree/`)).text()).toBe(newick);
    // An orthogroup without a tree (3.x writes none for small ones), where there is one.
    const withTree = new Set(trees.map(([id]) => id));
    const without = levels.find(([n]) => n === "N0")![1].find((r) => !withTree.has(r.og));
    if (without) {
      const res = await fetch(`${base}/hog/${without.og}/gene_tree/`);
      expect(res.status).toBe(404);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/has no gene tree/);
    }
  });
});
