/**
 * Publishing to an S3-compatible store (issue 16), against a real S3 server on loopback
 * (s3rver, over real HTTP): `npm run publish -- --bucket --endpoint` and `npm run rollback`
 * run for real; an upload interrupted by the server going away leaves the pointer where it
 * was and a rerun completes, uploading only what is missing; a damaged pack in the bucket is
 * found from the one listing and replaced; wrong credentials are a clear error at once;
 * 5xx answers, cut connections and stalled requests are retried with backoff.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, rmSync, mkdtempSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folderPointer, openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { HISTORY_KEY, currentRelease, publishRelease } from "../../release-compiler/local/publish.js";
import { folderFiles } from "../../release-compiler/local/r2-loader.js";
import { releasePacks } from "../../release-compiler/local/release-packs.js";
import { s3Store } from "../../release-compiler/local/s3-store.js";
import { md5Hex, type ReleaseStore } from "../../release-compiler/local/store.js";
import { CURRENT_RELEASE_KEY, manifestKey, packKey, readPointer, type Manifest } from "../../release-format/format.js";
import { S3_CREDENTIALS, startS3, type S3Server } from "./s3-server.js";
import { TEST_BUILD } from "./serve.js";

const ROOT = resolve(import.meta.dirname, "../..");
const BUCKET = "orth-releases";
const [SIM, DEMO] = [(await openReleaseFolder(resolve(TEST_BUILD, "sim"))).manifest, (await openReleaseFolder(resolve(TEST_BUILD, "demo"))).manifest];
/** Every pack of a compiled test release, found by walking its trees. */
const packsOf = async (release: string) => (await releasePacks(await folderFiles(resolve(TEST_BUILD, release)))).packs;
const [SIM_PACKS, DEMO_PACKS] = [await packsOf("sim"), await packsOf("demo")];

let directory: string;
let s3: S3Server;
let store: ReleaseStore;

/** `npm run SCRIPT -- ARGS` against the server; resolves with its exit code and output. */
function npm(script: string, args: string[], env: Record<string, string> = S3_CREDENTIALS): Promise<{ code: number; stdout: string; stderr: string; seconds: number }> {
  const started = performance.now();
  const { AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, ...rest } = process.env;
  void AWS_ACCESS_KEY_ID;
  void AWS_SECRET_ACCESS_KEY;
  return new Promise((done) =>
    execFile(
      "npm",
      ["run", "--silent", script, "--", ...args, "--bucket", BUCKET, "--endpoint", s3.endpoint],
      { cwd: ROOT, env: { ...rest, ...env } },
      (error, stdout, stderr) => done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr, seconds: (performance.now() - started) / 1000 }),
    ),
  );
}

/** Every pack of a release is in the bucket with the right bytes. */
async function expectWhole(release: string, manifest: Manifest): Promise<void> {
  const listing = await store.list("packs/");
  for (const name of await packsOf(release)) {
    const local = readFileSync(resolve(TEST_BUILD, release, packKey(name)));
    expect(listing.get(packKey(name)), name).toEqual({ size: local.length, md5: md5Hex(local) });
  }
  expect(new TextDecoder().decode((await store.get(manifestKey(manifest.name)))!)).toBe(readFileSync(resolve(TEST_BUILD, release, "manifest.json"), "utf8"));
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "orth-s3-"));
  s3 = await startS3(directory, BUCKET);
  store = s3Store({ endpoint: s3.endpoint, bucket: BUCKET, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" });
});
afterAll(async () => {
  await s3?.stop();
  rmSync(directory, { recursive: true, force: true });
});

describe("npm run publish to an S3-compatible store", () => {
  it("publishes over the S3 API, verified, and a rerun uploads nothing", async () => {
    const first = await npm("publish", ["--release", resolve(TEST_BUILD, "sim")]);
    expect(first.code, first.stderr).toBe(0);
    const packs = SIM_PACKS.length;
    expect(first.stdout).toContain(`${SIM.name}: ${packs} packs, 0 already in bucket ${BUCKET} at ${s3.endpoint}, ${packs} to upload`);
    expect(first.stdout).toMatch(new RegExp(`${SIM.name}: ${packs} of ${packs} packs uploaded \\(\\d+\\.\\d MB\\), all verified`));
    expect(first.stdout).toContain(`${SIM.name} is current\n`);
    expect(await currentRelease(store)).toBe(SIM.name);
    await expectWhole("sim", SIM);

    const again = await npm("publish", ["--release", resolve(TEST_BUILD, "sim")]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`${SIM.name}: 0 of ${packs} packs uploaded`);
  });

  it("an upload cut off by the server going away leaves the pointer; a rerun completes it", async () => {
    const total = DEMO_PACKS.length;
    // The server stops (every connection cut) once half the packs of the demo have landed.
    const landed = Math.floor(total / 2);
    expect(landed).toBeGreaterThan(0);
    let puts = 0;
    s3.onPut((key) => {
      if (key.startsWith("packs/") && ++puts === landed) void s3.stop();
    });
    const cut = await npm("publish", ["--release", resolve(TEST_BUILD, "demo")]);
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/publish failed: bucket orth-releases at http:\/\/127\.0\.0\.1:\d+ did not answer .*\(\d attempts\); the pointer was not switched, and a rerun resumes/);

    // Back up on the same port with what it held: still the old release, and no demo manifest.
    s3 = await startS3(directory, BUCKET, s3.port);
    expect(await currentRelease(store)).toBe(SIM.name);
    expect(await store.get(manifestKey(DEMO.name))).toBeNull();

    const rerun = await npm("publish", ["--release", resolve(TEST_BUILD, "demo")]);
    expect(rerun.code, rerun.stderr).toBe(0);
    const uploaded = Number(rerun.stdout.match(new RegExp(`${DEMO.name}: (\\d+) of ${total} packs uploaded`))![1]);
    expect(uploaded).toBeGreaterThan(0);
    // Only what the interrupted run had not finished (the packs the two releases share were there already).
    expect(uploaded).toBeLessThanOrEqual(total - landed + 8);
    expect(rerun.stdout).toContain(`${DEMO.name} is current (was ${SIM.name})`);
    await expectWhole("demo", DEMO);
  }, 60_000);

  it("finds a damaged pack in the bucket from the listing and replaces it", async () => {
    // The pack of the first chunk of the demo's proteins, a byte of that chunk changed.
    const [victim, offset, length] = (await (await openReleaseFolder(resolve(TEST_BUILD, "demo"))).locate(DEMO.tables.proteins.tree, 0))!.ref;
    const good = readFileSync(resolve(TEST_BUILD, "demo", packKey(victim)));
    const bad = new Uint8Array(good);
    bad[offset + (length >> 1)] ^= 0x5a; // same size, other bytes
    await store.put(packKey(victim), bad, md5Hex(bad));

    const repaired = await npm("publish", ["--release", resolve(TEST_BUILD, "demo")]);
    expect(repaired.code, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain("(1 there damaged, to be replaced), 1 to upload");
    expect(repaired.stdout).toContain(`${DEMO.name}: 1 of ${DEMO_PACKS.length} packs uploaded`);
    const back = (await store.get(packKey(victim)))!;
    expect(createHash("sha256").update(back).digest("hex").startsWith(victim)).toBe(true);
  });

  it("wrong or missing credentials are a clear error, at once, and change nothing", async () => {
    const wrong = await npm("publish", ["--release", resolve(TEST_BUILD, "sim")], { AWS_ACCESS_KEY_ID: "NOT-A-KEY", AWS_SECRET_ACCESS_KEY: "S3RVER" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain(
      `publish failed: bucket ${BUCKET} at ${s3.endpoint} refused the credentials (InvalidAccessKeyId: The AWS Access Key Id you provided does not exist in our records.); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
    );
    expect(wrong.stderr).not.toContain("attempts");
    expect(wrong.seconds).toBeLessThan(20);

    const missing = await npm("publish", ["--release", resolve(TEST_BUILD, "sim")], {});
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("publish failed: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");

    const usage = await npm("publish", ["--release", resolve(TEST_BUILD, "sim"), "--port", "8788"]);
    expect(usage.code).toBe(2);
    expect(await currentRelease(store)).toBe(DEMO.name);
  });

  it("npm run rollback works on the remote store", async () => {
    const back = await npm("rollback", []);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toContain(`rolled back: ${SIM.name} is current (was ${DEMO.name})`);
    // The pointer holds the release's manifest file as published and its header (release-format/format.ts).
    const pointer = (await store.get(CURRENT_RELEASE_KEY))!;
    expect(Buffer.from(pointer).equals(Buffer.from(folderPointer(resolve(TEST_BUILD, "sim"))))).toBe(true);
    expect(readPointer(pointer)?.manifest).toEqual(JSON.parse(new TextDecoder().decode((await store.get(manifestKey(SIM.name)))!)));
    const forward = await npm("rollback", ["--to", DEMO.name]);
    expect(forward.stdout).toContain(`rolled back: ${DEMO.name} is current (was ${SIM.name})`);
    expect(JSON.parse(new TextDecoder().decode((await store.get(HISTORY_KEY))!))).toEqual({ releases: [SIM.name, DEMO.name] });
  });
});

describe("retries against a flaky store", () => {
  let backend: S3Server;
  let backendDir: string;
  let proxy: Server;
  let proxyEndpoint: string;
  let requests = 0;
  const faults = { status503: 0, reset: 0, stalled: 0 };

  beforeAll(async () => {
    backendDir = mkdtempSync(join(tmpdir(), "orth-s3-flaky-"));
    backend = await startS3(backendDir, BUCKET);
    // In front of an empty S3 server: every 5th request answered 503, every 7th cut before it
    // is answered, every 11th left hanging past the client's time limit; the rest pass through.
    // (Often enough that a release of a few dozen packs, a few dozen requests, meets each fault
    // several times.)
    proxy = createServer((req, res) => {
      const n = ++requests;
      const body: Buffer[] = [];
      req.on("data", (c: Buffer) => body.push(c));
      req.on("end", () => {
        if (n % 5 === 0) {
          faults.status503 += 1;
          res.writeHead(503, { "Content-Type": "application/xml" }).end("<Error><Code>ServiceUnavailable</Code><Message>Please reduce your request rate.</Message></Error>");
          return;
        }
        if (n % 7 === 0) {
          faults.reset += 1;
          req.socket.destroy();
          return;
        }
        if (n % 11 === 0) {
          faults.stalled += 1;
          setTimeout(() => res.destroy(), 3_000);
          return;
        }
        const upstream = httpRequest(`${backend.endpoint}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(backend.endpoint).host } }, (answer) => {
          res.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(res);
        });
        upstream.on("error", () => res.destroy());
        upstream.end(Buffer.concat(body));
      });
    });
    await new Promise<void>((r) => proxy.listen(0, "127.0.0.1", r));
    proxyEndpoint = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise((r) => proxy?.close(r));
    await backend?.stop();
    rmSync(backendDir, { recursive: true, force: true });
  });

  it("retries 5xx answers, cut connections and timeouts with backoff, and completes verified", async () => {
    const flaky = s3Store({ endpoint: proxyEndpoint, bucket: BUCKET, accessKeyId: "S3RVER", secretAccessKey: "S3RVER", timeoutMs: 1_000 });
    let retried = 0;
    const result = await publishRelease(flaky, await folderFiles(resolve(TEST_BUILD, "sim")), {
      retry: { baseDelayMs: 20, attempts: 10, onRetry: () => (retried += 1) },
    });
    expect(result).toMatchObject({ name: SIM.name, previous: null, packs: SIM_PACKS.length, uploaded: SIM_PACKS.length });
    expect(faults.status503).toBeGreaterThan(5);
    expect(faults.reset).toBeGreaterThan(2);
    expect(faults.stalled).toBeGreaterThan(2);
    // Each fault cost one more attempt, and nothing else did.
    expect(retried).toBe(faults.status503 + faults.reset + faults.stalled);
    const direct = s3Store({ endpoint: backend.endpoint, bucket: BUCKET, accessKeyId: "S3RVER", secretAccessKey: "S3RVER" });
    expect(await currentRelease(direct)).toBe(SIM.name);
    const listing = await direct.list("packs/");
    for (const name of SIM_PACKS) {
      const local = readFileSync(resolve(TEST_BUILD, "sim", packKey(name)));
      expect(listing.get(packKey(name)), name).toEqual({ size: local.length, md5: md5Hex(local) });
    }
  }, 60_000);
});
