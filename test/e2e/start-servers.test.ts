/**
 * Two `npm start` servers at once, as a user runs them (issue 13, item 2): the demo on one
 * port, another release on another. Each port has its own local state, so each serves the
 * release it was started with, for longer than the pointer TTL (set to 1 s here, so a shared
 * pointer would show within the test); a second server asked to share a served state is
 * refused; and `npm run publish` / `npm run rollback` on a port agree with what `npm start`
 * made current there.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readManifestFile } from "../../release-compiler/local/folder-storage.js";
import { stateFor } from "../../release-compiler/local/state.js";
import { TEST_BUILD } from "./serve.js";

const ROOT = resolve(import.meta.dirname, "../..");
const run = promisify(execFile);
const TTL_SECONDS = 1;
const env = { ...process.env, RELEASE_POINTER_TTL_SECONDS: String(TTL_SECONDS), WRANGLER_SEND_METRICS: "false" };
const nameOf = (release: string) => readManifestFile(resolve(TEST_BUILD, release)).name;
const DEMO = nameOf("demo");
const SIM = nameOf("sim");
// Ports of this test only; their default states are .wrangler/state-<port>, removed before and after.
const [PORT_A, PORT_B, PORT_C] = [18807, 18817, 18827];

const children: ChildProcess[] = [];
const outputs = new Map<number, string>();

/** `npm start -- ARGS --port PORT` in its own process group. */
function start(args: string[], port: number): ChildProcess {
  const child = spawn("npm", ["start", "--", ...args, "--port", String(port)], { cwd: ROOT, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  outputs.set(port, "");
  child.stdout!.on("data", (d) => outputs.set(port, outputs.get(port) + String(d)));
  child.stderr!.on("data", (d) => outputs.set(port, outputs.get(port) + String(d)));
  children.push(child);
  return child;
}

/** The release that answers `/api/version/` on a port (and its X-Release header, which must agree). */
async function servedBy(port: number): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/version/`);
  const { orth_version } = (await res.json()) as { orth_version: string };
  expect(res.headers.get("X-Release")).toBe(orth_version);
  return orth_version;
}

async function untilServing(child: ChildProcess, port: number): Promise<string> {
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${outputs.get(port)}`);
    try {
      return await servedBy(port);
    } catch {
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  throw new Error(`npm start did not answer on ${port} within 150 s:\n${outputs.get(port)}`);
}

/** Both servers, polled for `seconds`: each must answer its own release every time. */
async function holdFor(seconds: number, expected: Record<number, string>): Promise<number> {
  let polls = 0;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    for (const [port, name] of Object.entries(expected)) expect(await servedBy(Number(port)), `port ${port}`).toBe(name);
    polls += 1;
    await new Promise((r) => setTimeout(r, 200));
  }
  return polls;
}

const removeStates = () => [PORT_A, PORT_B, PORT_C].forEach((p) => rmSync(stateFor(p), { recursive: true, force: true }));

beforeAll(async () => {
  removeStates();
  const a = start(["--release", resolve(TEST_BUILD, "demo")], PORT_A);
  expect(await untilServing(a, PORT_A)).toBe(DEMO);
  // The second server, started while the first is serving: it used to switch the shared pointer.
  const b = start(["--release", resolve(TEST_BUILD, "sim")], PORT_B);
  expect(await untilServing(b, PORT_B)).toBe(SIM);
}, 300_000);

afterAll(async () => {
  for (const child of children) if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once("exit", r)) : undefined)));
  removeStates();
});

describe("two npm start servers", () => {
  it("each serves the release it was started with, for longer than the pointer TTL", async () => {
    expect(stateFor(PORT_A)).not.toBe(stateFor(PORT_B));
    const polls = await holdFor(5 * TTL_SECONDS, { [PORT_A]: DEMO, [PORT_B]: SIM });
    expect(polls).toBeGreaterThan(5);
  }, 60_000);

  it("refuses a third server on a state another one serves, leaving that one alone", async () => {
    const c = start(["--release", resolve(TEST_BUILD, "sim"), "--state", stateFor(PORT_A)], PORT_C);
    const code = await new Promise<number | null>((r) => c.once("exit", r));
    expect(code).toBe(1);
    expect(outputs.get(PORT_C)).toMatch(/is served by another npm start \(pid \d+, port 18807/);
    await holdFor(2 * TTL_SECONDS, { [PORT_A]: DEMO, [PORT_B]: SIM });
  }, 60_000);

  it("npm run publish and rollback on a port agree with what npm start made current there", async () => {
    const npm = (args: string[]) => run("npm", ["run", "--silent", ...args], { cwd: ROOT, env });
    const published = await npm(["publish", "--", "--release", resolve(TEST_BUILD, "sim"), "--port", String(PORT_A)]);
    expect(published.stdout).toContain(`${SIM} is current (was ${DEMO})`);
    await new Promise((r) => setTimeout(r, (TTL_SECONDS + 1) * 1000));
    await holdFor(1, { [PORT_A]: SIM, [PORT_B]: SIM });

    // Back to the release npm start served, not "no release was current before".
    const rolled = await npm(["rollback", "--", "--port", String(PORT_A)]);
    expect(rolled.stdout).toContain(`rolled back: ${DEMO} is current (was ${SIM})`);
    await new Promise((r) => setTimeout(r, (TTL_SECONDS + 1) * 1000));
    await holdFor(1, { [PORT_A]: DEMO, [PORT_B]: SIM });
  }, 60_000);
});
