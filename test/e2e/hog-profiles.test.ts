/**
 * What HOG families share: similar genome profiles, the GO terms of a HOG's members, and
 * the shared ancestry of two genomes, each recomputed here from other endpoints' answers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { getAllPages, getJson, serveRelease, type ServedRelease } from "./serve.js";

describe("HOG profiles on the simulated release", () => {
  let served: ServedRelease;
  let base: string;
  /** Root HOG id → species codes of its members. */
  const species = new Map<string, Set<string>>();
  const members = new Map<string, any[]>();

  beforeAll(async () => {
    served = await serveRelease("sim");
    base = served.base;
    for (const root of await getAllPages(`${base}/hog/?per_page=1000`)) {
      const m = (await getJson(root.members_url)).members;
      members.set(root.hog_id, m);
      species.set(root.hog_id, new Set(m.map((p: any) => p.species.code)));
    }
  });
  afterAll(() => served?.dispose());

  const jaccard = (a: Set<string>, b: Set<string>) => {
    const common = [...a].filter((x) => b.has(x)).length;
    return common / (a.size + b.size - common);
  };

  it("ranks the families whose genome sets are most like a family's", async () => {
    for (const id of [...species.keys()].filter((_, i) => i % 15 === 0)) {
      const answer = await getJson(`${base}/hog/${id}/similar_profile_hogs/?max_results=50`);
      expect(answer.hog_id).toBe(id);
      expect(new Set(answer.in_species)).toEqual(species.get(id));
      // The best 50 by Jaccard index, ties by family number.
      const expected = [...species]
        .filter(([other]) => other !== id)
        .map(([other, set]) => [other, Math.round(jaccard(species.get(id)!, set) * 1e4) / 1e4] as const)
        .filter(([, j]) => j > 0)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 50);
      expect(answer.similar_profile_hogs.map((h: any) => [h.hog_id, h.jaccard_similarity])).toEqual(expected);
      for (const h of answer.similar_profile_hogs) expect(new Set(h.in_species)).toEqual(species.get(h.hog_id));
      const ten = await getJson(`${base}/hog/${id}/similar_profile_hogs/`);
      expect(ten.similar_profile_hogs).toEqual(answer.similar_profile_hogs.slice(0, 10));
    }
    const [first] = species.keys();
    for (const bad of ["0", "51", "abc", "-1"]) {
      const res = await fetch(`${base}/hog/${first}/similar_profile_hogs/?max_results=${bad}`);
      expect(res.status, bad).toBe(400);
      expect(await res.json()).toEqual({ detail: "max_results must be positive value <= 50" });
    }
    // HOG records and HOG list items link it.
    const [record] = await getJson(`${base}/hog/${first}/`);
    expect(record.similar_profile_hogs).toBe(`${base}/hog/${first}/similar_profile_hogs/`);
  });

  it("scores each GO term of a HOG by the share of its members annotated with it", async () => {
    let checked = 0;
    for (const [id, list] of [...members].filter((_, i) => i % 10 === 0)) {
      const counts = new Map<string, number>();
      for (const m of list) {
        for (const term of new Set((await getJson(`${base}/protein/${m.entry_nr}/gene_ontology/`)).map((a: any) => a.GO_term))) {
          counts.set(term as string, (counts.get(term as string) ?? 0) + 1);
        }
      }
      const go = await getJson(`${base}/hog/${id}/gene_ontology/?level=root`);
      expect(new Map(go.map((t: any) => [t.GO_term, t.score])), id).toEqual(
        new Map([...counts].map(([t, k]) => [t, Math.round((k / list.length) * 1e4) / 1e4])),
      );
      for (const t of go) expect(t.id).toBe(id);
      checked += go.length;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it("counts the genes two genomes share by HOG family and by pairwise orthologs", async () => {
    const [g1, g2] = ["HUMAN", "MOUSE"];
    const pairs = await getAllPages(`${base}/pairs/${g1}/${g2}/?per_page=5000`);
    const vps = await getJson(`${base}/summary/shared_ancestry/${g1}/${g2}/?type=vps`);
    expect(vps.details).toEqual([
      { species: g1, nr_genes: served.manifest.genomes.find((g) => g.code === g1)!.nrGenes, nr_orthologs: new Set(pairs.map((p) => p.entry_1.entry_nr)).size },
      { species: g2, nr_genes: served.manifest.genomes.find((g) => g.code === g2)!.nrGenes, nr_orthologs: new Set(pairs.map((p) => p.entry_2.entry_nr)).size },
    ]);
    expect(vps.mrca).toBeUndefined();
    const hogs = await getJson(`${base}/summary/shared_ancestry/${g1}/${g2}/`);
    let n1 = 0;
    let n2 = 0;
    for (const list of members.values()) {
      const codes = list.map((p) => p.species.code);
      if (codes.includes(g1) && codes.includes(g2)) {
        n1 += codes.filter((c) => c === g1).length;
        n2 += codes.filter((c) => c === g2).length;
      }
    }
    expect(hogs.details.map((d: any) => d.nr_orthologs)).toEqual([n1, n2]);
    expect(hogs.fraction).toBeCloseTo((n1 + n2) / (hogs.details[0].nr_genes + hogs.details[1].nr_genes), 5);
    expect(hogs.mrca).toEqual({ taxon_id: expect.any(Number), name: "Euarchontoglires" });
    const bad = await fetch(`${base}/summary/shared_ancestry/${g1}/${g2}/?type=bogus`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as any).detail).toBe("Invalid type='bogus'. Choose from: hogs, vps");
  });
});

warnWithoutSharedData("HOG GO terms of primates-chr12");
describe.skipIf(!hasSharedData)("HOG profiles on primates-chr12", () => {
  let served: ServedRelease;
  beforeAll(async () => {
    served = await serveRelease("primates");
  });
  afterAll(() => served?.dispose());

  it("carries the human GO annotations up to the HOGs that hold human genes", async () => {
    const human = await getJson(`${served.base}/genome/HUMAN/proteins/?per_page=60`);
    let annotated = 0;
    for (const p of human.filter((x: any) => x.orth_hog_id)) {
      const own = await getJson(`${served.base}/protein/${p.entry_nr}/gene_ontology/`);
      const hog = await getJson(`${served.base}/hog/${p.orth_hog_id}/gene_ontology/`);
      const size = (await getJson(`${served.base}/hog/${p.orth_hog_id}/members/`)).members.length;
      // Only human genes are annotated here, so a term's score is 1/size per human member holding it.
      for (const term of new Set(own.map((a: any) => a.GO_term))) {
        const row = hog.find((t: any) => t.GO_term === term);
        expect(row, `${p.orth_hog_id} ${term}`).toBeDefined();
        expect(row.score * size).toBeGreaterThanOrEqual(1 - 1e-3);
        annotated++;
      }
    }
    expect(annotated).toBeGreaterThan(10);
  });
});
