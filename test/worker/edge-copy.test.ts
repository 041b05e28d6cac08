/**
 * The edge cache's stored copy of a streamed answer inside workerd (src/middleware/stored-copy.ts):
 * one within the bytes stored whole (56 kB of 100 kB) and one past them (560 kB, stored as a
 * stream) are served again byte for byte; one whose client went away part-way is not stored at
 * all, on either side of the limit.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../src/context.js";
import { edgeCache } from "../../src/middleware/edge-cache.js";
import type { Releases } from "../../src/release/release.js";
import { textStream } from "../../src/render/text-stream.js";

/** A streamed answer of `n` lines, each naming its number, produced as read (in chunks of ~16 kB). */
function lines(n: number): ReadableStream<Uint8Array> {
  return textStream(
    (async function* () {
      for (let i = 0; i < n; i++) yield `line ${String(i).padStart(6, "0")} of an answer\n`;
    })(),
    "test lines",
  );
}
const expected = (n: number) => Array.from({ length: n }, (_, i) => `line ${String(i).padStart(6, "0")} of an answer\n`).join("");

const app = new Hono<AppEnv>();
app.use(async (c, next) => {
  c.set("scope", { prefix: "", name: "Edge.Copy.Test", releases: {} as Releases });
  await next();
});
app.use(edgeCache({ storedWholeBytes: 100_000 }));
app.get("/lines/:n", (c) => new Response(lines(Number(c.req.param("n"))), { headers: { "Content-Type": "text/plain" } }));

async function fetchApp(path: string, read: (res: Response) => Promise<string>) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`https://edge.test${path}`), env, ctx);
  const text = await read(res);
  await waitOnExecutionContext(ctx);
  return { res, text };
}
const whole = (res: Response) => res.text();
/** Reads the first chunks of a body, then goes away. */
const partly = async (res: Response) => {
  const reader = res.body!.getReader();
  for (let i = 0; i < 2; i++) await reader.read();
  await reader.cancel("client went away");
  return "";
};

describe("the edge cache's stored copy, in workerd", () => {
  it("stores an answer within the limit and one past it, and serves each again byte for byte", async () => {
    for (const n of [10, 2000, 20_000]) {
      const first = await fetchApp(`/lines/${n}?whole`, whole);
      expect([first.res.headers.get("X-Cache"), first.text], `${n} lines`).toEqual(["MISS", expected(n)]);
      const again = await fetchApp(`/lines/${n}?whole`, whole);
      expect([again.res.headers.get("X-Cache"), again.text], `${n} lines`).toEqual(["HIT", expected(n)]);
    }
  });

  it("stores nothing of an answer whose client went away, on either side of the limit", async () => {
    for (const n of [2000, 20_000]) {
      await fetchApp(`/lines/${n}?partly`, partly);
      const next = await fetchApp(`/lines/${n}?partly`, whole);
      expect([next.res.headers.get("X-Cache"), next.text], `${n} lines`).toEqual(["MISS", expected(n)]);
      const after = await fetchApp(`/lines/${n}?partly`, whole);
      expect([after.res.headers.get("X-Cache"), after.text], `${n} lines`).toEqual(["HIT", expected(n)]);
    }
  });
});
