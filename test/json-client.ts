/**
 * JSON requests for tests, over any fetch: the worker's SELF inside workerd, or plain fetch
 * to a served bundle. Redirects are not followed, so tests see them.
 */
import { expect } from "vitest";

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

export function jsonClient(fetchWith: Fetch) {
  const get = (url: string, init?: RequestInit): Promise<Response> => fetchWith(url, { redirect: "manual", ...init });

  /** GET a JSON body, asserting status 200 and the JSON content type. */
  async function getJson<T = any>(url: string, init?: RequestInit): Promise<T> {
    const res = await get(url, init);
    const body = await res.text();
    expect(res.status, `${url}: ${body.slice(0, 300)}`).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    return JSON.parse(body) as T;
  }

  /** Every page of a paginated list, following `Link: rel="next"`. */
  async function getAllPages<T = any>(url: string): Promise<T[]> {
    const out: T[] = [];
    for (let next: string | undefined = url; next; ) {
      const res = await get(next);
      expect(res.status, next).toBe(200);
      out.push(...((await res.json()) as T[]));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get("Link") ?? "")?.[1];
    }
    return out;
  }

  return { get, getJson, getAllPages };
}
