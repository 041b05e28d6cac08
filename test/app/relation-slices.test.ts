/**
 * A protein's relations read a slice of partners at a time (src/routes/relations.ts,
 * `relationSlices`): what the orthologs endpoint streams for a gene with more partners than one
 * slice. In process on the simulated release, with slices small enough that its proteins have
 * many: the slices, put together, are the relations read whole, in the same order, and the first
 * slice is read before the slices are handed over. (Byte-identical answers of genes with more
 * partners than a slice were checked on the 2,500-genome release, which the suite does not hold.)
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { folderStorage, openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { isOrthologType, type ProteinRow, type Relation } from "../../release-format/format.js";
import { createBlobCache } from "../../src/release/blob-cache.js";
import { releaseView } from "../../src/release/release.js";
import { proteinRow } from "../../src/release/resolve.js";
import { relationSlices, relationsOf } from "../../src/routes/relations.js";
import { TEST_BUILD } from "../build-dir.js";

const dir = resolve(TEST_BUILD, "sim");
const release = await openReleaseFolder(dir);
const orthologs = ([, type]: Relation) => isOrthologType(type);

/** The proteins with the most relations of the release's relations table. */
async function widest(count: number): Promise<ProteinRow[]> {
  const { relations } = release.manifest.tables;
  const sizes: Array<[entry: number, relations: number]> = [];
  let entry = 0;
  for await (const row of await release.rows(relations, 0, relations.rows)) sizes.push([++entry, row.filter(orthologs).length]);
  sizes.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return Promise.all(sizes.slice(0, count).map(([e]) => proteinRow(release, e)));
}

describe("relations a slice of partners at a time", () => {
  it("gives the relations read whole, in order, in slices of the size asked", async () => {
    const proteins = await widest(3);
    for (const protein of proteins) {
      const whole = await relationsOf(release, protein, orthologs);
      expect(whole.length, `protein ${protein.entry}`).toBeGreaterThan(7);
      const { count, slices } = await relationSlices(release, protein, orthologs, 7);
      expect(count).toBe(whole.length);
      const sizes: number[] = [];
      const joined = [];
      for await (const slice of slices) {
        sizes.push(slice.length);
        joined.push(...slice);
      }
      expect(sizes.slice(0, -1).every((n) => n === 7) && sizes[sizes.length - 1] <= 7).toBe(true);
      expect(sizes.length).toBe(Math.ceil(whole.length / 7));
      expect(joined).toEqual(whole);
      expect(joined.every(({ relation, partner }) => partner.entry === relation[0])).toBe(true);
    }
  });

  it("reads the first slice before handing the slices over, so a storage fault comes before any answer", async () => {
    const [protein] = await widest(1);
    const reads: string[] = [];
    const folder = folderStorage(dir);
    const counted = releaseView({ get: (key, range) => (reads.push(`${key}@${range?.offset}`), folder.get(key, range)) }, createBlobCache(0), release.manifest);
    const { slices } = await relationSlices(counted, await proteinRow(counted, protein.entry), orthologs, 1);
    const beforePulling = reads.length;
    expect(beforePulling).toBeGreaterThan(0);
    const iterator = slices[Symbol.asyncIterator]();
    const first = await iterator.next(); // read already
    expect(first.value).toHaveLength(1);
    expect(reads.length).toBe(beforePulling);
  });
});
