/**
 * Independent readings of input files for the worker tests: deliberately simple parsers,
 * not the compiler's, so a compiler bug cannot hide behind a shared one.
 */
import { SELF } from "cloudflare:test";
import { expect } from "vitest";

/** FASTA records as id (first header word) → sequence, in file order. */
export function parseFasta(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let id = "";
  for (const line of text.split("\n")) {
    if (line.startsWith(">")) {
      id = line.slice(1).trim().split(/\s+/)[0];
      out.set(id, "");
    } else if (id) out.set(id, out.get(id)! + line.trim().toUpperCase());
  }
  for (const [k, v] of out) out.set(k, v.replace(/\*$/, ""));
  return out;
}

/** GFF3 gene features: ID → chromosome, start, end, strand. */
export function parseGffGenes(text: string): Map<string, { chromosome: string; start: number; end: number; strand: number }> {
  const out = new Map<string, { chromosome: string; start: number; end: number; strand: number }>();
  for (const line of text.split("\n")) {
    const f = line.split("\t");
    if (f.length !== 9 || f[2] !== "gene") continue;
    const id = /(?:^|;)ID=([^;]+)/.exec(f[8])?.[1];
    if (id) out.set(id, { chromosome: f[0], start: Number(f[3]), end: Number(f[4]), strand: f[6] === "-" ? -1 : 1 });
  }
  return out;
}

/** Rows of a TSV with a header line, as objects. */
export function parseTsv(text: string): Array<Record<string, string>> {
  const [head, ...lines] = text.split("\n").filter((l) => l.trim() && !l.startsWith("#"));
  const cols = head.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i], v])));
}

export async function md5Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("MD5", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function get(url: string, init?: RequestInit): Promise<Response> {
  return SELF.fetch(url, { redirect: "manual", ...init });
}

/** GET a JSON body, asserting status 200 and the JSON content type. */
export async function getJson<T = any>(url: string, init?: RequestInit): Promise<T> {
  const res = await get(url, init);
  const body = await res.text();
  expect(res.status, `${url}: ${body.slice(0, 300)}`).toBe(200);
  expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
  return JSON.parse(body) as T;
}

/** Every page of a paginated list, following `Link: rel="next"`. */
export async function getAllPages<T = any>(url: string): Promise<T[]> {
  const out: T[] = [];
  for (let next: string | undefined = url; next; ) {
    const res = await get(next);
    expect(res.status, next).toBe(200);
    out.push(...((await res.json()) as T[]));
    next = /<([^>]+)>; rel="next"/.exec(res.headers.get("Link") ?? "")?.[1];
  }
  return out;
}
