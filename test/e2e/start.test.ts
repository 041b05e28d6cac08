/**
 * `npm start` as a newcomer runs it: builds the demo release if needed, loads it into a
 * local R2 state and serves it with `wrangler dev`; then again with `--release DIR`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DEMO } from "../../release-compiler/local/start.js";
import { TEST_BUILD } from "./serve.js";

const ROOT = resolve(import.meta.dirname, "../..");
let child: ChildProcess | undefined;

afterEach(() => {
  if (child?.pid) process.kill(-child.pid, "SIGTERM");
  child = undefined;
});

/** Starts `npm start -- ARGS` in its own process group and waits until it answers. */
async function start(args: string[], port: number): Promise<string> {
  let output = "";
  child = spawn("npm", ["start", "--", ...args, "--port", String(port), "--state", mkdtempSync(join(tmpdir(), "orth-state-"))], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/version/`);
      if (res.status === 200) return JSON.stringify(await res.json());
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`npm start did not answer within 150 s:\n${output}`);
}

describe("npm start", () => {
  it("serves the demo release at /api/", async () => {
    const version = await start([], 18787);
    expect(JSON.parse(version)).toEqual({ orth_version: DEMO.name, api_version: "1.11" });
    const genomes = (await (await fetch("http://127.0.0.1:18787/api/genome/")).json()) as Array<{ code: string }>;
    // The demo's genomes, plus bread wheat as its polyploid genome.
    expect(genomes).toHaveLength(DEMO.genomes + (DEMO.polyploid ? 1 : 0));
    expect(genomes.map((g) => g.code)).toContain("WHEAT");
  }, 200_000);

  it("serves any compiled release with --release", async () => {
    const version = await start(["--release", resolve(TEST_BUILD, "sim")], 18797);
    expect(JSON.parse(version).orth_version).toBe("Simulated.Test");
  }, 200_000);
});
