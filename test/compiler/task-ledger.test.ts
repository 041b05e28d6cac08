/** The ledger of a compile's finished tasks (tasks.ts, taskLedger): what counts as finished, and what a run leaves. */
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ReleaseConfig } from "../../release-compiler/config.js";
import { taskLedger } from "../../release-compiler/tasks.js";

// The inputs' hash given, as a workflow's job gives it: the config is not read.
const ledgerIn = (work: string) => taskLedger(work, {} as ReleaseConfig, { alignPairs: false }, "0".repeat(64));

describe("the task ledger", () => {
  it("runs a task once, keeps what it wrote in its folder, and loads it in later runs", async () => {
    const work = mkdtempSync(join(tmpdir(), "orth-ledger-"));
    const ledger = ledgerIn(work);
    let runs = 0;
    const compute = async (folder: string, scratch: string) => {
      runs++;
      writeFileSync(join(folder, "kept.txt"), "kept");
      writeFileSync(join(scratch, "thrown.txt"), "thrown");
      return { rows: [1, 2, 3], name: "hog lists" };
    };
    expect(ledger.isDone("hog-lists")).toBe(false);
    expect(await ledger.run("hog-lists", compute)).toEqual({ rows: [1, 2, 3], name: "hog lists" });
    expect(ledger.isDone("hog-lists")).toBe(true);
    expect(existsSync(join(ledger.folder("hog-lists"), "kept.txt"))).toBe(true);
    expect(readdirSync(join(work, "tmp"))).toEqual([]);

    const log: string[] = [];
    expect(await ledgerIn(work).run("hog-lists", compute, (line) => log.push(line))).toEqual({ rows: [1, 2, 3], name: "hog lists" });
    expect(runs).toBe(1);
    expect(log).toEqual([`hog-lists: finished by an earlier run, loaded from ${ledger.folder("hog-lists")}`]);
  });

  it("runs a task again whose folder was removed after it finished, rather than failing to load it", async () => {
    const work = mkdtempSync(join(tmpdir(), "orth-ledger-gone-"));
    const ledger = ledgerIn(work);
    let runs = 0;
    const compute = async () => ({ run: ++runs });
    await ledger.run("indexes", compute);
    rmSync(ledger.folder("indexes"), { recursive: true });
    expect(existsSync(ledger.marker("indexes"))).toBe(true);
    // Not finished: a task that needs it waits for it (a workflow's job, --task, refuses to start).
    expect(ledger.isDone("indexes")).toBe(false);
    const log: string[] = [];
    expect(await ledger.run("indexes", compute, (line) => log.push(line))).toEqual({ run: 2 });
    expect(log).toEqual([`indexes: marked finished, but its output ${ledger.output("indexes")} is gone: run again`]);
    expect(ledger.isDone("indexes")).toBe(true);
  });

  it("leaves neither a folder nor a marker of a task that failed", async () => {
    const work = mkdtempSync(join(tmpdir(), "orth-ledger-failed-"));
    const ledger = ledgerIn(work);
    await expect(
      ledger.run("profiles", async (folder) => {
        writeFileSync(join(folder, "half.txt"), "half");
        throw new Error("profiles: no genomes");
      }),
    ).rejects.toThrow("profiles: no genomes");
    expect(ledger.isDone("profiles")).toBe(false);
    expect(existsSync(ledger.marker("profiles"))).toBe(false);
    expect(readdirSync(join(work, "tasks"))).toEqual([]);
    expect(readdirSync(join(work, "tmp"))).toEqual([]);
  });
});
