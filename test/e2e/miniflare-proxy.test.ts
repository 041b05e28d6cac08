/**
 * Miniflare's Node proxy to bindings (`getR2Bucket`), which loads every test release and backs
 * `npm run publish` and `npm run rollback` on a local state, with patches/ applied: its
 * synchronous calls wait again after a wake-up that brought no answer (the fix of
 * cloudflare/workers-sdk#15552). Without it a late wake-up from one call, taken for the next
 * call's answer, failed an assertion in CI and left the proxy out of step for good. The race
 * itself needs the proxy's worker thread preempted at one instruction and cannot be provoked on
 * demand: this checks that the fix is installed, and that the patched path answers every call.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Miniflare } from "miniflare";
import { describe, expect, it } from "vitest";

describe("Miniflare's binding proxy", () => {
  it("is installed with the fix of workers-sdk#15552 (npm install applies patches/)", () => {
    const source = readFileSync(createRequire(import.meta.url).resolve("miniflare"), "utf8");
    const fetcher = source.slice(source.indexOf("var SynchronousFetcher = class"), source.indexOf("async dispose()", source.indexOf("var SynchronousFetcher = class")));
    expect(fetcher).toContain("cloudflare/workers-sdk#15552");
    expect(fetcher).toMatch(/for \(;;\) \{\s*Atomics\.wait\(/);
  });

  it("answers a long run of synchronous calls (a head and a property read each), each with its own answer", async () => {
    const mf = new Miniflare({ modules: true, script: "export default { fetch() { return new Response(null, { status: 204 }); } }", r2Buckets: ["RELEASES"] });
    try {
      const bucket = await mf.getR2Bucket("RELEASES");
      for (let i = 0; i < 20; i++) await bucket.put(`k/${i}`, new Uint8Array(i + 1));
      for (let round = 0; round < 25; round++) {
        for (let i = 0; i < 20; i++) expect((await bucket.head(`k/${i}`))!.size).toBe(i + 1);
      }
    } finally {
      await mf.dispose();
    }
  });
});
