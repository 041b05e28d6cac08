/**
 * What the fuzz suite (fuzz.test.ts) needs around fast-check: the simulated release served by
 * the deployable bundle in workerd with the runtime's output captured, a raw HTTP/1.1 client
 * (paths and headers sent exactly as written: no URL normalisation, no header rewriting), and
 * the checks every answer is held to.
 */
import http from "node:http";
import { resolve } from "node:path";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { TestMiniflare } from "./miniflare.js";
import { expect } from "vitest";
import { openReleaseFolder } from "../../release-compiler/local/folder-storage.js";
import { folderFiles, loadRelease } from "../../release-compiler/local/r2-loader.js";
import type { Manifest } from "../../release-format/format.js";
import { TEST_BUILD } from "./serve.js";

/** Every request, answer or not, must be over within this. */
export const TIME_LIMIT_MS = 5000;

export interface FuzzServer {
  origin: string;
  /** `127.0.0.1:PORT` */
  host: string;
  manifest: Manifest;
  /** Everything workerd wrote to stdout and stderr since the last `takeLog()`. */
  takeLog(): string;
  dispose(): Promise<void>;
}

/** A release served as serve.ts serves it, with workerd's stdout and stderr collected. */
export async function serveWithLog(name: string): Promise<FuzzServer> {
  let log = "";
  const mf = new TestMiniflare({
    modules: true,
    scriptPath: resolve(TEST_BUILD, "worker/index.js"),
    compatibilityDate: "2026-04-26",
    r2Buckets: ["RELEASES"],
    handleRuntimeStdio(stdout, stderr) {
      stdout.on("data", (d: Buffer) => (log += d.toString()));
      stderr.on("data", (d: Buffer) => (log += d.toString()));
    },
  });
  const dir = resolve(TEST_BUILD, name);
  await loadRelease((await mf.getR2Bucket("RELEASES")) as never, await folderFiles(dir), { makeCurrent: true });
  const { manifest } = await openReleaseFolder(dir);
  const origin = (await mf.ready).origin;
  return {
    origin,
    host: new URL(origin).host,
    manifest,
    takeLog() {
      const out = log;
      log = "";
      return out;
    },
    dispose: () => mf.dispose(),
  };
}

export interface Answer {
  method: string;
  path: string;
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  text: string;
  ms: number;
}

/**
 * One request over HTTP/1.1 with the path and headers exactly as given, on a connection of its
 * own (so one answer's connection handling never fails the next request).
 */
export async function request(
  origin: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
  // No retry: the worker reads an oversized body (up to 16 MiB) before it answers, so even a
  // large body that is refused gets its answer rather than a reset connection.
  return requestOnce(origin, method, path, headers, payload);
}

function requestOnce(origin: string, method: string, path: string, headers: Record<string, string>, payload: Buffer | undefined): Promise<Answer> {
  const url = new URL(origin);
  return new Promise((done, fail) => {
    const started = performance.now();
    let answered = false;
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        agent: false,
        // Link headers echo the query: a 10,000-character query makes them long.
        maxHeaderSize: 4 * 1024 * 1024,
        headers: payload ? { "Content-Length": String(payload.length), ...headers } : headers,
        timeout: TIME_LIMIT_MS + 2000,
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on("data", (d: Buffer) => chunks.push(d));
        res.on("error", fail);
        res.on("end", () => {
          const bytes = Buffer.concat(chunks);
          req.destroy();
          done({ method, path, status: res.statusCode!, headers: res.headers, body: bytes, text: bytes.toString("utf8"), ms: performance.now() - started });
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${path.slice(0, 200)}: no answer within ${TIME_LIMIT_MS + 2000} ms`)));
    req.on("error", (error: NodeJS.ErrnoException) => {
      // The server answered and closed before taking the whole body: what it answered counts.
      if (answered && /ECONNRESET|EPIPE/.test(String(error.code))) return;
      fail(error);
    });
    if (!payload) return void req.end();
    // The body in 64 KiB chunks with back-pressure, no more once the answer has come.
    let at = 0;
    const pump = () => {
      while (at < payload.length && !answered && !req.destroyed) {
        const chunk = payload.subarray(at, at + 64 * 1024);
        at += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!req.destroyed) req.end();
    };
    pump();
  });
}

/** Cut a string for a failure message. */
export const short = (s: string, n = 300): string => (s.length > n ? `${s.slice(0, n)}… (${s.length} chars)` : s);

/** Every string in a JSON value that looks like an absolute URL. */
export function urlsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string" && /^https?:\/\//.test(value)) out.push(value);
  else if (Array.isArray(value)) for (const v of value) urlsIn(v, out);
  else if (value && typeof value === "object") for (const v of Object.values(value)) urlsIn(v, out);
  return out;
}

/** A hyperlink the worker wrote: absolute, http(s), no userinfo or fragment, under an API path ending in `/`. */
export function checkLink(url: string, origins: string[], where: string): void {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`${where}: ill-formed link ${short(url)}`);
  }
  expect(["http:", "https:"], `${where}: ${url}`).toContain(u.protocol);
  expect(u.username + u.password + u.hash, `${where}: ${url}`).toBe("");
  expect(origins, `${where}: link ${short(url)} leaves the origins`).toContain(u.origin);
  expect(url.startsWith(`${u.origin}/`), `${where}: ${url}`).toBe(true);
  expect(u.pathname.endsWith("/"), `${where}: ${url}`).toBe(true);
}

/** A `Link` header: comma-separated `<url>; rel="first|prev|next|last"`, each URL a well-formed link. */
export function checkLinkHeader(value: string | undefined, origins: string[], where: string): void {
  if (value === undefined) return;
  const entry = /^<([^<>\s]+)>; rel="(first|prev|next|last)"$/;
  for (const part of value.split(", ")) {
    const m = entry.exec(part);
    expect(m, `${where}: Link entry ${short(part)}`).not.toBeNull();
    checkLink(m![1], origins, `${where} Link`);
  }
}

const JSON_TYPE = /^application\/json(?:;|$)/;
/** JSON of any flavour a success may have (`application/vnd.oai.openapi+json` for the schema). */
const ANY_JSON_TYPE = /^application\/(?:[\w.-]+\+)?json(?:;|$)/;

export interface Expectation {
  /** Origins the links of the answer may have. */
  origins: string[];
  /** The request may get the browsable HTML page (its Accept header asks for text/*). */
  html?: boolean;
  /** Status codes that are valid for this request. */
  statuses?: number[];
  /** What a 2xx may carry besides JSON (`application/xml`, `text/csv`, …). */
  otherTypes?: RegExp;
}

/**
 * The REST contract for any request, however hostile: answered in time, never 5xx; an error is
 * `{"detail": string}` JSON (the xref search's list body aside); a redirect is a 301 to the
 * slashed path on the same origin; a success is well-formed in its media type, every link in
 * it on the request's origin.
 */
export function checkRestAnswer(a: Answer, x: Expectation): void {
  const where = `${a.method} ${short(a.path, 200)} → ${a.status} ${short(a.text, 200)}`;
  expect(a.ms, `${where}: took ${Math.round(a.ms)} ms`).toBeLessThan(TIME_LIMIT_MS);
  expect(a.status, where).toBeGreaterThanOrEqual(200);
  expect(a.status, where).toBeLessThan(500);
  if (x.statuses) expect(x.statuses, where).toContain(a.status);
  for (const [name, value] of Object.entries(a.headers)) {
    for (const v of Array.isArray(value) ? value : [value ?? ""]) expect(/[\r\n\0]/.test(v), `${where}: header ${name}`).toBe(false);
  }
  const type = String(a.headers["content-type"] ?? "");
  const head = a.method === "HEAD";

  if (a.status >= 300 && a.status < 400) {
    expect(a.status, where).toBe(301);
    const location = String(a.headers.location ?? "");
    // Relative to the origin: one leading slash, never `//host` or `/\host`, which browsers read as another origin.
    expect(location, `${where}: Location`).toMatch(/^\/(?![/\\])/);
    expect(new URL(location, "http://origin.test").origin, `${where}: Location ${location}`).toBe("http://origin.test");
    expect(new URL(location, "http://origin.test").pathname.endsWith("/"), `${where}: Location ${location}`).toBe(true);
    return;
  }
  if (type.startsWith("text/html")) {
    expect(x.html, `${where}: HTML answer to an API client`).toBe(true);
    if (!head) expect(a.text, where).toMatch(/^<!DOCTYPE html>/i);
    // Pages run no script: request text shown on them (ids, queries, headers) is escaped.
    expect(a.text, where).not.toMatch(/<script|<[a-z]+[^>]*\son[a-z]+=/i);
    return;
  }
  if (a.status >= 400) {
    expect(type, `${where}: Content-Type`).toMatch(JSON_TYPE);
    if (head) return;
    const body = JSON.parse(a.text);
    // The one error whose body is a list: an xref search matching too many ids (reference A.4).
    if (Array.isArray(body) && a.status === 400 && /^\/(?:release\/[^/]+\/)?api\/xref\//.test(a.path)) {
      expect(body, where).toEqual([expect.stringMatching(/^Query too unspecific/)]);
      return;
    }
    expect(typeof body?.detail, `${where}: detail`).toBe("string");
    return;
  }
  // 2xx
  if (ANY_JSON_TYPE.test(type)) {
    checkLinkHeader(a.headers.link as string | undefined, x.origins, where);
    if (head) return;
    let body: unknown;
    try {
      body = JSON.parse(a.text);
    } catch {
      throw new Error(`${where}: body is not JSON`);
    }
    // The OpenAPI document names its dialect and the like by URL: its links are not the API's.
    if (!/\/api\/schema\/(?:\?|$)/.test(a.path)) for (const url of urlsIn(body)) checkLink(url, x.origins, where);
    return;
  }
  expect(type, `${where}: Content-Type`).toMatch(x.otherTypes ?? /^$/);
  checkLinkHeader(a.headers.link as string | undefined, x.origins, where);
}

const soapParser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false });
const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/**
 * The SOAP contract for any body: answered in time with text/xml; a 200 is the operation's
 * response, a 500 a SOAP 1.1 Fault whose code is Client or VersionMismatch (the storage is
 * healthy, so a Server fault is an internal error), the body well-formed XML 1.0.
 */
export function checkSoapAnswer(a: Answer, label: string): { code?: string; string?: string } {
  const where = `${label} → ${a.status} ${short(a.text, 300)}`;
  expect(a.ms, `${where}: took ${Math.round(a.ms)} ms`).toBeLessThan(TIME_LIMIT_MS);
  expect([200, 500], where).toContain(a.status);
  expect(a.headers["content-type"], where).toBe("text/xml; charset=utf-8");
  expect(XML_CHAR.test(a.text), `${where}: characters XML 1.0 cannot carry`).toBe(true);
  expect(XMLValidator.validate(a.text), where).toBe(true);
  const env = soapParser.parse(a.text)["soap:Envelope"];
  expect(env?.["@_xmlns:soap"], where).toBe("http://schemas.xmlsoap.org/soap/envelope/");
  const body = env["soap:Body"];
  if (a.status === 200) {
    const [name] = Object.keys(body);
    expect(name, where).toMatch(/^ns:\w+Response$/);
    return {};
  }
  const fault = body["soap:Fault"];
  expect(fault, where).toBeDefined();
  const code = String(fault.faultcode);
  expect(["soap:Client", "soap:VersionMismatch"], where).toContain(code);
  expect(typeof fault.faultstring === "string" || typeof fault.faultstring === "number", where).toBe(true);
  return { code, string: String(fault.faultstring) };
}

/** Lines of the runtime's output that tell of an error (an uncaught exception, a logged failure). */
export function errorLines(log: string): string[] {
  return log.split("\n").filter((l) => /error|exception|uncaught|failed|stack:/i.test(l));
}
