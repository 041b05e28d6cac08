/**
 * `--align-pairs`: every pairwise relation of a small simulated release gets the score of its
 * local alignment and Kimura's distance, checked on sampled pairs against an independent
 * alignment written here (textbook three-matrix Gotoh with a full traceback); served by the
 * worker's own app as `distance` and `score`; a compile without the option keeps them null; the
 * pairs aligned on worker threads give the same release as on one thread.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALPHABET, ALPHABET_SIZE, BLOSUM62, GAP_EXTEND, GAP_OPEN, X_CODE } from "../../release-format/align.js";
import type { Manifest, ProteinRow, Relation, SequenceRow } from "../../release-format/format.js";
import { compileRelease } from "../../release-compiler/compile.js";
import { kimuraDistance } from "../../release-compiler/derive/pair-alignment.js";
import { folderStorage, openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { simulateRelease } from "../../release-compiler/simulate/simulate.js";
import { createApp } from "../../src/app.js";
import type { Release } from "../../src/release/release.js";

// Small inputs run on worker threads all the same (workers.ts threadsAlways): the threads are what these tests compare.
process.env.ORTH_THREADS_ALWAYS = "1";

const code = (ch: string) => {
  const at = ALPHABET.indexOf(ch.toUpperCase());
  return at < 0 ? X_CODE : at;
};
const sub = (a: string, b: string) => BLOSUM62[code(a) * ALPHABET_SIZE + code(b)];

/** Textbook local Gotoh with a full traceback: the score and the aligned columns of one optimal alignment. */
function referenceAlignment(q: string, t: string): { score: number; differing: number; aligned: number } {
  const m = q.length;
  const n = t.length;
  const open = GAP_OPEN + GAP_EXTEND;
  const size = (m + 1) * (n + 1);
  const H = new Float64Array(size);
  const M = new Float64Array(size).fill(-Infinity);
  const E = new Float64Array(size).fill(-Infinity); // ends with a target residue against a gap
  const F = new Float64Array(size).fill(-Infinity); // ends with a query residue against a gap
  const at = (i: number, j: number) => i * (n + 1) + j;
  let best = 0;
  let bi = 0;
  let bj = 0;
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const k = at(i, j);
      M[k] = H[at(i - 1, j - 1)] + sub(q[i - 1], t[j - 1]);
      E[k] = Math.max(H[at(i, j - 1)] - open, E[at(i, j - 1)] - GAP_EXTEND);
      F[k] = Math.max(H[at(i - 1, j)] - open, F[at(i - 1, j)] - GAP_EXTEND);
      H[k] = Math.max(0, M[k], E[k], F[k]);
      if (H[k] > best) [best, bi, bj] = [H[k], i, j];
    }
  }
  let differing = 0;
  let aligned = 0;
  let [i, j] = [bi, bj];
  let state: "H" | "M" | "E" | "F" = "H";
  while (i > 0 && j > 0) {
    const k = at(i, j);
    if (state === "H") {
      if (H[k] === 0) break;
      state = H[k] === M[k] ? "M" : H[k] === E[k] ? "E" : "F";
    }
    if (state === "M") {
      aligned++;
      if (code(q[i - 1]) !== code(t[j - 1]) || q[i - 1].toUpperCase() !== t[j - 1].toUpperCase()) differing++;
      i--;
      j--;
      state = "H";
    } else if (state === "E") {
      state = E[k] === H[at(i, j - 1)] - open ? "H" : "E";
      j--;
    } else {
      state = F[k] === H[at(i - 1, j)] - open ? "H" : "F";
      i--;
    }
  }
  return { score: best, differing, aligned };
}

describe("--align-pairs on a small simulated release", () => {
  const work = mkdtempSync(join(tmpdir(), "align-pairs-"));
  let release: Release;
  let manifest: Manifest;
  beforeAll(async () => {
    await simulateRelease({ out: join(work, "input"), genomes: 4, families: 25, seed: 11, name: "Aligned.Test" });
    // Aligned on 2 worker threads, and again on this thread alone.
    await compileRelease(join(work, "input", "release.json"), join(work, "aligned"), { alignPairs: true, jobs: 2 });
    await compileRelease(join(work, "input", "release.json"), join(work, "aligned-1"), { alignPairs: true, jobs: 1 });
    await compileRelease(join(work, "input", "release.json"), join(work, "plain"));
    release = await openReleaseFolder(join(work, "aligned"));
    manifest = release.manifest;
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("scores every relation as an independent alignment does, and gives Kimura's distance of it", async () => {
    const sequences: string[] = [];
    for await (const row of await release.rows<SequenceRow>(manifest.tables.sequences, 0, manifest.counts.proteins)) sequences.push(row.sequence);
    let checked = 0;
    let relations = 0;
    let entry = 0;
    for await (const rel of await release.rows<Relation[]>(manifest.tables.relations, 0, manifest.counts.proteins)) {
      entry++;
      for (const [partner, , distance, score] of rel) {
        relations++;
        expect(score, `${entry}-${partner}`).not.toBeNull();
        if (relations % 13 !== 0) continue;
        const reference = referenceAlignment(sequences[entry - 1], sequences[partner - 1]);
        expect(score, `${entry}-${partner}`).toBe(reference.score);
        // Co-optimal alignments may differ in a column or two: the distance of ours is close to the reference's.
        const expected = kimuraDistance(reference.differing, reference.aligned);
        if (Number.isNaN(expected)) expect(distance).toBeNull();
        else expect(Math.abs((distance as number) - expected), `${entry}-${partner}`).toBeLessThan(0.03);
        checked++;
      }
    }
    expect(relations).toBeGreaterThan(100);
    expect(checked).toBeGreaterThan(10);
  }, 120_000);

  it("gives the same bytes aligned on worker threads or on one thread", () => {
    expect(readFileSync(join(work, "aligned-1", "manifest.json"), "utf8")).toBe(readFileSync(join(work, "aligned", "manifest.json"), "utf8"));
  });

  it("serves distance and score on the orthologs endpoint, and keeps them null without the option", async () => {
    const protein = await release.row<ProteinRow>(manifest.tables.proteins, 0);
    const relations = await release.row<Relation[]>(manifest.tables.relations, protein.entry - 1);
    const app = createApp({ storage: () => folderStorage(join(work, "aligned")) });
    const orthologs = (await (await app.request(`http://in-process.test/api/protein/${protein.entry}/orthologs/`)).json()) as any[];
    expect(orthologs.length).toBeGreaterThan(0);
    for (const o of orthologs) {
      const [, , distance, score] = relations.find(([partner]) => partner === o.entry_nr)!;
      expect([o.distance, o.score]).toEqual([distance, score]);
      expect(typeof o.score).toBe("number");
    }
    const plain = createApp({ storage: () => folderStorage(join(work, "plain")) });
    const bare = (await (await plain.request(`http://in-process.test/api/protein/${protein.entry}/orthologs/`)).json()) as any[];
    expect(bare.map((o) => [o.distance, o.score])).toEqual(bare.map(() => [null, null]));
  });
});
