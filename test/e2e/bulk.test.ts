/**
 * `POST /api/protein/bulk_retrieve/` (reference C.1 #2, A.2, A.4): both request forms, both
 * response versions, request order, duplicates, unknown and ambiguous ids, a thousand ids in a
 * bounded number of blob reads, and every error with its status, detail and `Allow`.
 */
import { readFileSync } from "node:fs";
import net from "node:net";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { entryCovering, entryRef } from "../../release-format/directory.js";
import type { ChunkRef, DirectoryPage, TableRef } from "../../release-format/format.js";
import type { Release } from "../../src/release/release.js";
import { md5Hex, parseFasta, parseTsv } from "./oracle.js";
import { serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

const INPUT = resolve(TEST_BUILD, "sim-input");
const read = (path: string) => readFileSync(resolve(INPUT, path), "utf8");
const ALLOW = "POST, OPTIONS";

/**
 * The chunks (by hash) that hold rows of a table: each row's chunk and the directory pages
 * below the root on the way to it, as the worker finds them.
 */
async function chunksOfRows(release: Release, table: TableRef<unknown>, rows: number[]): Promise<Map<string, ChunkRef>> {
  const out = new Map<string, ChunkRef>();
  for (const row of rows) {
    let page: DirectoryPage<number> = table.tree.root;
    for (;;) {
      const ref = entryRef(page, entryCovering(page, row));
      out.set(ref[3], ref);
      if (page.level === 0) break;
      page = await release.chunk<DirectoryPage<number>>(ref);
    }
  }
  return out;
}

describe("bulk retrieve on the simulated release", () => {
  let served: ServedRelease;
  let url: string;
  /** Input protein ids in entry order, with their sequences. */
  let proteins: Array<{ id: string; entry: number; orthid: string; sequence: string }>;

  const post = (body: unknown, headers: Record<string, string> = {}, target = url) =>
    fetch(target, {
      method: "POST",
      redirect: "manual",
      headers: { "Content-Type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  /** POST, expecting 200 JSON with `Allow: POST, OPTIONS`. */
  async function retrieve(body: unknown, headers: Record<string, string> = {}): Promise<{ body: any; reads: number; bytes: number }> {
    const res = await post(body, headers);
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("Allow")).toBe(ALLOW);
    return { body: JSON.parse(text), reads: Number(res.headers.get("X-Blob-Reads")), bytes: Number(res.headers.get("X-Blob-Bytes")) };
  }

  beforeAll(async () => {
    served = await serveRelease("sim");
    url = `${served.base}/protein/bulk_retrieve/`;
    proteins = [];
    for (const row of parseTsv(read("species_info.tsv"))) {
      let i = 0;
      for (const [id, sequence] of parseFasta(read(`proteome/${row.Name}.fa`))) {
        i += 1;
        proteins.push({ id, entry: proteins.length + 1, orthid: `${row.Name}${String(i).padStart(5, "0")}`, sequence });
      }
    }
  });
  afterAll(() => served?.dispose());

  it("returns one {query_id, target} per id in request order: records for known ids, null otherwise", async () => {
    const xrefs = parseTsv(read("annotations/xrefs.tsv"));
    const accession = xrefs.find((x) => x.source === "UniProtKB/SwissProt")!;
    // An id several proteins share (ambiguous), if the inputs have one.
    const owners = new Map<string, Set<string>>();
    for (const x of xrefs) if (x.source !== "Description") owners.set(x.xref, (owners.get(x.xref) ?? new Set()).add(x.protein_id));
    const ambiguous = [...owners].find(([, o]) => o.size > 1)?.[0];
    const [a, b, c] = [proteins[0], proteins[57], proteins[proteins.length - 1]];
    const ids: Array<string | number> = [c.orthid, a.entry, "NO_SUCH_ID", b.id, accession.xref, a.entry, 0, ...(ambiguous ? [ambiguous] : [])];
    const { body } = await retrieve({ ids });
    expect(body.map((r: any) => r.query_id)).toEqual(ids.map(String));
    const expectedIds = [c.id, a.id, null, b.id, accession.protein_id, a.id, null, ...(ambiguous ? [null] : [])];
    expect(body.map((r: any) => r.target?.canonicalid ?? null)).toEqual(expectedIds);
    for (const r of body.filter((x: any) => x.target)) {
      const p = proteins.find((x) => x.id === r.target.canonicalid)!;
      expect(r.target.entry_nr).toBe(p.entry);
      expect(r.target.orthid).toBe(p.orthid);
      expect(r.target.sequence).toBe(p.sequence);
      expect(r.target.sequence_md5).toBe(md5Hex(p.sequence));
      // The same Protein record as the protein endpoint gives.
      expect(r.target).toEqual(await (await fetch(`${served.base}/protein/${p.entry}/`)).json());
    }
    // A bare list is the same request.
    expect((await retrieve(ids)).body).toEqual(body);
  });

  it("returns the plain list of resolved records for version 1.6 and below", async () => {
    const ids = [proteins[3].orthid, "NOPE", proteins[1].entry, proteins[3].id];
    for (const version of ["1.6", "1.0"]) {
      const { body } = await retrieve({ ids }, { Accept: `application/json; version=${version}` });
      expect(body.map((r: any) => r.canonicalid)).toEqual([proteins[3].id, proteins[1].id, proteins[3].id]);
    }
    const { body } = await retrieve({ ids }, { Accept: "application/json; version=1.7" });
    expect(body.map((r: any) => r.query_id)).toEqual(ids.map(String));
    expect(body[1].target).toBeNull();
  });

  it("resolves a thousand ids reading each chunk once", async () => {
    // Every 3rd entry from a point where the earlier tests read nothing, some twice.
    const start = Math.floor(proteins.length / 3);
    const picked = Array.from({ length: 1000 }, (_, i) => proteins[(start + 3 * i) % proteins.length]);
    const ids = picked.map((p, i) => (i % 2 ? p.entry : p.orthid));
    const { body, reads, bytes } = await retrieve({ ids });
    expect(body).toHaveLength(1000);
    expect(body.map((r: any) => r.target.canonicalid)).toEqual(picked.map((p) => p.id));
    // The chunks of the proteins and sequences tables that hold the picked rows (with their pages).
    const release = await openReleaseFolder(resolve(TEST_BUILD, "sim"));
    const { tables } = release.manifest;
    const rows = picked.map((p) => p.entry - 1);
    const chunks = [...(await chunksOfRows(release, tables.proteins, rows)).values(), ...(await chunksOfRows(release, tables.sequences, rows)).values()];
    // Each read at most once (adjacent ones may share a range read): at most one read and its
    // bytes per chunk.
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(chunks.length);
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(chunks.reduce((sum, ref) => sum + ref[2], 0));
    console.log(`bulk: 1,000 ids read ${reads} ranges, ${bytes} bytes; their rows lie in ${chunks.length} chunks`);
  });

  it("serves the path without the trailing slash too, and the named release path", async () => {
    const ids = [proteins[5].entry];
    const withSlash = (await retrieve({ ids })).body;
    const res = await post({ ids }, {}, `${served.base}/protein/bulk_retrieve`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Allow")).toBe(ALLOW);
    expect(await res.json()).toEqual(withSlash);
    const named = await post({ ids }, {}, `${served.origin}/release/${served.manifest.name}/api/protein/bulk_retrieve/`);
    expect(named.status).toBe(200);
    expect(((await named.json()) as any)[0].target.entry_url).toBe(`${served.origin}/release/${served.manifest.name}/api/protein/${proteins[5].entry}/`);
  });

  it("answers OPTIONS with its description, and refuses other methods with 405", async () => {
    const options = await fetch(url, { method: "OPTIONS" });
    expect(options.status).toBe(200);
    expect(options.headers.get("Allow")).toBe(ALLOW);
    expect(((await options.json()) as any).name).toBe("Protein Bulk Retrieve");
    for (const method of ["GET", "PUT", "DELETE"]) {
      const res = await fetch(url, { method });
      expect(res.status, method).toBe(405);
      expect(res.headers.get("Allow")).toBe(ALLOW);
      expect(await res.json()).toEqual({ detail: `Method "${method}" not allowed.` });
    }
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(405);
    expect(head.headers.get("Allow")).toBe(ALLOW);
  });

  it("refuses bad bodies with the statuses and details of the reference, always with Allow: POST, OPTIONS", async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => i + 1);
    const cases: Array<[unknown, Record<string, string>, number, string | RegExp]> = [
      [{ ids: [1] }, { "Content-Type": "text/plain" }, 415, 'Unsupported media type "text/plain" in request.'],
      [{ ids: [1] }, { "Content-Type": "application/x-www-form-urlencoded" }, 415, 'Unsupported media type "application/x-www-form-urlencoded" in request.'],
      ['{"ids": [1,', {}, 400, /^JSON parse error - ./],
      ["", {}, 400, /^JSON parse error - ./],
      [{ accessions: [1] }, {}, 404, "No results found"],
      [{}, {}, 404, "No results found"],
      [{ ids: tooMany }, {}, 400, "POST request exceeded max number of ids. Please limit to 1000"],
      [tooMany, {}, 400, "POST request exceeded max number of ids. Please limit to 1000"],
      [{ ids: "HUMAN00001" }, {}, 400, '"ids" must be a list of protein ids (strings or integers).'],
      [{ ids: [1, [2, 3]] }, {}, 400, "Invalid id at position 1: ids must be strings or integers, not [2,3]."],
      [[{ id: 1 }], {}, 400, 'Invalid id at position 0: ids must be strings or integers, not {"id":1}.'],
      [[null], {}, 400, "Invalid id at position 0: ids must be strings or integers, not null."],
      ["42", {}, 400, 'The body must be a JSON list of protein ids or an object {"ids": [...]}.'],
      [{ ids: [1] }, { Accept: "application/json; version=9.9" }, 406, 'Invalid version in "Accept" header.'],
    ];
    for (const [body, headers, status, detail] of cases) {
      const res = await post(body, headers);
      const label = `${JSON.stringify(body).slice(0, 40)} ${JSON.stringify(headers)}`;
      expect(res.status, label).toBe(status);
      expect(res.headers.get("Allow"), label).toBe(ALLOW);
      expect(res.headers.get("Content-Type")).toBe("application/json");
      const json = (await res.json()) as any;
      if (typeof detail === "string") expect(json, label).toEqual({ detail });
      else expect(json.detail, label).toMatch(detail);
    }
    const noType = await fetch(url, { method: "POST", body: new Blob(['{"ids":[1]}']) });
    expect(noType.status).toBe(415);
    expect(await noType.json()).toEqual({ detail: 'Unsupported media type "" in request.' });
  });

  it("refuses a body over 1 MB with 413, whatever Content-Length says", async () => {
    const big = JSON.stringify({ ids: ["x".repeat(1_100_000)] });
    const res = await post(big);
    expect(res.status).toBe(413);
    expect(res.headers.get("Allow")).toBe(ALLOW);
    expect(((await res.json()) as any).detail).toMatch(/too large/);
    // Streamed without a length (chunked): the reader counts the bytes itself. The worker reads
    // the rest before it answers, so a client that writes its whole body first (as undici does)
    // reads the 413 rather than a reset connection, every time.
    const chunk = new TextEncoder().encode(`"${"y".repeat(64 * 1024)}",`);
    for (let round = 0; round < 8; round++) {
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode("["));
          if (sent > 40) {
            controller.enqueue(new TextEncoder().encode('"z"]'));
            controller.close();
            return;
          }
          controller.enqueue(chunk);
          sent += 1;
        },
      });
      const streamed = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: stream, duplex: "half" } as RequestInit);
      expect(streamed.status, `round ${round}`).toBe(413);
      expect(streamed.headers.get("Allow")).toBe(ALLOW);
      expect(((await streamed.json()) as any).detail).toMatch(/too large/);
    }
    // A client that writes its whole body before reading (the simplest HTTP client, and what
    // undici does under load): 10 MB declared and streamed, to bulk retrieve and to SOAP. Each
    // gets its whole answer, never a reset. (Before the worker read oversized bodies to the end,
    // most of these saw ECONNRESET, some before any byte of the answer.)
    for (const path of ["/api/protein/bulk_retrieve/", "/soap"]) {
      for (const chunked of [false, true]) {
        for (let round = 0; round < 4; round++) {
          const answer = await writeThenRead(served.origin, path, 10_000_000, chunked);
          const label = `${path} ${chunked ? "chunked" : "Content-Length"} round ${round}`;
          expect(answer.error, label).toBeUndefined();
          expect(answer.head, label).toMatch(path === "/soap" ? /^HTTP\/1\.1 500 / : /^HTTP\/1\.1 413 /);
          expect(answer.body, label).toMatch(path === "/soap" ? /faultstring>Malformed request: the body is larger than 1048576 bytes/ : /"detail":"Request body too large/);
        }
      }
    }
  });
});

/**
 * POSTs `size` bytes over a raw connection, writing the whole body (with back-pressure) before
 * it reads anything, then reads the answer to its end (by its Content-Length, or its last
 * chunk: workerd lingers seconds before it closes a `Connection: close` connection).
 */
function writeThenRead(origin: string, path: string, size: number, chunked: boolean): Promise<{ head: string; body: string; error?: string }> {
  const { hostname, port, host } = new URL(origin);
  return new Promise((done) => {
    const socket = net.connect(Number(port), hostname);
    let received = Buffer.alloc(0);
    let finished = false;
    const answer = (error?: string) => {
      if (finished) return;
      finished = true;
      socket.destroy();
      const text = received.toString("utf8");
      const split = text.indexOf("\r\n\r\n");
      done({ head: split < 0 ? text : text.slice(0, split), body: split < 0 ? "" : text.slice(split + 4), error });
    };
    socket.on("data", (d: Buffer) => {
      received = Buffer.concat([received, d]);
      const split = received.indexOf("\r\n\r\n");
      if (split < 0) return;
      const head = received.subarray(0, split).toString("latin1");
      const length = /\r\ncontent-length: *(\d+)/i.exec(head);
      const body = received.subarray(split + 4);
      if (length ? body.length >= Number(length[1]) : body.includes("\r\n0\r\n\r\n")) answer();
    });
    socket.on("error", (e: NodeJS.ErrnoException) => answer(`${e.code} after ${received.length} bytes of answer`));
    socket.on("end", () => answer("the connection closed before the answer was whole"));
    const length = chunked ? "Transfer-Encoding: chunked" : `Content-Length: ${size}`;
    const type = path === "/soap" ? "text/xml; charset=utf-8\r\nSOAPAction: \"\"" : "application/json";
    socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${type}\r\nConnection: close\r\n${length}\r\n\r\n`);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const n = Math.min(piece.length, size - sent);
        sent += n;
        const data = chunked ? Buffer.concat([Buffer.from(`${n.toString(16)}\r\n`), piece.subarray(0, n), Buffer.from("\r\n")]) : piece.subarray(0, n);
        if (!socket.write(data)) return void socket.once("drain", pump);
      }
      if (chunked) socket.write("0\r\n\r\n");
    };
    pump();
  });
}
