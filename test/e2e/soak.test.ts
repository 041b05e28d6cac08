/**
 * The soak (bench/soak.ts) in small: the demo release served by the built bundle on
 * Miniflare, a few connections for about 20 seconds, every answer equal to its reference and
 * no unexpected error; then proof that the checker catches a wrong answer (tampered
 * references), and that the report replaces only its own section of BENCHMARKS.md.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workerdPids } from "../../bench/load.js";
import { soak, soakMarkdown, writeSoakSection, type SoakResult } from "../../bench/soak.js";
import { serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

describe("soak on the demo release", () => {
  let served: ServedRelease;
  let pid: number | undefined;
  const releaseDir = resolve(TEST_BUILD, "demo");

  beforeAll(async () => {
    const before = new Set(workerdPids());
    served = await serveRelease("demo");
    const fresh = workerdPids().filter((p) => !before.has(p));
    pid = fresh.length === 1 ? fresh[0] : undefined;
  });
  afterAll(() => served?.dispose());

  it("answers every request under load exactly as its reference, with no unexpected error", async () => {
    const result = await soak({ origin: served.origin, releaseDir, seconds: 20, connections: 4, pid });
    expect(result.referenceFailures).toEqual([]);
    expect(result.mismatchExamples).toEqual([]);
    expect(result.mismatches).toBe(0);
    expect(result.unexpectedErrors).toBe(0);
    expect(result.connectionErrors).toBe(0);
    // Bodies of 405/415 answers are drained, so no keep-alive connection is dropped under the client.
    expect(result.retries).toBe(0);
    expect(result.closing).toBeGreaterThan(0);
    expect(result.ok).toBe(true);
    // The mix holds failures by design, and the load went round it many times.
    expect(result.failing).toBeGreaterThanOrEqual(30);
    expect(result.requests).toBeGreaterThan(result.distinct * 3);
    for (const status of ["200", "301", "400", "404", "405", "406", "410", "415", "500"]) expect(result.byStatus[status], status).toBeGreaterThan(0);
    const section = soakMarkdown(result, { seconds: 20, connections: 4, release: "demo" });
    expect(section).toMatch(/^## Soak\n/);
    expect(section).toContain("| mismatches (answer ≠ reference) | **0** |");
  }, 120_000);

  it("catches a wrong answer: tampered references (a body, a status) count as mismatches and fail the soak", async () => {
    let tampered: string[] = [];
    const result: SoakResult = await soak({
      origin: served.origin,
      releaseDir,
      seconds: 4,
      connections: 2,
      tamper: (references, requests) => {
        const ok = requests.findIndex((r) => r.path.includes("/protein/") && references[requests.indexOf(r)].status === 200);
        const failing = references.findIndex((r) => r.status === 404);
        references[ok] = { ...references[ok], hash: "0".repeat(64) };
        references[failing] = { ...references[failing], status: 200 };
        tampered = [requests[ok].path, requests[failing].path];
      },
    });
    expect(result.ok).toBe(false);
    expect(result.unexpectedErrors).toBe(0);
    expect(result.mismatches).toBeGreaterThanOrEqual(2);
    for (const path of tampered) expect(result.mismatchExamples.some((e) => e.includes(path.slice(0, 100))), path).toBe(true);
    expect(result.mismatchExamples.join("\n")).toMatch(/body of [0-9]+ bytes differs/);
    expect(result.mismatchExamples.join("\n")).toMatch(/status 404, reference 200/);
  }, 60_000);
});

describe("the soak's report", () => {
  it("replaces the ## Soak section of BENCHMARKS.md, or appends one, leaving the rest intact", () => {
    const file = join(mkdtempSync(join(tmpdir(), "orth-soak-")), "BENCHMARKS.md");
    const head = "# Benchmarks\n\nMachine: a line kept.\n\n## Search\n\n| a | b |\n";
    writeFileSync(file, head);
    writeSoakSection(file, "## Soak\n\nfirst");
    expect(readFileSync(file, "utf8")).toBe(`${head}\n## Soak\n\nfirst\n`);
    writeFileSync(file, `${head}\n## Soak\n\nold figures\n\n## Serve\n\nkept\n`);
    writeSoakSection(file, "## Soak\n\nnew figures");
    expect(readFileSync(file, "utf8")).toBe(`${head}\n## Soak\n\nnew figures\n\n## Serve\n\nkept\n`);
  });
});
