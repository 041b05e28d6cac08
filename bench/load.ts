/**
 * Shared by the serve benchmark (bench/serve.ts) and the soak (bench/soak.ts): the worker
 * bundle on plain Miniflare with a release in its R2 bucket, a bounded load generator over
 * loopback (N keep-alive connections, a fixed number of requests or a duration, every
 * response timed with its status and its X-Blob-Reads / X-Blob-Bytes), the workerd process
 * found under this one for memory samples, and the statistics both report.
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import http, { type IncomingHttpHeaders } from "node:http";
import { cpus, totalmem } from "node:os";
import { resolve } from "node:path";
import { Miniflare } from "miniflare";
import { openReleaseFolder } from "../release-compiler/local/folder-storage.js";
import { folderFiles, loadRelease } from "../release-compiler/local/r2-loader.js";
import type { Manifest } from "../release-format/format.js";
import { Rng } from "../release-compiler/simulate/rng.js";

const ROOT = resolve(import.meta.dirname, "..");
/** The compatibility date of wrangler.toml, which the tests and benchmarks serve with too. */
export const COMPATIBILITY_DATE = "2026-04-26";

// ---------------------------------------------------------------------------------------------
// Serving

/** Bundles the worker as it would be deployed (`wrangler deploy --dry-run`, as the test setup does). */
export function buildWorkerBundle(outdir: string): string {
  execFileSync(resolve(ROOT, "node_modules/.bin/wrangler"), ["deploy", "--dry-run", "--outdir", outdir], {
    cwd: ROOT,
    stdio: "pipe",
    env: { ...process.env, CI: "true", WRANGLER_SEND_METRICS: "false" },
  });
  return resolve(outdir, "index.js");
}

export interface Served {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  mf: Miniflare;
  /** The workerd process serving (undefined when it could not be told apart from others). */
  pid: number | undefined;
  dispose(): Promise<void>;
}

export interface ServeOptions {
  /** The bundled worker (buildWorkerBundle), or the source of a one-module worker. */
  scriptPath?: string;
  script?: string;
  /** A compiled release folder to load into the RELEASES bucket and make current. */
  releaseDir?: string;
  /** Keep the bucket in this folder across instances (a big release is loaded once). */
  r2Persist?: string;
}

/**
 * One Miniflare instance (one workerd process, a fresh isolate and an empty Cache API) serving
 * a worker with a RELEASES bucket, the release loaded (packs already in a persisted bucket are
 * skipped).
 */
export async function serveWorker(options: ServeOptions): Promise<Served> {
  const before = new Set(workerdPids());
  const mf = new Miniflare({
    modules: true,
    ...(options.scriptPath ? { scriptPath: options.scriptPath } : { script: options.script ?? "" }),
    compatibilityDate: COMPATIBILITY_DATE,
    r2Buckets: ["RELEASES"],
    ...(options.r2Persist ? { r2Persist: options.r2Persist } : {}),
  });
  try {
    const origin = (await mf.ready).origin.replace(/\/$/, "");
    if (options.releaseDir) {
      await loadRelease((await mf.getR2Bucket("RELEASES")) as never, await folderFiles(options.releaseDir), { makeCurrent: true });
    }
    const fresh = workerdPids().filter((p) => !before.has(p));
    return { origin, mf, pid: fresh.length === 1 ? fresh[0] : undefined, dispose: () => mf.dispose() };
  } catch (error) {
    await mf.dispose();
    throw error;
  }
}

/**
 * Opens an instance's storage services from outside, before it is measured cold: Miniflare opens
 * an R2 bucket and the Cache API's store at their first use, which costs the first request ~6
 * and ~7 ms on a fresh instance of a one-line worker (medians of six; 17.9 → 9.6 ms for a worker
 * that uses both), a cost the edge, whose storage services are running, does not have. A read of
 * a key and a lookup of a URL no request names: the isolate stays fresh (its code not yet run,
 * its caches empty, no release opened) and the edge cache empty.
 */
export async function openStorageServices(served: Served): Promise<void> {
  await (await served.mf.getR2Bucket("RELEASES")).head("bench/storage-opened");
  await (await served.mf.getCaches()).default.match("http://storage-opened.invalid/");
}

/** The opened manifest of a compiled release folder: its manifest file and header, as the worker opens them. */
export async function readManifest(releaseDir: string): Promise<Manifest> {
  return (await openReleaseFolder(releaseDir)).manifest;
}

// ---------------------------------------------------------------------------------------------
// Release files and request builders

const SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAPENC = "http://schemas.xmlsoap.org/soap/encoding/";
const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
export const soapPart = {
  str: (name: string, value: string | number) => `<${name} xsi:type="xsd:string">${xmlEscape(String(value))}</${name}>`,
  int: (name: string, value: string | number) => `<${name} xsi:type="xsd:int">${xmlEscape(String(value))}</${name}>`,
  strings: (name: string, values: string[]) =>
    `<${name} xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[${values.length}]">${values.map((v) => `<item xsi:type="xsd:string">${xmlEscape(v)}</item>`).join("")}</${name}>`,
};

/** A SOAP 1.1 RPC/encoded request as reference D.4 writes it. */
export function soapRequest(family: string, operation: string, parts = ""): MixRequest {
  return {
    family,
    method: "POST",
    path: "/soap",
    headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: '""' },
    body:
      `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP11}" xmlns:soapenc="${SOAPENC}"` +
      ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"` +
      ` soap:encodingStyle="${SOAPENC}"><soap:Body><ns:${operation} xmlns:ns="urn:ORTH">${parts}</ns:${operation}></soap:Body></soap:Envelope>`,
  };
}

/** A HOG id as a path segment (the colon kept, as clients send it). */
export const segment = (id: string): string => encodeURIComponent(id).replace(/%3A/g, ":");

export const orthidOf = (manifest: Manifest, entry: number): string => {
  const g = manifest.genomes.find((x) => entry >= x.firstEntry && entry < x.firstEntry + x.nrEntries)!;
  return `${g.code}${String(entry - g.firstEntry + 1).padStart(5, "0")}`;
};

// ---------------------------------------------------------------------------------------------
// Processes

/** Parent pid and command name of a process, from /proc (undefined once it is gone). */
function procStat(pid: number): { ppid: number; comm: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
    const close = stat.lastIndexOf(")");
    return { comm: stat.slice(stat.indexOf("(") + 1, close), ppid: Number(stat.slice(close + 2).split(" ")[1]) };
  } catch {
    return undefined;
  }
}

/** Every workerd process descending from this one (Miniflare spawns one per instance). */
export function workerdPids(): number[] {
  let all: number[];
  try {
    all = readdirSync("/proc").filter((d) => /^[0-9]+$/.test(d)).map(Number);
  } catch {
    return [];
  }
  const stats = new Map<number, { ppid: number; comm: string }>();
  for (const pid of all) {
    const s = procStat(pid);
    if (s) stats.set(pid, s);
  }
  const descends = (pid: number): boolean => {
    for (let p = stats.get(pid)?.ppid, hops = 0; p && hops < 16; p = stats.get(p)?.ppid, hops++) if (p === process.pid) return true;
    return false;
  };
  return [...stats].filter(([pid, s]) => s.comm.startsWith("workerd") && descends(pid)).map(([pid]) => pid);
}

/** Resident set size of a process in bytes (VmRSS), undefined once it is gone. */
export function rssBytes(pid: number): number | undefined {
  try {
    const m = /^VmRSS:\s+([0-9]+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Load

/** One request of a mix; `family` groups requests for reporting. */
export interface MixRequest {
  family: string;
  method: string;
  /** Path and query, from the origin: `/api/protein/42/`. */
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface Sample {
  /** Index of the request in the list given to runLoad. */
  index: number;
  /** HTTP status; 0 when the request failed below HTTP (see `error`). */
  status: number;
  /** From sending the request to the last byte of the body. */
  ms: number;
  reads: number;
  bytes: number;
  /** Bytes of the response body. */
  size: number;
  error?: string;
}

export interface LoadOptions {
  origin: string;
  requests: MixRequest[];
  /** Concurrent keep-alive connections, each sending its next request when the last is answered. */
  connections: number;
  /** Requests to send in all: the list is cycled in order (default: the list once). */
  count?: number;
  /** Or: keep sending until this much time has passed (the list cycled). */
  durationMs?: number;
  /** Per-request timeout (default 60 s): a request taking longer counts as failed. */
  timeoutMs?: number;
  /** Extra headers for every request (e.g. `X-Mix-Key` from `mixKeyHeader`). */
  headersOf?: (request: MixRequest, index: number) => Record<string, string>;
  /** Each response as it arrives, with its body and headers (not kept by runLoad). */
  onResponse?: (sample: Sample, body: Buffer, headers: IncomingHttpHeaders) => void;
}

export interface LoadResult {
  samples: Sample[];
  seconds: number;
  /** Requests that failed below HTTP: connection refused or reset, timeouts. */
  connectionErrors: number;
  /** Requests sent again after their reused keep-alive connection was found closed (see send). */
  retries: number;
}

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer; retries: number };

/**
 * Sends one request over the agent and reads the whole answer. A request that fails on a
 * reused keep-alive socket before any answer (reset, hang-up: the server closed the idle
 * connection) is sent again once, on a new connection, as HTTP clients do; `retries` counts those.
 * workerd closes a connection, without `Connection: close`, after answering a request whose
 * body the worker left unread (a 405 or 415 to a POST), so this happens on loopback.
 */
async function send(agent: http.Agent, origin: string, request: MixRequest, headers: Record<string, string>, timeoutMs: number): Promise<Answer> {
  // `Connection: close` asks for a connection of its own, outside the pool.
  if (/^close$/i.test(request.headers?.Connection ?? headers.Connection ?? "")) return { ...(await sendOnce(false, origin, request, headers, timeoutMs)), retries: 0 };
  try {
    return { ...(await sendOnce(agent, origin, request, headers, timeoutMs)), retries: 0 };
  } catch (error) {
    const reused = (error as { reusedSocket?: boolean }).reusedSocket;
    const code = (error as NodeJS.ErrnoException).code;
    if (!reused || (code !== "ECONNRESET" && code !== "EPIPE")) {
      throw Object.assign(new Error(`${String(error)} (${reused ? "reused" : "new"} connection${(error as { answered?: boolean }).answered ? ", after the answer began" : ""})`), { code });
    }
  }
  // Again on a connection of its own (the pool may hold other connections closed the same way).
  try {
    return { ...(await sendOnce(false, origin, request, headers, timeoutMs)), retries: 1 };
  } catch (error) {
    throw Object.assign(new Error(`${String(error)} (resent on a new connection after a reset on a reused one)`), { code: (error as NodeJS.ErrnoException).code });
  }
}

function sendOnce(agent: http.Agent | false, origin: string, request: MixRequest, headers: Record<string, string>, timeoutMs: number): Promise<Omit<Answer, "retries">> {
  return new Promise((resolvePromise, reject) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    let answered = false;
    const req = http.request(
      `${origin}${request.path}`,
      {
        method: request.method,
        agent,
        headers: { ...request.headers, ...headers, ...(body ? { "Content-Length": String(body.length) } : {}) },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on("error", reject);
        res.on("aborted", () => reject(new Error("response aborted")));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on("error", (error) => reject(Object.assign(error, { reusedSocket: req.reusedSocket && !answered, answered })));
    req.end(body);
  });
}

/**
 * Bounded load over loopback: `connections` workers share one keep-alive agent of as many
 * sockets, each taking the next request of the (cycled) list until `count` requests are sent
 * or `durationMs` has passed.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { requests, connections } = options;
  if (requests.length === 0) return { samples: [], seconds: 0, connectionErrors: 0, retries: 0 };
  const total = options.durationMs === undefined ? (options.count ?? requests.length) : Infinity;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const samples: Sample[] = [];
  let next = 0;
  let connectionErrors = 0;
  let retries = 0;
  const started = performance.now();
  const deadline = options.durationMs === undefined ? Infinity : started + options.durationMs;
  const worker = async () => {
    while (next < total && performance.now() < deadline) {
      const index = next++ % requests.length;
      const request = requests[index];
      const t0 = performance.now();
      try {
        const res = await send(agent, options.origin, request, options.headersOf?.(request, index) ?? {}, options.timeoutMs ?? 60_000);
        retries += res.retries;
        const sample: Sample = {
          index,
          status: res.status,
          ms: performance.now() - t0,
          reads: Number(res.headers["x-blob-reads"] ?? 0),
          bytes: Number(res.headers["x-blob-bytes"] ?? 0),
          size: res.body.length,
        };
        samples.push(sample);
        options.onResponse?.(sample, res.body, res.headers);
      } catch (error) {
        connectionErrors++;
        const sample: Sample = { index, status: 0, ms: performance.now() - t0, reads: 0, bytes: 0, size: 0, error: String(error) };
        samples.push(sample);
        options.onResponse?.(sample, Buffer.alloc(0), {});
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
  return { samples, seconds: (performance.now() - started) / 1000, connectionErrors, retries };
}

/** The requests of a list once each, in order, one at a time (reference answers, pre-rendering). */
export async function fetchEach(
  origin: string,
  requests: MixRequest[],
  onResponse: (index: number, status: number, body: Buffer, headers: IncomingHttpHeaders) => void,
): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    for (const [index, request] of requests.entries()) {
      const res = await send(agent, origin, request, {}, 120_000);
      onResponse(index, res.status, res.body, res.headers);
    }
  } finally {
    agent.destroy();
  }
}

// ---------------------------------------------------------------------------------------------
// Statistics

export const quantile = (values: number[], q: number): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
};
export const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
export const ms = (value: number): string => (Number.isNaN(value) ? "–" : value >= 100 ? value.toFixed(0) : value.toFixed(1));
export const kib = (bytes: number): string => (bytes >= 1024 * 1024 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} kB`);

/** A deterministic generator in [0, 1) (the simulator's), so a seed always picks the same targets. */
export function seeded(seed: number): () => number {
  const rng = new Rng(seed, "bench");
  return () => rng.float();
}

/** The machine line of BENCHMARKS.md (as bench/run.ts writes it). */
export function machineLine(): string {
  const wrangler = execFileSync(resolve(ROOT, "node_modules/.bin/wrangler"), ["--version"], {
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  }).trim();
  return `Machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM, shared and noisy; Node ${process.version}, wrangler ${wrangler}, the worker bundle on Miniflare over loopback.`;
}
