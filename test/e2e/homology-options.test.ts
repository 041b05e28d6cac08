/**
 * The homology options over HTTP: `target_species` and `target_level` on the orthologs and
 * HOG-derived orthologs of a protein, checked against the simulator's truth, and the batch of
 * orthologs (POST, up to 1,000 ids) answering exactly what the per-id requests answer.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAncestorOrSelf } from "../../release-format/taxonomy.js";
import type { GenomeInfo } from "../../release-format/format.js";
import { parseTsv } from "./oracle.js";
import { getAllPages, getJson, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

describe("homology options on the simulated release", () => {
  let served: ServedRelease;
  let base: string;
  /** Protein summaries by canonical id and by entry number; species code of each protein. */
  const byId = new Map<string, any>();
  const codeOf = new Map<string, string>();
  /** True ortholog partners of each protein (both directions). */
  const truth = new Map<string, Set<string>>();

  beforeAll(async () => {
    served = await serveRelease("sim");
    base = served.base;
    for (const g of served.manifest.genomes) {
      for (const p of await getAllPages(`${base}/genome/${g.code}/proteins/?per_page=1000`)) {
        byId.set(p.canonicalid, p);
        codeOf.set(p.canonicalid, g.code);
      }
    }
    for (const r of parseTsv(readFileSync(resolve(TEST_BUILD, "sim-input/truth/orthologs.tsv"), "utf8"))) {
      for (const [a, b] of [[r.protein1, r.protein2], [r.protein2, r.protein1]]) truth.set(a, (truth.get(a) ?? new Set()).add(b));
    }
  });
  afterAll(() => served?.dispose());

  /** Proteins with orthologs in several genomes: the filters have something to keep and to drop. */
  const sample = () => [...byId.values()].filter((p) => new Set([...(truth.get(p.canonicalid) ?? [])].map((x) => codeOf.get(x))).size >= 3).filter((_, i) => i % 9 === 0).slice(0, 25);
  const genomesBelow = (level: number): GenomeInfo[] => served.manifest.genomes.filter((g) => isAncestorOrSelf(served.manifest.taxonomy, level, g.level));

  it("keeps the true orthologs in the target species, by code, by taxon id, repeated or comma-separated", async () => {
    const proteins = sample();
    expect(proteins.length).toBeGreaterThan(10);
    for (const p of proteins) {
      const partners = [...truth.get(p.canonicalid)!];
      const [first, second] = [...new Set(partners.map((x) => codeOf.get(x)!))];
      const expected = partners.filter((x) => x !== undefined && [first, second].includes(codeOf.get(x)!)).sort();
      const taxon = served.manifest.genomes.find((g) => g.code === second)!.taxonId;
      for (const query of [`target_species=${first}&target_species=${second}`, `target_species=${first},${taxon}`]) {
        for (const endpoint of ["orthologs", "hog_derived_orthologs"]) {
          const answer = await getJson(`${base}/protein/${p.entry_nr}/${endpoint}/?${query}`);
          expect(answer.map((o: any) => o.canonicalid).sort(), `${p.canonicalid} ${endpoint} ${query}`).toEqual(expected);
        }
      }
    }
  });

  it("keeps the true orthologs below the target level, and both filters together narrow", async () => {
    const { taxonomy } = served.manifest;
    // Internal levels with some but not all genomes below them.
    const levels = taxonomy.names.map((_, i) => i).filter((l) => taxonomy.genomes[l] < 0 && genomesBelow(l).length > 1 && genomesBelow(l).length < served.manifest.genomes.length);
    expect(levels.length).toBeGreaterThan(0);
    let checked = 0;
    for (const p of sample()) {
      const level = levels[checked++ % levels.length];
      const below = new Set(genomesBelow(level).map((g) => g.code));
      const expected = [...truth.get(p.canonicalid)!].filter((x) => below.has(codeOf.get(x)!)).sort();
      const name = encodeURIComponent(taxonomy.names[level]);
      const answer = await getJson(`${base}/protein/${p.entry_nr}/orthologs/?target_level=${name}`);
      expect(answer.map((o: any) => o.canonicalid).sort(), `${p.canonicalid} below ${taxonomy.names[level]}`).toEqual(expected);
      const derived = await getJson(`${base}/protein/${p.entry_nr}/hog_derived_orthologs/?target_level=${taxonomy.taxonIds[level]}`);
      expect(derived.map((o: any) => o.canonicalid).sort()).toEqual(expected);
      // A species outside the level: nothing is both.
      const outside = served.manifest.genomes.find((g) => !below.has(g.code))!;
      expect(await getJson(`${base}/protein/${p.entry_nr}/orthologs/?target_level=${name}&target_species=${outside.code}`)).toEqual([]);
    }
  });

  it("refuses unknown target species and levels with 400", async () => {
    for (const query of ["target_species=NOSUCH", "target_species=HUMAN,NOSUCH", "target_level=Nowhere", "target_level=999999999"]) {
      const res = await fetch(`${base}/protein/1/orthologs/?${query}`);
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as any).detail, query).toMatch(/^Unknown target_(species|level) /);
    }
  });

  it("answers a batch of ids as the per-id requests answer them, filters included; unknown ids get null", async () => {
    const ids: Array<string | number> = sample().map((p, i) => (i % 2 ? p.canonicalid : p.entry_nr));
    ids.push("NO_SUCH_ID", ids[0]);
    const level = encodeURIComponent(served.manifest.taxonomy.names[served.manifest.genomes[0].level]);
    for (const query of ["", `?rel_type=1:1`, `?target_level=${level}`]) {
      const res = await fetch(`${base}/protein/orthologs/bulk_retrieve/${query}`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ ids }),
      });
      expect(res.status).toBe(200);
      const answer = (await res.json()) as Array<{ query_id: string; orthologs: unknown[] | null }>;
      expect(answer.map((a) => a.query_id)).toEqual(ids.map(String));
      for (const [i, id] of ids.entries()) {
        if (id === "NO_SUCH_ID") expect(answer[i].orthologs).toBeNull();
        else expect(answer[i].orthologs, `${id}${query}`).toEqual(await getJson(`${base}/protein/${id}/orthologs/${query}`));
      }
    }
    const tooMany = await fetch(`${base}/protein/orthologs/bulk_retrieve/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(Array.from({ length: 1001 }, (_, i) => i + 1)),
    });
    expect(tooMany.status).toBe(400);
    const get = await fetch(`${base}/protein/orthologs/bulk_retrieve/`);
    expect([get.status, get.headers.get("Allow")]).toEqual([405, "POST, OPTIONS"]);
  });
});
