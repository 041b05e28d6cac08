/**
 * JSON requests for tests, over any fetch: the worker's SELF inside workerd, or plain fetch
 * to a served bundle. Redirects are not followed, so tests see them.
 */
import { expect } from "vitest";

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** A request that gets no answer within this long fails naming its URL, rather than the test timing out mute. */
const ANSWER_WITHIN_MS = 60_000;

export function jsonClient(fetchWith: Fetch) {
  const get = async (url: string, init?: RequestInit): Promise<Response> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silence = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${url}: no answer within ${ANSWER_WITHIN_MS / 1000} s`)), ANSWER_WITHIN_MS);
    });
    try {
      return await Promise.race([fetchWith(url, { redirect: "manual", ...init }), silence]);
    } finally {
      clearTimeout(timer);
    }
  };

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
