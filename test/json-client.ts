/**
 * JSON requests for tests, over any fetch: the worker's SELF inside workerd, or plain fetch
 * to a served bundle. Redirects are not followed, so tests see them.
 */
import { expect } from "vitest";

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** A request that gets no whole answer within this long fails naming its URL, rather than the test timing out mute. */
const ANSWER_WITHIN_MS = 60_000;

/** A request that got no whole answer in time. */
class NoAnswer extends Error {}

export interface JsonClientOptions {
  /**
   * Called before a request fails, with the time it was sent (`Date.now()`) and why: it got no
   * answer in time (`stall`), or its connection failed (`reset`: the server went away, as it
   * does while it is restarted). May restart the server that stalled, or wait for a restart
   * under way, and answer true to have the request sent once more. A request fails the second time.
   */
  onStall?: (url: string, sentAt: number, why: "stall" | "reset") => Promise<boolean>;
  /** How long a request may take (default ANSWER_WITHIN_MS). */
  answerWithinMs?: number;
}

export function jsonClient(fetchWith: Fetch, options: JsonClientOptions = {}) {
  const within = options.answerWithinMs ?? ANSWER_WITHIN_MS;
  /** `exchange` in time, else an error naming the URL. */
  const inTime = async <T>(url: string, exchange: () => Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const silence = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new NoAnswer(`${url}: no answer within ${within / 1000} s`)), within);
    });
    try {
      return await Promise.race([exchange(), silence]);
    } finally {
      clearTimeout(timer);
    }
  };
  /** `exchange` in time, sent once more if the server stalled and onStall restarted it. */
  const answered = async <T>(url: string, exchange: () => Promise<T>): Promise<T> => {
    const sentAt = Date.now();
    try {
      return await inTime(url, exchange);
    } catch (error) {
      // fetch rejects with a TypeError ("fetch failed") when the connection fails.
      const why = error instanceof NoAnswer ? "stall" : error instanceof TypeError ? "reset" : undefined;
      if (!why || !(await options.onStall?.(url, sentAt, why))) throw error;
      return inTime(url, exchange);
    }
  };

  /** The response once its headers are in. */
  const get = (url: string, init?: RequestInit): Promise<Response> => answered(url, () => fetchWith(url, { redirect: "manual", ...init }));

  /** The response and its whole body, both within the time allowed. */
  const getText = (url: string, init?: RequestInit) =>
    answered(url, async () => {
      const res = await fetchWith(url, { redirect: "manual", ...init });
      return { res, body: await res.text() };
    });

  /** GET a JSON body, asserting status 200 and the JSON content type. */
  async function getJson<T = any>(url: string, init?: RequestInit): Promise<T> {
    const { res, body } = await getText(url, init);
    expect(res.status, `${url}: ${body.slice(0, 300)}`).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^application\/json/);
    return JSON.parse(body) as T;
  }

  /** Every page of a paginated list, following `Link: rel="next"`. */
  async function getAllPages<T = any>(url: string): Promise<T[]> {
    const out: T[] = [];
    for (let next: string | undefined = url; next; ) {
      const { res, body } = await getText(next);
      expect(res.status, next).toBe(200);
      out.push(...(JSON.parse(body) as T[]));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get("Link") ?? "")?.[1];
    }
    return out;
  }

  return { get, getJson, getAllPages };
}
