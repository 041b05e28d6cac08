/** Progress lines (a publish, a compile's stages): live on a terminal, one summary line a stage elsewhere. */
import { describe, expect, it } from "vitest";
import { createProgress } from "../../release-compiler/progress.js";
import { filesProgress, readStageLines, stageReporter } from "../../release-compiler/stages.js";
import { tempFile } from "./readers/tmp.js";

function terminal(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream };
}

describe("publish progress", () => {
  it("draws blobs and bytes done, rate, time left and retries on a terminal, then the summary", async () => {
    const { writes, stream } = terminal(true);
    const lines: string[] = [];
    const stage = createProgress((l) => lines.push(l), stream).stage("upload", { items: 4, bytes: 4e6, unit: "blobs" });
    await new Promise((r) => setTimeout(r, 120));
    stage.advance(1, 1e6);
    stage.retried();
    await new Promise((r) => setTimeout(r, 120));
    stage.advance(1, 1e6);
    const last = writes.filter((w) => w.includes("upload")).at(-1)!;
    expect(last).toMatch(/^\r\x1b\[Kupload +\[#{12}\.{12}\] {2}2\/4 blobs {2}2\.0 MB of 4\.0 MB {2}[\d.]+ MB\/s {2}\d+:\d\d left {2}1 retried$/);
    stage.done("4 of 4 blobs uploaded");
    expect(writes.at(-1)).toBe("\r\x1b[K");
    expect(lines).toEqual([expect.stringMatching(/^4 of 4 blobs uploaded \(\d+\.\d s, 1 attempts retried\)$/)]);
  });

  it("writes nothing but the summary when not on a terminal", () => {
    const { writes, stream } = terminal(false);
    const lines: string[] = [];
    const stage = createProgress((l) => lines.push(l), stream).stage("check", { items: 2, unit: "blobs" });
    stage.advance(2);
    stage.done("checked");
    expect(writes).toEqual([]);
    expect(lines).toEqual([expect.stringMatching(/^checked \(\d+\.\d s\)$/)]);
  });
});

describe("compile stages", () => {
  it("draw a bar for a long stage on a terminal, clear it, then log the stage's line", async () => {
    const { writes, stream } = terminal(true);
    const lines: string[] = [];
    const stages = stageReporter({ log: (l) => lines.push(l), terminal: stream });
    stages.done("proteomes");
    const advance = stages.progress("pairwise relations", 10, "families");
    await new Promise((r) => setTimeout(r, 120));
    advance(5);
    expect(writes.at(-1)).toMatch(/^\r\x1b\[Kpairwise relations \[#{12}\.{12}\] {2}5\/10 families {2}\d+ families\/s {2}\d+:\d\d left$/);
    advance(10);
    stages.done("pairwise relations");
    expect(writes.at(-1)).toBe("\r\x1b[K");
    expect(lines).toEqual([expect.stringMatching(/^proteomes: \d+\.\d s$/), expect.stringMatching(/^pairwise relations: \d+\.\d s$/)]);
    // What benchmarks read back from a compile's output.
    expect(readStageLines(["compiled X into Y: 2 genomes", ...lines].join("\n")).map((l) => l.name)).toEqual(["proteomes", "pairwise relations"]);
  });

  it("draw a bar over the bytes of input files read one after the other", async () => {
    const { writes, stream } = terminal(true);
    const stages = stageReporter({ log: () => {}, terminal: stream });
    const files = [tempFile("a.tsv", "x".repeat(3_000_000)), tempFile("b.tsv", "y".repeat(1_000_000))];
    const read = filesProgress(stages, "given pairs", files);
    await new Promise((r) => setTimeout(r, 120));
    read(files[0], 3_000_000);
    await new Promise((r) => setTimeout(r, 120));
    read(files[1], 500_000);
    expect(writes.at(-1)).toMatch(/^\r\x1b\[Kgiven pairs \[#{18}\.{6}\] {2}3\/4 MB {2}\d+ MB\/s {2}\d+:\d\d left$/);
    stages.done("pairwise relations");
    expect(writes.at(-1)).toBe("\r\x1b[K");
  });

  it("draw nothing without a terminal, and add the heap, resident set, main thread's busy share and CPU time when asked", () => {
    const { writes, stream } = terminal(false);
    const lines: string[] = [];
    const stages = stageReporter({ log: (l) => lines.push(l), terminal: stream, memory: true });
    stages.progress("write sequence index", 3, "proteins")(3);
    // A stage that spends a quarter of a second of CPU: the line says so.
    const start = process.cpuUsage();
    let spin = 0;
    while ((({ user, system }) => user + system)(process.cpuUsage(start)) < 250_000) spin++;
    expect(spin).toBeGreaterThan(0);
    stages.done("write sequence index");
    expect(writes).toEqual([]);
    expect(lines).toEqual([expect.stringMatching(/^write sequence index: \d+\.\d s \(heap \d+ MB, RSS \d+ MB, peak \d+ MB, main thread \d+% busy, CPU \d+\.\d s\)$/)]);
    const [read] = readStageLines(lines[0]);
    expect(read).toEqual({ name: "write sequence index", seconds: expect.any(Number), heapMb: expect.any(Number), rssMb: expect.any(Number), peakMb: expect.any(Number), mainBusy: expect.any(Number), cpuSeconds: expect.any(Number) });
    expect(read.mainBusy).toBeGreaterThanOrEqual(0);
    expect(read.mainBusy).toBeLessThanOrEqual(1);
    expect(read.cpuSeconds).toBeGreaterThanOrEqual(0.2);
  });
});
