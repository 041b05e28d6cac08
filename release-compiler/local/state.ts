/**
 * Local R2 states: the folders `wrangler dev --persist-to` serves, one per local server.
 *
 * A state is a bucket with its own current-release pointer, so two servers sharing one would
 * serve whatever the last start or publish made current. Each port therefore gets its own
 * state by default: port 8787 uses `.wrangler/state` (wrangler's own default, so plain
 * `wrangler dev` and `npm run publish` without options meet the default `npm start`), any
 * other port `.wrangler/state-<port>`. `npm run publish` and `npm run rollback` take the same
 * `--port` (or `--state`) to reach the server they mean. A running `npm start` claims its
 * state (`orth-server.json`), and a second one asked to serve the same state is refused.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { Miniflare } from "miniflare";
import { r2Store, type R2BucketLike, type ReleaseStore } from "./store.js";

const ROOT = resolve(import.meta.dirname, "../..");
export const DEFAULT_PORT = 8787;
/** The bucket `wrangler.toml` binds as RELEASES. */
export const LOCAL_BUCKET = "orth-releases";

/** The state folder of the local server on `port`. */
export function stateFor(port: number | string): string {
  return Number(port) === DEFAULT_PORT ? resolve(ROOT, ".wrangler/state") : resolve(ROOT, `.wrangler/state-${Number(port)}`);
}

const CLAIM_FILE = "orth-server.json";

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** The server that claims `state` now, if one is running. */
export function claimOf(state: string): { pid: number; port: string; release: string } | null {
  const file = resolve(state, CLAIM_FILE);
  if (!existsSync(file)) return null;
  try {
    const claim = JSON.parse(readFileSync(file, "utf8")) as { pid: number; port: string; release: string };
    return claim.pid !== process.pid && alive(claim.pid) ? claim : null;
  } catch {
    return null;
  }
}

/**
 * Claims `state` for this process's server, or throws if another running server holds it.
 * Returns what gives the claim up (also done when the process exits).
 */
export function claimState(state: string, port: string, release: string): () => void {
  const held = claimOf(state);
  if (held) {
    throw new Error(
      `${state} is served by another npm start (pid ${held.pid}, port ${held.port}, ${held.release}); ` +
        `two servers on one state would follow one pointer. Leave out --state (each port has its own) or name another folder.`,
    );
  }
  mkdirSync(state, { recursive: true });
  const file = resolve(state, CLAIM_FILE);
  writeFileSync(file, `${JSON.stringify({ pid: process.pid, port, release })}\n`);
  let given = false;
  const giveUp = () => {
    if (given) return;
    given = true;
    try {
      if ((JSON.parse(readFileSync(file, "utf8")) as { pid: number }).pid === process.pid) rmSync(file, { force: true });
    } catch {
      // already gone
    }
  };
  process.on("exit", giveUp);
  return giveUp;
}

/** The local R2 bucket of a state, through Miniflare, as wrangler dev reads it. */
export async function openLocalState(state: string): Promise<{ bucket: R2BucketLike; store: ReleaseStore; dispose(): Promise<void> }> {
  const mf = new Miniflare({
    modules: true,
    script: "export default { fetch() { return new Response(null, { status: 204 }); } }",
    r2Buckets: { RELEASES: LOCAL_BUCKET },
    r2Persist: resolve(state, "v3/r2"),
  });
  const bucket = (await mf.getR2Bucket("RELEASES")) as unknown as R2BucketLike;
  return { bucket, store: r2Store(bucket, `local state ${state}`), dispose: () => mf.dispose() };
}
