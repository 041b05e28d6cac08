/**
 * What `npm start` asks of `wrangler dev` to stay quiet and offline, and how it tells when the
 * server really answers (release-compiler/local/start.ts).
 *
 * Offline, wrangler dev used to print two stack traces (`getaddrinfo ENOTFOUND
 * workers.cloudflare.com`: each of its two Miniflare instances fetching the `Request.cf` object
 * from https://workers.cloudflare.com/cf.json) and, online, an update notice in its banner (a
 * look-up of the npm registry). Its own "Ready on …" comes before the worker can answer.
 */
import type { ChildProcess } from "node:child_process";

/**
 * The environment of `wrangler dev` under `npm start`:
 * - `CLOUDFLARE_CF_FETCH_ENABLED=false`: Miniflare uses its placeholder `Request.cf` object
 *   instead of fetching one (the worker reads nothing of it);
 * - `WRANGLER_HIDE_BANNER=true`: no banner, hence no update check against the npm registry;
 * - `WRANGLER_SEND_METRICS=false`, `WRANGLER_SEND_ERROR_REPORTS=false`: no telemetry;
 * - `CI=true`: no interactive hotkeys, no prompts.
 */
export const QUIET_WRANGLER_ENV: Record<string, string> = {
  CI: "true",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
};

/** The inspector wrangler dev always opens (it has no switch to turn it off), as `npm start` prints it. */
export function inspectorNote(inspectorPort: string): string {
  return `DevTools inspector of the worker (wrangler dev's; loopback only) on 127.0.0.1:${inspectorPort}; \`--inspector-port N\` moves it.`;
}

export interface Serving {
  /** The release the server named on `/api/version/`, when it answered 200. */
  release?: string;
  /** The status of that first answer. */
  status: number;
}

/**
 * Polls `{origin}/api/version/` until the server answers (any HTTP status), and resolves with
 * that answer; rejects when `child` exits first. Reports once, after `patienceMs`, that it is
 * still waiting.
 */
export async function waitUntilServing(origin: string, child: ChildProcess, patienceMs = 60_000): Promise<Serving> {
  let exited: number | null | undefined;
  const onExit = (code: number | null) => (exited = code);
  child.once("exit", onExit);
  const started = Date.now();
  let told = false;
  try {
    for (;;) {
      if (exited !== undefined || child.exitCode !== null) throw new Error(`wrangler dev exited (${exited ?? child.exitCode}) before answering`);
      try {
        const res = await fetch(`${origin}/api/version/`, { signal: AbortSignal.timeout(5_000) });
        if (!res.ok) {
          await res.body?.cancel();
          return { status: res.status };
        }
        return { status: res.status, release: ((await res.json()) as { orth_version?: string }).orth_version };
      } catch {
        // Not listening yet, or not answering yet.
      }
      if (!told && Date.now() - started > patienceMs) {
        told = true;
        console.log(`Still waiting for wrangler dev to answer on ${origin}/api/ …`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    child.off("exit", onExit);
  }
}
