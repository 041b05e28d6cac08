/**
 * `npm start` as a newcomer runs it: builds the demo release if needed, loads it into a
 * local R2 state and serves it with `wrangler dev`; then again with `--release DIR`. Offline (as
 * here) its console stays clean: no stack trace, no failed look-up, no update notice; "Serving …
 * at …" comes only once the server answers, and the inspector wrangler dev opens is printed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { connect } from "node:net";
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

/**
 * Starts `npm start -- ARGS` in its own process group and waits until it says it is serving;
 * the server must answer at once then. Gives the version answer and the console so far.
 */
async function start(args: string[], port: number): Promise<{ version: string; output: () => string }> {
  let output = "";
  child = spawn("npm", ["start", "--", ...args, "--port", String(port), "--state", mkdtempSync(join(tmpdir(), "orth-state-"))], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const serving = new RegExp(`^Serving .+ at http://127\\.0\\.0\\.1:${port}/api/$`, "m");
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${output}`);
    if (serving.test(output)) {
      // Said only after the server answered: the first request now is answered, without a retry.
      const res = await fetch(`http://127.0.0.1:${port}/api/version/`);
      expect(res.status, output).toBe(200);
      return { version: JSON.stringify(await res.json()), output: () => output };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`npm start did not say it is serving within 150 s:\n${output}`);
}

/** The console of an offline start: nothing but what a user needs. */
function expectQuietConsole(output: string, port: number, inspectorPort: number): void {
  expect(output).not.toMatch(/ENOTFOUND|getaddrinfo|workers\.cloudflare\.com/);
  expect(output, "a stack trace").not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(output, "an update notice").not.toMatch(/update available|newer version|upgrade/i);
  expect(output).not.toMatch(/Unable to fetch the `Request\.cf` object/);
  // wrangler dev's DevTools inspector: printed, on loopback.
  expect(output).toContain(`DevTools inspector of the worker (wrangler dev's; loopback only) on 127.0.0.1:${inspectorPort}`);
  expect(output.indexOf(`on 127.0.0.1:${inspectorPort}`)).toBeGreaterThan(output.search(new RegExp(`^Serving .+ at http://127\\.0\\.0\\.1:${port}/api/$`, "m")));
}

/** Whether something listens on 127.0.0.1:`port`. */
const listening = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => (socket.destroy(), done(true)));
    socket.once("error", () => done(false));
  });

describe("npm start", () => {
  it("serves the demo release at /api/", async () => {
    const { version, output } = await start([], 18787);
    expect(JSON.parse(version)).toEqual({ orth_version: DEMO.name, api_version: "1.11", field_names: "orth" });
    expect(output()).toContain(`Serving ${DEMO.name} at http://127.0.0.1:18787/api/`);
    expectQuietConsole(output(), 18787, 19787);
    expect(await listening(19787)).toBe(true);
    const genomes = (await (await fetch("http://127.0.0.1:18787/api/genome/")).json()) as Array<{ code: string }>;
    // The demo's genomes, plus bread wheat as its polyploid genome.
    expect(genomes).toHaveLength(DEMO.genomes + (DEMO.polyploid ? 1 : 0));
    expect(genomes.map((g) => g.code)).toContain("WHEAT");
  }, 200_000);

  it("serves any compiled release with --release", async () => {
    const { version, output } = await start(["--release", resolve(TEST_BUILD, "sim"), "--inspector-port", "18798"], 18797);
    expect(JSON.parse(version).orth_version).toBe("Simulated.Test");
    expectQuietConsole(output(), 18797, 18798);
    expect(await listening(18798)).toBe(true);
  }, 200_000);
});
