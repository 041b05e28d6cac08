/**
 * Every request reads a small, fixed number of chunks, whatever the release size: each
 * endpoint within its bound on a cold isolate (a fresh worker), and none when warm (an
 * edge-cache hit, or an answer rebuilt from the isolate's chunk cache). A single-record answer
 * reads at most 3 ranges and at most 64 kB plus twice its own size (issue "Release format 4").
 * The bounds are those of release-format/FORMAT.md; `X-Blob-Reads` and `X-Blob-Bytes` report
 * the reads (the release's manifest and header, read once per isolate, are not counted).
 */
import { describe, expect, it } from "vitest";
import { hasSharedData } from "../shared-data.js";
import { resolve } from "node:path";
import type { GroupRow } from "../../release-format/format.js";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { allRows } from "../release-folder.js";
import { serveRelease, TEST_BUILD } from "./serve.js";

/** Every group of a compiled test release, read from its files. */
const groupsOnDisk = (name: string): Promise<GroupRow[]> => allRows(resolve(TEST_BUILD, name), (m) => m.tables.groups);

/** What a single-record answer may read: 64 kB plus twice the answer. */
const byteBudget = (answerBytes: number) => 64 * 1024 + 2 * answerBytes;

const releases = ["sim", ...(hasSharedData ? ["primates"] : [])];

describe.each(releases)("blob reads per request on %s", (name) => {
  it("stays within each endpoint's bound cold, and reads nothing warm", async () => {
    const served = await serveRelease(name, {}, { edgeCache: true });
    try {
      const { base, manifest } = served;
      // Targets chosen from the manifest alone, before any request warms the cache.
      const genome = manifest.genomes[manifest.genomes.length - 1];
      const entry = genome.firstEntry + genome.nrEntries - 1;
      const orthid = `${genome.code}${String(genome.nrEntries).padStart(5, "0")}`;
      const cases: Array<[string, number]> = [
        ["/version/", 0],
        ["/genome/", 0],
        ["/group/?page=2", 0],
        [`/genome/${genome.code}/`, 1],
        [`/genome/${manifest.genomes[0].code}/proteins/?page=2`, 2],
        [`/protein/${entry}/`, 2],
        [`/protein/${orthid}/`, 2],
        [`/group/${manifest.counts.groups}/`, 1],
        [`/hog/HOG:${manifest.hogPrefix}${String(1).padStart(7, "0")}/`, 2],
      ];
      // Targets that need an earlier answer: measured on ids whose blobs no case above read.
      const middle = manifest.genomes[Math.floor(manifest.genomes.length / 2)];
      const protein = await (await fetch(`${base}/protein/${middle.firstEntry}/`)).json() as any;
      // A group whose fingerprint is unique (read from the release files, not the worker, so nothing warms).
      const group = (await groupsOnDisk(name)).find((g, _, all) => g.members.length > 1 && all.filter((x) => x.fingerprint === g.fingerprint).length === 1);
      const coldFamily = Math.floor(manifest.counts.families / 2);
      const familyRoot = `HOG:${manifest.hogPrefix}${String(coldFamily).padStart(7, "0")}`;
      const other = manifest.genomes[1];
      const otherCanonical = (await (await fetch(`${base}/genome/${other.code}/proteins/?per_page=1&page=${other.nrEntries}`)).json() as any)[0];
      cases.push(
        [`/protein/${encodeURIComponent(otherCanonical.canonicalid)}/`, 3],
        [`/hog/${familyRoot}/members/?level=root`, 2],
        [`/hog/${encodeURIComponent(otherCanonical.canonicalid)}/`, 3],
      );
      if (group) {
        const member = group.members[group.members.length - 1].entry;
        const g = manifest.genomes.find((x) => member >= x.firstEntry && member < x.firstEntry + x.nrEntries)!;
        cases.push([`/group/${group.fingerprint}/`, 2], [`/group/${g.code}${String(member - g.firstEntry + 1).padStart(5, "0")}/`, 2]);
      }

      // The cases above read distinct chunks; those below may meet chunks read before (on a small
      // release one chunk holds several genomes), so they count for the bounds only.
      const distinct = cases.filter(([, bound]) => bound > 0).length;
      // Single-record answers: these also keep to the byte budget.
      const singleRecords = new Set(cases.map(([path]) => path).filter((path) => !path.includes("page") && !path.endsWith("/genome/")));
      // Endpoints built on relations, annotations and HOG lists, each on a genome of its own.
      const at = (g: number, k: number) => manifest.genomes[g % manifest.genomes.length].firstEntry + k;
      const family = Math.max(1, Math.floor(manifest.counts.families / 3));
      const familyHog = `HOG:${manifest.hogPrefix}${String(family).padStart(7, "0")}`;
      const [g1, g2] = [manifest.genomes[2], manifest.genomes[3]];
      cases.push(
        [`/protein/${at(2, 5)}/orthologs/`, 3],
        [`/protein/${at(3, 7)}/domains/`, 2],
        [`/protein/${at(4, 9)}/xref/`, 2],
        [`/protein/${at(8, 15)}/gene_ontology/`, 2],
        [`/protein/${at(5, 11)}/hog_derived_orthologs/`, 2],
        [`/protein/${at(6, 13)}/isoforms/`, 2],
        [`/genome/${manifest.genomes[7 % manifest.genomes.length].code}/genes/`, 3],
        [`/group/${Math.max(1, Math.floor(manifest.counts.groups / 3))}/close_groups/`, 1],
        ["/hog/?page=2&per_page=10", 1],
        // 1 directory chunk, 1–2 pairs chunks, and the protein chunks of the page's proteins (counted below).
        [`/pairs/${g1.code}/${g2.code}/?per_page=10`, 3],
        [`/summary/shared_ancestry/${g1.code}/${g2.code}/`, 2],
        [`/hog/${familyHog}/similar_profile_hogs/`, 3],
        [`/hog/${familyHog}/gene_ontology/`, 3],
      );
      for (const path of [`/protein/${at(2, 5)}/orthologs/`, `/protein/${at(3, 7)}/domains/`, `/protein/${at(4, 9)}/xref/`, `/protein/${at(8, 15)}/gene_ontology/`, `/protein/${at(5, 11)}/hog_derived_orthologs/`, `/protein/${at(6, 13)}/isoforms/`]) singleRecords.add(path);

      // The protein chunks a page of pairs touches: its summaries come from them.
      const local = await openReleaseFolder(resolve(TEST_BUILD, name));
      const proteinChunksOf = async (path: string): Promise<number> => {
        const page = (await (await fetch(`${base}${path}`)).json()) as Array<{ entry_1: { entry_nr: number }; entry_2: { entry_nr: number } }>;
        const chunks = await Promise.all(page.flatMap((p) => [p.entry_1.entry_nr, p.entry_2.entry_nr]).map((e) => local.locate(local.manifest.tables.proteins.tree, e - 1)));
        return new Set(chunks.map((c) => c!.ref[3])).size;
      };
      let coldReads = 0;
      for (const [path, bound] of cases) {
        const res = await fetch(`${base}${path}`);
        const answer = (await res.arrayBuffer()).byteLength;
        expect(res.status, path).toBe(200);
        const reads = Number(res.headers.get("X-Blob-Reads"));
        expect(reads, `${path} cold`).toBeLessThanOrEqual(bound + (path.startsWith("/pairs/") ? await proteinChunksOf(path) : 0));
        if (singleRecords.has(path)) {
          expect(reads, `${path} cold: a single record reads at most 3 ranges`).toBeLessThanOrEqual(3);
          expect(Number(res.headers.get("X-Blob-Bytes")), `${path} cold: bytes read against a ${answer}-byte answer`).toBeLessThanOrEqual(byteBudget(answer));
        }
        coldReads += reads;
      }
      // The cold pass really went to storage: every case with a non-zero bound read something.
      expect(coldReads).toBeGreaterThanOrEqual(distinct);
      for (const [path] of cases) {
        // The same URL again is an edge-cache hit; with `format=json` added (the same answer
        // under another cache key) it is rebuilt from the isolate's blob cache, with no reads.
        const repeat = await fetch(`${base}${path}`);
        await repeat.arrayBuffer();
        expect(repeat.headers.get("X-Cache"), `${path} repeated`).toBe("HIT");
        expect(repeat.headers.get("X-Blob-Reads"), `${path} repeated`).toBe("0");
        const rebuilt = await fetch(`${base}${path}${path.includes("?") ? "&" : "?"}format=json`);
        await rebuilt.arrayBuffer();
        expect(rebuilt.headers.get("X-Cache"), `${path} warm`).toBe("MISS");
        expect(rebuilt.headers.get("X-Blob-Reads"), `${path} warm`).toBe("0");
      }
    } finally {
      await served.dispose();
    }
  });
});
