/**
 * Requests to the worker inside workerd (vitest-pool-workers' SELF). Keep their number per
 * test file small: SELF.fetch slows down as requests accumulate in one workerd instance
 * (workers-sdk#15446); volume tests run in test/e2e over Miniflare instead.
 */
import { SELF } from "cloudflare:test";
import { expect } from "vitest";

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
