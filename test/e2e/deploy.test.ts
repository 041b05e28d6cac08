/**
 * `npm run deploy` (issue 16): the production section of wrangler.toml bundles, binds the
 * bucket and the pointer TTL, and the bundle wrangler would upload fits Workers' size limits.
 *
 * Limits checked (developers.cloudflare.com/workers/platform/limits, read 2026-11-24): the
 * long-published Worker size of 3 MB on Workers Free and 10 MB on Workers Paid, after
 * compression (gzip), the Free one being the limit this project keeps to; and the 64 MiB
 * uncompressed size that replaced them on all plans in 2026 (cloudflare-docs PR #31002).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { TestMiniflare } from "./miniflare.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const FREE_COMPRESSED = 3 * 1024 * 1024;
const PAID_COMPRESSED = 10 * 1024 * 1024;
const UNCOMPRESSED = 64 * 1024 * 1024;

let outdir: string;
let output: string;
beforeAll(async () => {
  outdir = mkdtempSync(join(tmpdir(), "orth-deploy-"));
  const { stdout, stderr } = await promisify(execFile)(resolve(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--env", "production", "--outdir", outdir], {
    cwd: ROOT,
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
  });
  output = stdout + stderr;
}, 120_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe("npm run deploy", () => {
  it("is wrangler deploy of the production environment", () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.deploy).toBe("wrangler deploy --env production");
  });

  it("binds the release bucket and the pointer TTL", () => {
    expect(output).toMatch(/env\.RELEASES \(orth-releases\)\s+R2 Bucket/);
    expect(output).toMatch(/env\.RELEASE_POINTER_TTL_SECONDS \("30"\)\s+Environment Variable/);
  });

  it("bundles within Workers' size limits", () => {
    const modules = readdirSync(outdir).filter((f) => /\.(m?js|wasm)$/.test(f));
    expect(modules).toContain("index.js");
    const bytes = modules.map((f) => readFileSync(join(outdir, f)));
    const raw = bytes.reduce((sum, b) => sum + b.length, 0);
    const gzipped = bytes.reduce((sum, b) => sum + gzipSync(b, { level: 9 }).length, 0);
    // What wrangler itself reports for the upload agrees.
    const reported = output.match(/Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/);
    expect(reported, output).not.toBeNull();
    expect(Math.abs(Number(reported![1]) * 1024 - raw)).toBeLessThan(0.02 * raw);
    expect(Number(reported![2]) * 1024).toBeLessThan(FREE_COMPRESSED);
    expect(gzipped).toBeLessThan(FREE_COMPRESSED);
    expect(gzipped).toBeLessThan(PAID_COMPRESSED);
    expect(raw).toBeLessThan(UNCOMPRESSED);
    console.log(`production bundle: ${(raw / 1024).toFixed(0)} KiB, ${(gzipped / 1024).toFixed(0)} KiB gzipped (Free limit 3 MB compressed)`);
  });

  it("starts: the production bundle answers, with no release published a 503", async () => {
    const mf = new TestMiniflare({
      modules: true,
      scriptPath: join(outdir, "index.js"),
      modulesRoot: outdir,
      compatibilityDate: "2026-04-26",
      r2Buckets: ["RELEASES"],
      bindings: { RELEASE_POINTER_TTL_SECONDS: "30" },
    });
    try {
      const res = await mf.dispatchFetch("http://localhost/api/version/");
      expect(res.status).toBe(503);
      expect(((await res.json()) as { detail: string }).detail).toBeTruthy();
    } finally {
      await mf.dispose();
    }
  });
});
