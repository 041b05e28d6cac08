/**
 * The request pipeline in process: the worker's own app (src/app.ts) driven with `app.request()`
 * on a compiled release folder as its storage, no workerd and no R2 fake. Checks what the
 * middleware chain promises: the body read once under one cap and refused at the entry (413 or
 * a SOAP fault), the release scope resolved once (named or current), preflights from the
 * route's own OPTIONS answer, unknown and ambiguous ids told apart as data, storage faults as 503.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { unpack } from "msgpackr";
import { describe, expect, it } from "vitest";
import { folderPointer, folderStorage, openReleaseFolder, readManifestFile } from "../../release-compiler/local/folder-storage.js";
import { packChunk } from "../../release-compiler/write/packs.js";
import { releaseTrees, walkTree } from "../../release-format/directory.js";
import { CURRENT_RELEASE_KEY, FORMAT_VERSION, POINTER_PREFIX_BYTES, packKey, readPointer, type ChunkRef, type DirectoryPage, type KeyIndexLeaf, type ReleaseHeader } from "../../release-format/format.js";
import { openedHeader, storedHeader } from "../../release-format/header.js";
import { createApp } from "../../src/app.js";
import { MAX_REQUEST_BODY } from "../../src/middleware/request-body.js";
import { createBlobCache } from "../../src/release/blob-cache.js";
import { releasesIn } from "../../src/release/release.js";
import type { ByteRange, ReleaseStorage } from "../../src/release/storage.js";
import { TEST_BUILD } from "../build-dir.js";

const dir = resolve(TEST_BUILD, "sim");
const release = await openReleaseFolder(dir);
const { manifest } = release;
const ORIGIN = "http://in-process.test";

/** Storage over the release folder that counts reads by key. */
function countingStorage(): ReleaseStorage & { reads: Map<string, number> } {
  const folder = folderStorage(dir);
  const reads = new Map<string, number>();
  return {
    reads,
    get: (key, range) => {
      reads.set(key, (reads.get(key) ?? 0) + 1);
      return folder.get(key, range);
    },
  };
}

const soapCall = (operation: string, parts: string) =>
  `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><m:${operation} xmlns:m="urn:ORTH">${parts}</m:${operation}></s:Body></s:Envelope>`;

/** An id the entry-id index gives several entries, found in the index itself. */
async function ambiguousId(): Promise<string | undefined> {
  const leaves: ChunkRef[] = [];
  await walkTree(manifest.indexes.entryIds.tree, (ref) => release.chunk<DirectoryPage>(ref), (ref, isPage) => void (isPage || leaves.push(ref)));
  for (const ref of leaves) {
    const leaf = await release.chunk<KeyIndexLeaf<number[]>>(ref);
    const at = leaf.values.findIndex((entries) => entries.length > 1);
    if (at >= 0) return leaf.keys[at];
  }
  return undefined;
}

describe("the request pipeline, in process", () => {
  it("answers from the current release and from a release named in the path, opening each manifest once, from the pointer's copy", async () => {
    const storage = countingStorage();
    const app = createApp({ storage: () => storage });
    const current = await app.request(`${ORIGIN}/api/version/`);
    expect(current.status).toBe(200);
    expect(current.headers.get("X-Release")).toBe(manifest.name);
    expect(((await current.json()) as { orth_version: string }).orth_version).toBe(manifest.name);

    const named = await app.request(`${ORIGIN}/release/${manifest.name}/api/genome/?per_page=1`);
    expect(named.status).toBe(200);
    // Links keep the prefix the request came in on, once.
    expect(named.headers.get("Link")).toContain(`${ORIGIN}/release/${manifest.name}/api/genome/?`);
    expect(named.headers.get("Link")).not.toContain(`/release/${manifest.name}/release/`);
    // The pointer carries the current release's manifest: its file is never read, here or named.
    expect(storage.reads.get(`releases/${manifest.name}/manifest.json`)).toBeUndefined();
    expect(storage.reads.get(CURRENT_RELEASE_KEY)).toBe(1);
    // And its header: the header's pack is never read either.
    expect(storage.reads.get(packKey(readManifestFile(dir).header[0]))).toBeUndefined();

    const unknown = await app.request(`${ORIGIN}/release/No.Such.Release/api/version/`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "Unknown release: No.Such.Release" });
    // The trailing-slash redirect keeps the prefix.
    const redirect = await app.request(`${ORIGIN}/release/${manifest.name}/api/genome?per_page=2`);
    expect([redirect.status, redirect.headers.get("Location")]).toEqual([301, `/release/${manifest.name}/api/genome/?per_page=2`]);
  });

  it("reads the pointer and opens the release once for requests that arrive together on a fresh isolate, and reads it again after a failed read", async () => {
    const storage = countingStorage();
    // Each read waits a little, as a storage read does, so that all the requests start before the first read ends.
    const slow: ReleaseStorage = { get: (key, range) => new Promise((done) => setTimeout(() => done(storage.get(key, range)), 5)) };
    const app = createApp({ storage: () => slow });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => app.request(`${ORIGIN}/api/protein/${i + 1}/`)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(storage.reads.get(CURRENT_RELEASE_KEY)).toBe(1);
    expect(storage.reads.get(packKey(readManifestFile(dir).header[0]))).toBeUndefined();

    // A pointer that cannot be read fails every request waiting for it, and the next request reads it again.
    let down = true;
    const flaky = countingStorage();
    const failing: ReleaseStorage = { get: (key, range) => (down && key === CURRENT_RELEASE_KEY ? new Promise((_, fail) => setTimeout(() => fail(new Error("storage down")), 5)) : flaky.get(key, range)) };
    const fresh = createApp({ storage: () => failing });
    const failed = await Promise.all(Array.from({ length: 3 }, () => fresh.request(`${ORIGIN}/api/version/`)));
    expect(failed.map((a) => a.status)).toEqual([503, 503, 503]);
    down = false;
    expect((await fresh.request(`${ORIGIN}/api/version/`)).status).toBe(200);
    expect(flaky.reads.get(CURRENT_RELEASE_KEY)).toBe(1);
  });

  it("refuses a body over the cap at the entry: 413 with Allow on REST, a Client fault on SOAP", async () => {
    const app = createApp({ storage: () => countingStorage() });
    const big = new Uint8Array(MAX_REQUEST_BODY + 1).fill(0x20);
    const rest = await app.request(`${ORIGIN}/api/protein/bulk_retrieve/`, { method: "POST", headers: { "Content-Type": "application/json" }, body: big });
    expect(rest.status).toBe(413);
    expect(rest.headers.get("Allow")).toBe("POST, OPTIONS");
    expect(rest.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await rest.json()).toEqual({ detail: `Request body too large: at most ${MAX_REQUEST_BODY} bytes.` });
    const soap = await app.request(`${ORIGIN}/soap`, { method: "POST", headers: { "Content-Type": "text/xml" }, body: big });
    expect(soap.status).toBe(500);
    expect(soap.headers.get("Allow")).toBe("GET, HEAD, POST");
    expect(await soap.text()).toContain(`<faultstring>Malformed request: the body is larger than ${MAX_REQUEST_BODY} bytes</faultstring>`);
    // A body exactly at the cap is taken (and then judged as JSON).
    const atCap = await app.request(`${ORIGIN}/api/protein/bulk_retrieve/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: new Uint8Array(MAX_REQUEST_BODY).fill(0x20),
    });
    expect(atCap.status).toBe(400);
  });

  it("refuses a body whose stream breaks", async () => {
    const app = createApp({ storage: () => countingStorage() });
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('{"ids": ['));
        controller.error(new Error("client went away"));
      },
    });
    const res = await app.request(`${ORIGIN}/api/protein/bulk_retrieve/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: broken,
      duplex: "half",
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "The request body was cut short." });
  });

  it("answers a preflight with the methods of the route's own OPTIONS answer", async () => {
    const app = createApp({ storage: () => countingStorage() });
    const preflight = (path: string) =>
      app.request(`${ORIGIN}${path}`, { method: "OPTIONS", headers: { Origin: "https://lab.example", "Access-Control-Request-Method": "POST" } });
    const bulk = await preflight("/api/protein/bulk_retrieve/");
    expect(bulk.status).toBe(204);
    expect(bulk.headers.get("Access-Control-Allow-Methods")).toBe("POST, OPTIONS");
    expect(bulk.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(await bulk.text()).toBe("");
    const read = await preflight(`/release/${manifest.name}/api/genome/`);
    expect(read.headers.get("Access-Control-Allow-Methods")).toBe("GET, HEAD, OPTIONS");
    // A plain OPTIONS is the route's description.
    const described = await app.request(`${ORIGIN}/api/protein/bulk_retrieve/`, { method: "OPTIONS" });
    expect(described.status).toBe(200);
    expect(((await described.json()) as { name: string }).name).toBe("Protein Bulk Retrieve");
  });

  it("tells unknown and ambiguous ids apart without reading error text: bulk retrieve gives null, SOAP names which", async () => {
    const ambiguous = await ambiguousId();
    if (!ambiguous) return console.warn("the simulated release has no id shared by several proteins: ambiguity not checked");
    const app = createApp({ storage: () => countingStorage() });
    const bulk = await app.request(`${ORIGIN}/api/protein/bulk_retrieve/`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ ids: [ambiguous, "NO_SUCH_ID", "1"] }),
    });
    const answer = (await bulk.json()) as Array<{ query_id: string; target: { entry_nr: number } | null }>;
    expect(answer.map((a) => a.target?.entry_nr ?? null)).toEqual([null, null, 1]);
    const fault = async (id: string) => (await (await app.request(`${ORIGIN}/soap`, { method: "POST", headers: { "Content-Type": "text/xml" }, body: soapCall("GetEntry", `<EntryID>${id}</EntryID>`) })).text());
    expect(await fault(ambiguous)).toContain(`Ambiguous entry id: ${ambiguous}`);
    expect(await fault("NO_SUCH_ID")).toContain("Unknown entry id: NO_SUCH_ID");
    const rest = await app.request(`${ORIGIN}/api/protein/${encodeURIComponent(ambiguous)}/`);
    expect([rest.status, ((await rest.json()) as { detail: string }).detail]).toEqual([404, `requested id '${ambiguous}' is not unique`]);
  });

  it("answers storage faults with 503 (REST) and a Server fault (SOAP), and pages that need no release still answer", async () => {
    const down: ReleaseStorage = {
      get: async () => {
        throw new Error("connection refused");
      },
    };
    const app = createApp({ storage: () => down });
    const rest = await app.request(`${ORIGIN}/api/protein/1/`);
    expect([rest.status, rest.headers.get("Cache-Control")]).toEqual([503, "no-store"]);
    expect(await rest.json()).toEqual({ detail: "The release storage is unreachable; try again shortly." });
    const soap = await app.request(`${ORIGIN}/soap`, { method: "POST", headers: { "Content-Type": "text/xml" }, body: soapCall("GetEntry", "<EntryID>1</EntryID>") });
    expect(soap.status).toBe(500);
    expect(await soap.text()).toContain("<faultcode>soap:Server</faultcode>");
    // The WSDL names things as the release's profile does: without the release, 503 like /api.
    const wsdl = await app.request(`${ORIGIN}/soap?wsdl`);
    expect([wsdl.status, wsdl.headers.get("Cache-Control")]).toEqual([503, "no-store"]);

    // A pack missing from an otherwise good store: the one holding the first chunk of sequences.
    const folder = folderStorage(dir);
    const [victim] = (await release.locate(manifest.tables.sequences.tree, 0))!.ref;
    const holed = createApp({ storage: () => ({ get: (key, range) => (key.includes(victim) ? Promise.resolve(null) : folder.get(key, range)) }) });
    const missing = await holed.request(`${ORIGIN}/api/protein/1/`);
    expect(missing.status).toBe(503);
    expect(missing.headers.get("Cache-Control")).toBe("no-store");
    expect(((await missing.json()) as { detail: string }).detail).toContain(`missing (pack ${victim})`);
  });

  it("reads a pointer of an older publisher (the bare name) and answers a corrupt one 503", async () => {
    const folder = folderStorage(dir);
    const reads = new Map<string, number>();
    const pointing = (pointer: string): ReleaseStorage => ({
      get: (key, range) => {
        reads.set(key, (reads.get(key) ?? 0) + 1);
        return key === CURRENT_RELEASE_KEY ? Promise.resolve(new TextEncoder().encode(pointer)) : folder.get(key, range);
      },
    });
    const bare = await createApp({ storage: () => pointing(`${manifest.name}\n`) }).request(`${ORIGIN}/api/version/`);
    expect(bare.status).toBe(200);
    expect(((await bare.json()) as { orth_version: string }).orth_version).toBe(manifest.name);
    expect(reads.get(`releases/${manifest.name}/manifest.json`)).toBe(1);
    for (const corrupt of ["", "{not json", JSON.stringify({ format: FORMAT_VERSION }), "two words"]) {
      const res = await createApp({ storage: () => pointing(corrupt) }).request(`${ORIGIN}/api/protein/1/`);
      expect([res.status, res.headers.get("Cache-Control")], corrupt).toEqual([503, "no-store"]);
      expect(await res.json()).toEqual({ detail: "The current-release pointer is corrupt; publish a release again." });
    }
  });

  it("opens the header's text whole and decodes a tree's root when a request first reads that tree; a damaged header answers 503", async () => {
    const file = readManifestFile(dir);
    const [headerPack, offset, length] = file.header;
    // As the worker reads it: a Uint8Array (a Buffer would decode its bins as Buffers).
    const headerBytes = new Uint8Array(readFileSync(resolve(dir, packKey(headerPack))).subarray(offset, offset + length));
    type Stored = { text: string; roots: unknown[] };
    const stored = () => unpack(headerBytes) as Stored;
    // Stored: JSON text naming each root by its index, and every root packed on its own.
    const { text, roots } = stored();
    const trees = releaseTrees(JSON.parse(text) as ReleaseHeader);
    expect(trees.map(([, tree]) => tree.root)).toEqual(trees.map((_, i) => i));
    for (const root of roots) expect(root).toBeInstanceOf(Uint8Array);
    // Opened: the compiler's header, each root decoded at its first read, then kept.
    const opened = openedHeader(stored(), (what) => new Error(what));
    const proteins = opened.tables.proteins.tree;
    expect(Object.getOwnPropertyDescriptor(proteins, "root")!.get).toBeTypeOf("function");
    const root = proteins.root;
    expect(Object.getOwnPropertyDescriptor(proteins, "root")!.value).toBe(root);
    expect(Object.getOwnPropertyDescriptor(opened.tables.sequences.tree, "root")!.get).toBeTypeOf("function");
    const { taxonomy, genomes, hogLists, tables, sequenceIndex, indexes, xrefSearch } = manifest;
    expect(opened).toEqual({ taxonomy, genomes, hogLists, tables, sequenceIndex, indexes, xrefSearch });
    // Stored and opened again, a plain header (every root a page) comes back field for field.
    const plain = structuredClone(opened);
    expect(releaseTrees(plain).every(([, tree]) => Array.isArray(tree.root.starts))).toBe(true);
    expect(openedHeader(unpack(new Uint8Array(packChunk(storedHeader(plain, packChunk)))), (what) => new Error(what))).toEqual(plain);
    // What JSON would not give back is refused when the compiler stores a header.
    const bytesOutsideRoots = { ...opened, genomes: [{ ...genomes[0], code: new Uint8Array(2) }] } as unknown as ReleaseHeader;
    expect(() => storedHeader(bytesOutsideRoots, packChunk)).toThrow(/"code" holds/);
    // A Buffer too, which its toJSON would otherwise have written as an object.
    const bufferOutsideRoots = { ...opened, genomes: [{ ...genomes[0], code: Buffer.from("ab") }] } as unknown as ReleaseHeader;
    expect(() => storedHeader(bufferOutsideRoots, packChunk)).toThrow(/"code" holds/);
    const notFinite = { ...opened, genomes: [{ ...genomes[0], taxonId: Number.NaN }] } as unknown as ReleaseHeader;
    expect(() => storedHeader(notFinite, packChunk)).toThrow(/"taxonId" holds NaN/);

    // The header rewritten with its hash made to match, so that only its decoding can fail.
    const serving = (change: (header: Stored) => void): ReleaseStorage => {
      const header = stored();
      change(header);
      const bytes = packChunk(header);
      const hash = createHash("sha256").update(bytes).digest().subarray(0, 16).toString("hex");
      const pointer = new TextEncoder().encode(JSON.stringify({ ...file, header: [hash, 0, bytes.length, hash] }));
      const folder = folderStorage(dir);
      return {
        get: (key, range) =>
          key === CURRENT_RELEASE_KEY ? Promise.resolve(pointer) : key === packKey(hash) ? Promise.resolve(bytes.subarray(range?.offset ?? 0, (range?.offset ?? 0) + (range?.length ?? bytes.length))) : folder.get(key, range),
      };
    };
    const answers = async (storage: ReleaseStorage, path: string) => {
      const res = await createApp({ storage: () => storage }).request(`${ORIGIN}${path}`);
      return [res.status, res.status === 200 ? "" : ((await res.json()) as { detail: string }).detail];
    };
    const proteinsAt = trees.findIndex(([name]) => name === "tables.proteins");
    const corrupt = (what: string) => [503, `Release ${manifest.name} is corrupt: ${what}.`];
    // Garbage where the proteins root was: what reads the proteins answers 503, the rest still answers.
    const garbled = serving((h) => void (h.roots[proteinsAt] = new Uint8Array([0xc1, 0xc1, 0xc1])));
    expect(await answers(garbled, "/api/protein/1/")).toEqual(corrupt("the root of tables.proteins in the release header does not decode"));
    expect(await answers(garbled, "/api/genome/")).toEqual([200, ""]);
    // A root that is not packed, a root index past the roots, text that is not JSON, another shape: refused at open.
    const atOpen: Array<[(h: Stored) => void, string]> = [
      [(h) => void (h.roots[proteinsAt] = 7), "the root of tables.proteins in the release header is not a packed page"],
      [(h) => void (h.roots = h.roots.slice(0, proteinsAt)), "the root of tables.proteins in the release header is not a packed page"],
      [(h) => void (h.text = h.text.slice(0, -1)), "the release header's text does not name its tables and indexes"],
      [(h) => void (h.text = "{}"), "the release header's text does not name its tables and indexes"],
      [(h) => void (h.text = 7 as unknown as string), "the release header is not JSON text and packed roots"],
    ];
    for (const [change, what] of atOpen) expect(await answers(serving(change), "/api/version/"), what).toEqual(corrupt(what));
    expect(await answers(serving(() => {}), "/api/protein/1/")).toEqual([200, ""]);
  });

  it("re-reads only the pointer's manifest to see that the release is the same, and the whole pointer when it changed", async () => {
    const folder = folderStorage(dir);
    let pointer = folderPointer(dir);
    const asked: Array<ByteRange | undefined> = [];
    const storage: ReleaseStorage = {
      get: (key, range) => {
        if (key !== CURRENT_RELEASE_KEY) return folder.get(key, range);
        asked.push(range);
        return Promise.resolve(range ? pointer.slice(range.offset, range.offset + range.length) : pointer);
      },
    };
    const releases = releasesIn(storage, createBlobCache(1 << 20));
    expect(await releases.currentName(0)).toBe(manifest.name);
    expect(await releases.currentName(0)).toBe(manifest.name);
    expect(asked).toEqual([undefined, { offset: 0, length: POINTER_PREFIX_BYTES }]);
    expect(pointer.length).toBeGreaterThan(POINTER_PREFIX_BYTES);
    // Another release made current (a bare name, as an older publisher wrote it): read whole.
    pointer = new TextEncoder().encode("Another.Release\n");
    expect(await releases.currentName(0)).toBe("Another.Release");
    expect(asked.slice(2)).toEqual([{ offset: 0, length: POINTER_PREFIX_BYTES }, undefined]);
  });

  it("opens the release from its pack when the pointer's copy of the header is damaged", async () => {
    const good = folderPointer(dir);
    const damaged = good.slice();
    damaged[damaged.length - 10] ^= 0xff;
    const storage = countingStorage();
    const app = createApp({ storage: () => ({ get: (key, range) => (key === CURRENT_RELEASE_KEY ? Promise.resolve(damaged) : storage.get(key, range)) }) });
    const res = await app.request(`${ORIGIN}/api/protein/1/`);
    expect(res.status).toBe(200);
    expect(storage.reads.get(packKey(readManifestFile(dir).header[0]))).toBe(1);
    // A pointer cut short of its manifest line is corrupt.
    expect(readPointer(good.subarray(0, 40))).toBeUndefined();
  });

  it("answers a release of another format 503, saying which format it reads and what to do", async () => {
    // A format-3 manifest as the previous compiler wrote it: shard lists, no header.
    const format3 = { format: 3, name: manifest.name, hogPrefix: "", date: "", counts: manifest.counts, taxonomy: manifest.taxonomy, genomes: [], tables: {} };
    // A format-4 manifest: this release's, as the compiler before wide families and chunks beside a protein wrote it.
    const format4 = { ...readManifestFile(dir), format: 4 };
    const folder = folderStorage(dir);
    // The pointer as a publish writes it (the manifest file) and as an older publisher did (the bare name).
    const pointers = [(bytes: Uint8Array) => bytes, () => new TextEncoder().encode(manifest.name)];
    for (const [file, pointer] of [format3, format4].flatMap((f) => pointers.map((p) => [f, p] as const))) {
      const bytes = new TextEncoder().encode(JSON.stringify(file));
      const stored = (key: string) => (key === CURRENT_RELEASE_KEY ? pointer(bytes) : key.endsWith("manifest.json") ? bytes : undefined);
      const old = createApp({ storage: () => ({ get: (key, range) => (stored(key) ? Promise.resolve(stored(key)!) : folder.get(key, range)) }) });
      for (const path of ["/api/protein/1/", "/api/version/", `/release/${manifest.name}/api/version/`]) {
        const res = await old.request(`${ORIGIN}${path}`);
        expect([res.status, res.headers.get("Cache-Control")], path).toEqual([503, "no-store"]);
        expect(await res.json()).toEqual({
          detail: `Release ${manifest.name} has format ${file.format}; this worker reads format ${FORMAT_VERSION}. Compile the release again with this version (npm run compile) and publish it.`,
        });
      }
    }
  });
});
