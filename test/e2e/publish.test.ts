/**
 * Publishing and rolling back against Miniflare's R2, with the deployable bundle serving
 * throughout: requests during a switch see the old release or the new one whole, never a
 * mix; older releases stay servable by name; a release that does not verify is never switched
 * to. The CLIs (`npm run publish`, `npm run rollback`) are run for real on a persisted state.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folderPointer, openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { folderFiles } from "../../release-compiler/local/r2-loader.js";
import { HISTORY_KEY, PublishError, currentRelease, publishRelease, rollbackRelease } from "../../release-compiler/local/publish.js";
import { r2Store, type R2BucketLike, type ReleaseStore } from "../../release-compiler/local/store.js";
import { CURRENT_RELEASE_KEY, manifestKey, packKey, type ManifestFile } from "../../release-format/format.js";
import { openedManifest } from "../release-folder.js";
import { TEST_BUILD } from "./serve.js";

const ROOT = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
const [OLD, NEW] = [await openedManifest(resolve(TEST_BUILD, "sim")), await openedManifest(resolve(TEST_BUILD, "demo"))];

let mf: Miniflare;
type Bucket = Awaited<ReturnType<Miniflare["getR2Bucket"]>>;
let bucket: Bucket;
/** The same bucket as publishing sees it. */
let store: ReleaseStore;
let origin: string;
beforeAll(async () => {
  mf = new Miniflare({
    modules: true,
    scriptPath: resolve(TEST_BUILD, "worker/index.js"),
    compatibilityDate: "2026-04-26",
    r2Buckets: ["RELEASES"],
    // Every request reads the pointer, so a switch shows at once (deployed, isolates re-read it every 30 s).
    bindings: { RELEASE_POINTER_TTL_SECONDS: "0" },
  });
  bucket = await mf.getR2Bucket("RELEASES");
  store = r2Store(bucket as unknown as R2BucketLike, "Miniflare's R2");
  origin = (await mf.ready).origin.toString().replace(/\/$/, "");
});
afterAll(() => mf?.dispose());

/** Requests whose answers differ between the two releases: records, pages, HOGs, pairs, SOAP. */
function probes(): Array<{ path: string; init?: RequestInit }> {
  const soap = (op: string, parts: string) => ({
    path: "/soap",
    init: {
      method: "POST",
      headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: `"${op}"` },
      body: `<?xml version="1.0"?><soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns="urn:ORTH" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soapenv:Body><ns:${op}>${parts}</ns:${op}></soapenv:Body></soapenv:Envelope>`,
    },
  });
  return [
    { path: "/api/version/" },
    { path: "/api/genome/" },
    { path: "/api/protein/5/" },
    { path: "/api/protein/40/orthologs/" },
    { path: `/api/genome/${OLD.genomes[0].code}/proteins/?per_page=50&page=2` },
    { path: "/api/hog/?per_page=20" },
    { path: `/api/group/3/` },
    { path: "/api/taxonomy/?type=newick" },
    soap("GetEntry", '<EntryID xsi:type="xsd:string">7</EntryID>'),
    soap("ListOrthologs", '<EntryID xsi:type="xsd:string">40</EntryID>'),
  ];
}

async function answerOf(probe: { path: string; init?: RequestInit }) {
  const res = await fetch(`${origin}${probe.path}`, probe.init);
  return { status: res.status, release: res.headers.get("X-Release"), body: await res.text() };
}

async function referenceAnswers(): Promise<Map<string, string>> {
  const answers = new Map<string, string>();
  for (const probe of probes()) {
    const a = await answerOf(probe);
    answers.set(`${probe.path} ${probe.init?.body ?? ""}`, a.body);
  }
  return answers;
}

describe("publish and rollback", () => {
  it("switches whole releases under concurrent requests, and keeps older ones servable by name", async () => {
    const first = await publishRelease(store, await folderFiles(resolve(TEST_BUILD, "sim")));
    expect(first).toMatchObject({ name: OLD.name, previous: null, uploaded: first.packs });
    const oldAnswers = await referenceAnswers();
    const second = await publishRelease(store, await folderFiles(resolve(TEST_BUILD, "demo")));
    expect(second).toMatchObject({ name: NEW.name, previous: OLD.name });
    const newAnswers = await referenceAnswers();
    for (const [key, body] of oldAnswers) expect(newAnswers.get(key), `${key} differs between the releases`).not.toBe(body);

    // The old release by name while the new one is current.
    const byName = await fetch(`${origin}/release/${OLD.name}/api/version/`);
    expect(((await byName.json()) as { oma_version?: string; release?: string })).toMatchObject(JSON.parse(oldAnswers.get("/api/version/ ")!));

    // Clients hammer the probes while the pointer flips back and forth.
    let switching = true;
    const seen = { [OLD.name]: 0, [NEW.name]: 0 };
    const client = async () => {
      while (switching) {
        for (const probe of probes()) {
          const a = await answerOf(probe);
          const key = `${probe.path} ${probe.init?.body ?? ""}`;
          const expected = a.release === OLD.name ? oldAnswers.get(key) : a.release === NEW.name ? newAnswers.get(key) : undefined;
          expect(a.status, key).toBe(200);
          expect(a.body, `${key} answered by ${a.release}`).toBe(expected);
          seen[a.release!] += 1;
        }
      }
    };
    const clients = Array.from({ length: 8 }, client);
    const switches: string[] = [];
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 150));
      if (i % 2 === 0) switches.push((await rollbackRelease(store)).to);
      else switches.push((await publishRelease(store, await folderFiles(resolve(TEST_BUILD, "demo")))).name);
    }
    await new Promise((r) => setTimeout(r, 150));
    switching = false;
    await Promise.all(clients);
    expect(switches).toEqual([OLD.name, NEW.name, OLD.name, NEW.name, OLD.name, NEW.name]);
    // Both releases answered while the pointer moved.
    expect(seen[OLD.name]).toBeGreaterThan(0);
    expect(seen[NEW.name]).toBeGreaterThan(0);
    // Re-publishing an already uploaded release uploads nothing.
    expect((await publishRelease(store, await folderFiles(resolve(TEST_BUILD, "demo")))).uploaded).toBe(0);
  });

  it("walks back along the history, and refuses to go past its start", async () => {
    expect(await currentRelease(store)).toBe(NEW.name);
    expect(await rollbackRelease(store)).toEqual({ from: NEW.name, to: OLD.name });
    await expect(rollbackRelease(store)).rejects.toThrow(/no release was current before/);
    expect(await rollbackRelease(store, NEW.name)).toEqual({ from: OLD.name, to: NEW.name });
    await expect(rollbackRelease(store, "Never.Published")).rejects.toThrow(/not published/);
    expect(JSON.parse(await (await bucket.get(HISTORY_KEY))!.text())).toEqual({ releases: [OLD.name, NEW.name] });
  });

  it("never switches to a release that does not verify, and repairs a damaged pack it finds", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-publish-"));
    try {
      // A local pack whose bytes no longer match its name (a byte of a chunk of the proteins
      // table flipped): refused before anything is switched.
      const copy = join(dir, "sim-copy");
      cpSync(resolve(TEST_BUILD, "sim"), copy, { recursive: true });
      const manifest = JSON.parse(readFileSync(join(copy, "manifest.json"), "utf8")) as ManifestFile;
      const renamed = { ...manifest, name: "Tampered.Copy" };
      writeFileSync(join(copy, "manifest.json"), JSON.stringify(renamed));
      const [victim, offset, length] = (await (await openReleaseFolder(copy)).locate(OLD.tables.proteins.tree, 0))!.ref;
      await mf.getR2Bucket("RELEASES").then((b) => b.delete(packKey(victim)));
      const file = join(copy, packKey(victim));
      const bytes = readFileSync(file);
      bytes[offset + length - 1] ^= 0xff;
      writeFileSync(file, bytes);
      await expect(publishRelease(store, await folderFiles(copy))).rejects.toThrow(new RegExp(`${victim}.*does not match its name`));
      expect(await currentRelease(store)).toBe(NEW.name);

      // A pack in the bucket cut short (a damaged earlier upload): replaced, then verified.
      const good = readFileSync(resolve(TEST_BUILD, "sim", packKey(victim)));
      await bucket.put(packKey(victim), new Uint8Array(good.subarray(0, 10)));
      const republished = await publishRelease(store, await folderFiles(resolve(TEST_BUILD, "sim")));
      expect(republished.uploaded).toBe(1);
      expect(republished.replaced).toBe(1);
      expect((await bucket.head(packKey(victim)))!.size).toBe(good.length);

      // A release name stands for one manifest forever.
      const clash = join(dir, "clash");
      cpSync(resolve(TEST_BUILD, "sim"), clash, { recursive: true });
      writeFileSync(join(clash, "manifest.json"), JSON.stringify({ ...manifest, date: "1999-01-01" }));
      await expect(publishRelease(store, await folderFiles(clash))).rejects.toThrow(PublishError);
      expect(await currentRelease(store)).toBe(OLD.name);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("npm run publish / npm run rollback", () => {
  it("publish, publish, rollback on a persisted state that wrangler dev would serve", async () => {
    const state = mkdtempSync(join(tmpdir(), "orth-state-"));
    const npm = (args: string[]) => run("npm", ["run", "--silent", ...args], { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false" } });
    try {
      const published = await npm(["publish", "--", "--release", resolve(TEST_BUILD, "sim"), "--state", state]);
      expect(published.stdout).toMatch(new RegExp(`${OLD.name}: \\d+ of \\d+ packs uploaded .*all verified`));
      expect((await npm(["publish", "--", "--release", resolve(TEST_BUILD, "demo"), "--state", state])).stdout).toContain(`${NEW.name} is current (was ${OLD.name})`);
      expect((await npm(["rollback", "--", "--state", state])).stdout).toContain(`rolled back: ${OLD.name} is current (was ${NEW.name})`);
      const failed = await npm(["rollback", "--", "--state", state]).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toContain(`rollback failed: no release was current before ${OLD.name}`);
      const usage = await npm(["publish"]).catch((error: { code: number }) => error);
      expect((usage as { code: number }).code).toBe(2);

      // What the state now holds, read as wrangler dev reads it.
      const reader = new Miniflare({ modules: true, script: "export default {}", r2Buckets: { RELEASES: "orth-releases" }, r2Persist: join(state, "v3/r2") });
      try {
        const r2 = await reader.getR2Bucket("RELEASES");
        // The pointer holds the current release's manifest file and its header (release-format/format.ts).
        expect(Buffer.from(await (await r2.get(CURRENT_RELEASE_KEY))!.arrayBuffer()).equals(Buffer.from(folderPointer(resolve(TEST_BUILD, "sim"))))).toBe(true);
        expect(await (await r2.get(manifestKey(OLD.name)))!.text()).toBe(readFileSync(resolve(TEST_BUILD, "sim", "manifest.json"), "utf8"));
      } finally {
        await reader.dispose();
      }
    } finally {
      rmSync(state, { recursive: true, force: true });
    }
  });
});
