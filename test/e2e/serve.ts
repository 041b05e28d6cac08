/**
 * Serves a compiled test release over real HTTP on loopback: the deployable worker bundle
 * (built by the global setup) inside workerd through plain Miniflare, the release's packs in
 * its R2 bucket.
 */
import { resolve } from "node:path";
import type { Miniflare } from "miniflare";
import { TestMiniflare } from "./miniflare.js";
import { afterAll, beforeAll } from "vitest";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { folderFiles, loadRelease } from "../../release-compiler/local/r2-loader.js";
import type { Manifest } from "../../release-format/format.js";
import { jsonClient } from "../json-client.js";

import { TEST_BUILD } from "../build-dir.js";

export { TEST_BUILD };

export interface ServedRelease {
  /** `http://127.0.0.1:PORT/api` */
  base: string;
  origin: string;
  manifest: Manifest;
  mf: Miniflare;
  dispose(): Promise<void>;
}

/**
 * Serves release `name`. Without the edge cache (`edgeCache`) unless a test asks for it:
 * Miniflare's Cache API stores every answer on disk through a service of its own, which more
 * than doubles the cost of each request (measured: 5.3 against 2.3 ms a protein or orthologs
 * answer, six in flight), and only the tests of caching need it. Without it the worker runs
 * the same code: every lookup misses, and storing is a no-op.
 */
export async function serveRelease(name: string, bindings: Record<string, string> = {}, { edgeCache = false } = {}): Promise<ServedRelease> {
  const options = {
    modules: true,
    scriptPath: resolve(TEST_BUILD, "worker/index.js"),
    compatibilityDate: "2026-04-26",
    r2Buckets: ["RELEASES"],
    cache: edgeCache,
    bindings,
  };
  const mf = new TestMiniflare(options);
  const dir = resolve(TEST_BUILD, name);
  await loadRelease((await mf.getR2Bucket("RELEASES")) as never, await folderFiles(dir), { makeCurrent: true });
  const { manifest } = await openReleaseFolder(dir);
  const origin = (await mf.ready).origin;
  stalled.set(origin, {
    // A new workerd on the same port, over the same storage: the bucket keeps the release.
    async restart() {
      await mf.setOptions({ ...options, port: Number(new URL(origin).port) });
      await mf.ready;
    },
  });
  return {
    base: `${origin}/api`,
    origin,
    manifest,
    mf,
    dispose: () => {
      stalled.delete(origin);
      return mf.dispose();
    },
  };
}

/**
 * Servers that may be restarted once when a request to them gets no answer, by origin. Seen in
 * CI: workerd's thread spinning in V8's message loop (PumpMessageLoop, after a request's JS has
 * run), never answering again; its cause is not in the worker's code as far as we can tell.
 * Requests sent in parallel all stall together (seen in CI: 16 at a time): each of those sent
 * before the restart began waits for that one restart and is asked again, whether it stalls
 * too or its connection is cut by the restart (so does one sent while the restart is under
 * way). The stall is logged; a request to the new server that stalls too fails the test, and so
 * does a connection failing with no restart.
 */
interface Restartable {
  restart(): Promise<void>;
  /** The one restart, once begun: when it began, and whether the new server is up. */
  restarted?: { at: number; done: Promise<void>; finished: boolean };
}

const stalled = new Map<string, Restartable>();

/** Each request asked again after a restart, and why (for the stalled-server test). */
export const askedAgain: Array<{ url: string; why: "stall" | "reset" }> = [];

export async function restartStalled(url: string, sentAt: number, why: "stall" | "reset" = "stall"): Promise<boolean> {
  const origin = new URL(url).origin;
  const server = stalled.get(origin);
  if (!server) return false;
  // A connection cut is the restart's doing only if it came while one was under way or after.
  if (why === "reset" && !server.restarted) return false;
  if (!server.restarted) {
    console.warn(`${url}: no answer within the time allowed; workerd at ${origin} stalled, restarting it once and asking again`);
    const restarted = { at: Date.now(), done: server.restart(), finished: false };
    restarted.done.finally(() => (restarted.finished = true)).catch(() => {});
    server.restarted = restarted;
  } else if (sentAt >= server.restarted.at && server.restarted.finished) {
    // Sent to the new server, which failed it too.
    return false;
  }
  await server.restarted.done;
  askedAgain.push({ url, why });
  return true;
}

/** JSON requests over real HTTP (see test/json-client.ts). */
export const { getJson, getAllPages } = jsonClient(fetch, { onStall: restartStalled });

/**
 * Serves primates-chr12 and bacteria3 for the enclosing describe block (before its tests,
 * disposed after them), handing both to `use`.
 */
export function serveRealReleases(use: (primates: ServedRelease, bacteria: ServedRelease) => void): void {
  let served: ServedRelease[] = [];
  beforeAll(async () => {
    served = await Promise.all([serveRelease("primates"), serveRelease("bacteria3")]);
    use(served[0], served[1]);
  });
  afterAll(() => Promise.all(served.map((s) => s.dispose())));
}
