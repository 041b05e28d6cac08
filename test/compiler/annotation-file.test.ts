/**
 * The annotations' file (release-compiler/derive/annotation-file.ts): annotations added in any
 * order, through the spill and its row engine, come back by protein in the order they were
 * added, cross-references without repeats, whatever ranges the sort is cut in and however many
 * files interleave; the table a task restores from the snapshot reads them from the file, and a
 * damaged file is refused with its path.
 */
import { existsSync, mkdtempSync, readFileSync, truncateSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pack } from "msgpackr";
import { describe, expect, it } from "vitest";
import { ANNOTATION_FILE, annotationSpill, type Domain, type GoAnnotation } from "../../release-compiler/derive/annotation-file.js";
import { restoreAnnotations, type AnnotationData } from "../../release-compiler/derive/annotations.js";
import { openEntryFile, STARTS_SUFFIX } from "../../release-compiler/derive/entry-file.js";
import { loadSnapshot, saveSnapshot } from "../../release-compiler/snapshot.js";
import type { AnnotationRow } from "../../release-format/format.js";
import { tempDir } from "./readers/tmp.js";

type Added = { index: number } & ({ kind: "xref"; source: string; id: string } | { kind: "go"; go: GoAnnotation } | { kind: "domain"; domain: Domain });

/**
 * `files` annotation files over `count` proteins, each naming its proteins in runs (as real
 * files do) from its own random start, read one after the other or interleaved; some
 * cross-references given twice, some proteins with none.
 */
function annotations(count: number, files: number, seed: number): Added[] {
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const out: Added[] = [];
  for (let f = 0; f < files; f++) {
    let index = Math.floor(random() * count);
    for (let k = 0; k < count / 2; k++) {
      if (random() < 0.3) index = Math.floor(random() * count);
      else index = (index + 1) % count;
      const r = random();
      if (r < 0.5) out.push({ index, kind: "xref", source: `DB${f % 3}`, id: `X${Math.floor(random() * 3)}-${index}` });
      else if (r < 0.8) out.push({ index, kind: "go", go: [`GO:${String(Math.floor(random() * 50)).padStart(7, "0")}`, "IEA", `REF:${f}`, "FPC"[f % 3] as "F"] });
      else out.push({ index, kind: "domain", domain: [`Pfam`, `PF${f}`, `domain ${k}`, k, k + 40] });
    }
  }
  return out;
}

/** The rows an in-memory table gives: each protein's annotations in the order added, a cross-reference once. */
function expected(count: number, added: Added[]): AnnotationRow[] {
  const rows: AnnotationRow[] = Array.from({ length: count }, () => ({ xrefs: [], go: [], domains: [] }));
  for (const a of added) {
    const row = rows[a.index];
    if (a.kind === "xref") {
      if (!row.xrefs.some(([s, id]) => s === a.source && id === a.id)) row.xrefs.push([a.source, a.id]);
    } else if (a.kind === "go") row.go.push(a.go);
    else row.domains.push(a.domain);
  }
  return rows;
}

async function written(count: number, added: Added[], memoryBytes: number) {
  const folder = tempDir();
  const scratch = join(folder, "scratch");
  const spill = await annotationSpill(count, { folder: scratch, memoryBytes, threads: 1 });
  for (const a of added) {
    if (a.kind === "xref") spill.addXref(a.index, a.source, a.id);
    else if (a.kind === "go") spill.addGo(a.index, a.go);
    else spill.addDomain(a.index, a.domain);
  }
  const goSeen: GoAnnotation[][] = [];
  const file = await spill.finish(folder, (go) => goSeen.push(go));
  expect(existsSync(scratch), "the scratch folder is removed").toBe(false);
  return { folder, file, goSeen };
}

describe("the annotations' file", () => {
  it("gives each protein's annotations in the order added, cross-references once, sorted in several ranges, with more files than the spill's windows", async () => {
    const count = 20_000;
    const added = annotations(count, 12, 7);
    // 32 bytes a row to sort: ranges of 4,000 rows, about a dozen of them.
    const { folder, file, goSeen } = await written(count, added, 32 * 4_000);
    const want = expected(count, added);
    expect(want.filter((r) => !r.xrefs.length && !r.go.length && !r.domains.length).length, "some proteins have none").toBeGreaterThan(0);
    expect(goSeen, "each protein's GO annotations in entry order, for those with annotations").toEqual(
      want.filter((r) => r.xrefs.length || r.go.length || r.domains.length).map((r) => r.go),
    );
    // The table a writing task restores from the derive task's snapshot.
    const snapshot = join(mkdtempSync(join(tmpdir(), "orth-annotations-")), "output.v8");
    saveSnapshot(snapshot, { annotations: { count, file, goTerms: new Map([["GO:0000001", { name: "a term", aspect: "molecular_function", ic: 1.5 }]]) } satisfies AnnotationData });
    const table = restoreAnnotations(loadSnapshot<{ annotations: AnnotationData }>(snapshot).annotations, folder);
    try {
      expect(table.count).toBe(count);
      expect(table.goTerms.get("GO:0000001")?.name).toBe("a term");
      for (let i = 0; i < count; i++) expect(table.rowAt(i), `row ${i}`).toEqual(want[i]);
      let seed = 5;
      for (let k = 0; k < 5_000; k++) {
        const i = (seed = (seed * 69_069 + 1) % 2 ** 32) % count;
        expect(table.goAt(i)).toEqual(want[i].go);
        expect(table.xrefsAt(i)).toEqual(want[i].xrefs);
      }
    } finally {
      table.close();
    }
  });

  it("holds each record as packing the protein's annotations writes it, byte for byte, with long lists too", async () => {
    const count = 300;
    const added = annotations(count, 5, 11);
    // One protein with lists past msgpack's short arrays (16 elements): 40 cross-references, 20 GO annotations, 10 domains.
    for (let k = 0; k < 40; k++) added.push({ index: 7, kind: "xref", source: `DB${k % 4}`, id: `LONG-${k}` });
    for (let k = 0; k < 20; k++) added.push({ index: 7, kind: "go", go: [`GO:${String(k).padStart(7, "0")}`, "IEA", "REF:long", "P"] });
    for (let k = 0; k < 10; k++) added.push({ index: 7, kind: "domain", domain: ["Pfam", `PF${k}`, `long ${k}`, k, k + 1_000_000] });
    const { folder, file } = await written(count, added, 2 ** 20);
    const records = openEntryFile(file, folder, "annotations");
    try {
      expected(count, added).forEach((row, i) => {
        const empty = !row.xrefs.length && !row.go.length && !row.domains.length;
        const record = empty ? new Uint8Array(0) : pack([row.xrefs.flat(), row.go, row.domains.flat()]);
        expect(Buffer.from(records.bytes(i + 1)).equals(Buffer.from(record)), `entry ${i + 1}`).toBe(true);
      });
    } finally {
      records.close();
    }
  });

  it("of proteins without annotations holds empty rows", async () => {
    const { folder, file, goSeen } = await written(3, [], 2 ** 20);
    expect(goSeen).toEqual([]);
    expect(file).toMatchObject({ count: 3, bytes: 0 });
    expect(new Float64Array(new Uint8Array(readFileSync(join(folder, ANNOTATION_FILE + STARTS_SUFFIX))).buffer)).toEqual(new Float64Array(4));
    const table = restoreAnnotations({ count: 3, file, goTerms: new Map() }, folder);
    expect([0, 1, 2].map((i) => table.rowAt(i))).toEqual([0, 1, 2].map(() => ({ xrefs: [], go: [], domains: [] })));
    table.close();
  });

  it("that is cut short is refused with its path, and a spill closed unfinished leaves nothing", async () => {
    const added = annotations(500, 2, 3);
    const { folder, file } = await written(500, added, 2 ** 20);
    const path = join(folder, ANNOTATION_FILE);
    const size = file.bytes;
    truncateSync(path, size - 1);
    const table = restoreAnnotations({ count: 500, file, goTerms: new Map() }, folder);
    expect(() => table.rowAt(0)).toThrow(`${path}: ${size - 1} bytes where the derived release's annotations take ${size}; its work folder is damaged`);

    const scratch = join(tempDir(), "scratch");
    const spill = await annotationSpill(10, { folder: scratch, memoryBytes: 2 ** 20, threads: 1 });
    spill.addXref(1, "DB", "X");
    spill.close();
    expect(existsSync(scratch)).toBe(false);
    spill.close();
  });
});
