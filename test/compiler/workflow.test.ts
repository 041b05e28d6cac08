/**
 * The compile as a workflow: Snakemake (Debian's snakemake, workflow/Snakefile) runs each of the
 * compiler's tasks as a job of its own and gives the release `npm run compile` gives, on the
 * simulated release and on the real primates and OrthoFinder 3.1 releases (gene trees); a
 * second run (on the simulated release) finds nothing to do; a task run before the tasks it needs is refused.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { COMPILER_NODE_FLAGS } from "../../release-compiler/task-processes.js";
import { heapOf, MOST_WORKING, partOf, RELATION_PARTS, residentOf, TASK_NAMES, TASKS } from "../../release-compiler/tasks.js";
import { TEST_BUILD } from "../build-dir.js";
import { hasSharedData, warnWithoutSharedData } from "../shared-data.js";

const ROOT = resolve(import.meta.dirname, "../..");

/** A release's manifest and its pack names (each a hash of its bytes): equal lists are byte-identical releases. */
const releaseFiles = (dir: string) => [readFileSync(join(dir, "manifest.json"), "utf8"), ...readdirSync(join(dir, "packs")).sort()];

const run = (command: string, args: string[], cwd = ROOT) =>
  promisify(execFile)(command, args, { cwd, maxBuffer: 64 * 2 ** 20 }).then(
    (r) => ({ code: 0, ...r }),
    (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
  );

const WORKFLOW_MEMORY_MB = 3072;

/** Runs the workflow on a release's config, and with `again` a second time, which must find nothing to do. */
async function snakemake(config: string, again: boolean) {
  const dir = mkdtempSync(join(tmpdir(), "orth-workflow-"));
  // The jobs together within 3 GB (Snakemake's own resource, which each job's expected memory counts against).
  const args = ["--snakefile", join(ROOT, "workflow/Snakefile"), "--directory", dir, "--cores", "2", "--resources", `mem_mb=${WORKFLOW_MEMORY_MB}`, "--config", `release=${config}`, `out=${join(dir, "release")}`];
  const first = await run("snakemake", args, dir);
  return { out: join(dir, "release"), first, again: again ? await run("snakemake", args, dir) : undefined };
}

function expectSameRelease(workflow: Awaited<ReturnType<typeof snakemake>>, compiled: string) {
  expect(workflow.first.code, workflow.first.stderr).toBe(0);
  // Snakemake logs its jobs on stderr: one per task (the parts of the relations by one rule), and the release.
  const rules = [...TASK_NAMES.filter((name) => partOf(name) === undefined).map((name) => name.replaceAll("-", "_")), "release"];
  for (const rule of rules) expect(workflow.first.stderr.match(new RegExp(`^rule ${rule}:$`, "gm")), rule).toHaveLength(1);
  expect(workflow.first.stderr.match(/^rule relations_part:$/gm)).toHaveLength(RELATION_PARTS);
  expect(releaseFiles(workflow.out)).toEqual(releaseFiles(compiled));
  if (workflow.again) {
    expect(workflow.again.code).toBe(0);
    expect(workflow.again.stderr).toContain("Nothing to be done");
  }
}

describe("the Snakemake workflow", () => {
  it("gives the simulated release npm run compile gives, and finds nothing to do after", async () => {
    const config = join(TEST_BUILD, "sim-input/release.json");
    const workflow = await snakemake(config, true);
    expectSameRelease(workflow, join(TEST_BUILD, "sim"));
    // Its jobs were given the plan's hash of the inputs (--inputs), which names the tasks' outputs:
    // with it a finished task is found finished; with another, the tasks it needs are not.
    const task = (...args: string[]) => run(resolve(ROOT, "node_modules/.bin/tsx"), [resolve(ROOT, "release-compiler/cli.ts"), "--config", config, "--out", workflow.out, "--task", "relations", ...args]);
    const { inputs } = JSON.parse((await run(resolve(ROOT, "node_modules/.bin/tsx"), [resolve(ROOT, "release-compiler/cli.ts"), "--config", config, "--out", workflow.out, "--plan"])).stdout) as { inputs: string };
    expect((await task("--inputs", inputs)).code).toBe(0);
    const other = await task("--inputs", "0".repeat(64));
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("task relations needs task derive, which has not finished");
  });

  warnWithoutSharedData("the workflow on the primates-chr12 and OrthoFinder 3.1 releases");
  it.skipIf(!hasSharedData)("gives the primates-chr12 and OrthoFinder 3.1 releases npm run compile gives", async () => {
    // The second run that finds nothing to do is the simulated release's alone: it plans the same way for any inputs.
    expectSameRelease(await snakemake(join(ROOT, "test/fixtures/primates-chr12.release.json"), false), join(TEST_BUILD, "primates"));
    expectSameRelease(await snakemake(join(ROOT, "test/fixtures/orthofinder-mycoplasmoides-3.1.release.json"), false), join(TEST_BUILD, "orthofinder31"));
    // Two workflows of ~16 jobs each, every job a process of its own: ~45 s on two idle cores.
  }, 300_000);
});

describe("the compiler's node flags", () => {
  it("are those of npm run compile, its tasks side by side and the workflow's jobs", () => {
    const script = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.compile;
    const snakefile = readFileSync(join(ROOT, "workflow/Snakefile"), "utf8");
    expect(COMPILER_NODE_FLAGS.length).toBeGreaterThan(0);
    expect(script.split(" ").slice(1, -1)).toEqual(COMPILER_NODE_FLAGS);
    expect(snakefile).toContain(`NODE_FLAGS = [${COMPILER_NODE_FLAGS.map((f) => `"${f}"`).join(", ")}]`);
  });
});

describe("npm run compile -- --task", () => {
  it("refuses a task whose needs have not finished, and plans every task with the file that says it finished", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-task-"));
    const cli = (...args: string[]) =>
      run(resolve(ROOT, "node_modules/.bin/tsx"), [resolve(ROOT, "release-compiler/cli.ts"), "--config", join(TEST_BUILD, "sim-input/release.json"), "--out", join(dir, "release"), "--work", join(dir, "work"), ...args]);
    const early = await cli("--task", "family-tables");
    expect(early.code).toBe(2);
    expect(early.stderr).toContain(`task family-tables needs task derive, which has not finished in ${join(dir, "work")}`);
    expect((await cli("--task", "everything")).code).toBe(2);
    expect((await cli("--task", `relations-${RELATION_PARTS + 1}`)).code).toBe(2);

    type Memory = { least: number; fixed: number; perDerived: number; perGenomePair: number } | null;
    type Heap = { least: number; fixed: number; perDerived: number; perGenomePair: number; ofMemory: number };
    const plan = JSON.parse((await cli("--plan", "--memory", "3g")).stdout) as { out: string; work: string; memory: number; derived: string; counts: string; inputs: string; tasks: Record<string, { needs: string[]; threads: "all" | number; memory: Memory; heap: Heap; done: string }> };
    expect(plan.out).toBe(join(dir, "release"));
    expect(plan.inputs).toMatch(/^[0-9a-f]{64}$/);
    expect((await cli("--task", "family-tables", "--inputs", "not-a-hash")).code).toBe(2);
    expect((await cli("--plan", "--inputs", plan.inputs)).stderr).toContain("--inputs goes with --task");
    expect(Object.keys(plan.tasks)).toEqual(TASK_NAMES);
    expect(plan.tasks["family-tables"].needs).toEqual(["derive", "relations"]);
    expect(plan.tasks["annotation-tables"].needs).toEqual(["derive"]);
    expect(plan.tasks["protein-tables"].needs).toEqual(["derive", "relations", "family-tables", "annotation-tables"]);
    const parts = Array.from({ length: RELATION_PARTS }, (_, i) => `relations-${i + 1}`);
    expect(parts.every((part) => part in plan.tasks)).toBe(true);
    expect(plan.tasks.relations.needs).toEqual(["derive", ...parts]);
    expect(plan.tasks["relations-1"].needs).toEqual(["derive"]);
    expect(plan.tasks["relations-1"].threads).toBe(4);
    expect(plan.tasks.derive.threads).toBe("all");
    expect(plan.tasks["protein-tables"].threads).toBe(1);
    for (const name of TASK_NAMES) expect(plan.tasks[name].done).toMatch(new RegExp(`^${join(dir, "work", "done", name)}-[0-9a-f]{24}$`));
    // What each job asks for: the budget for derive (it runs alone), the others their expected resident set over the derived release.
    expect(plan.memory).toBe(3 * 2 ** 30);
    // The derived release's files, whose size the tasks' memory grows with: its snapshot, its sequences, exons and annotations, each with its offsets, its MD5s and loci.
    expect(plan.derived).toHaveLength(11);
    expect(plan.derived[0]).toMatch(new RegExp(`^${join(dir, "work", "tasks", "derive")}-[0-9a-f]{24}/output\\.v8$`));
    expect(plan.derived.slice(1)).toEqual(["sequences.bin", "sequences.bin.starts", "exons.bin", "exons.bin.starts", "annotations.bin", "annotations.bin.starts", "md5s.bin", "locus-starts.bin", "locus-ends.bin", "locus-strands.bin"].map((file) => join(plan.derived[0], "..", file)));
    expect(plan.counts).toBe(join(plan.derived[0], "..", "counts.json"));
    expect(plan.tasks.derive.memory).toBeNull();
    for (const name of TASK_NAMES.filter((n) => n !== "derive")) {
      expect(plan.tasks[name].memory!.fixed, name).toBeGreaterThan(0);
      const { least, fixed, perDerived, perGenomePair } = plan.tasks[name].memory!;
      const asked = Math.max(least, fixed + perDerived * 1e9 + perGenomePair * 2500 ** 2);
      // A task that sorts asks for all the working memory it can use, as much as shows in its resident set: a relations part's more than all of it, the sequence index's all of it (the array it places a range's postings in).
      const working = (TASKS[name].memory!.working ?? 0) * MOST_WORKING;
      if (name === "sequence-index") expect(working).toBe(MOST_WORKING);
      if (name.startsWith("relations-")) expect(working).toBeGreaterThan(MOST_WORKING);
      expect(Math.abs(asked - residentOf(name, { bytes: 1e9, genomes: 2500 }) - working), name).toBeLessThan(2);
    }
    // Each job's heap as the Snakefile computes it from the plan (heap_mb) is the compile's own task processes' (heapOf), for derive from the job's memory.
    for (const name of TASK_NAMES) {
      const { least, fixed, perDerived, perGenomePair, ofMemory } = plan.tasks[name].heap;
      for (const memory of [2 ** 30, 3 * 2 ** 30]) {
        const heap = Math.max(least, fixed + perDerived * 1e9 + perGenomePair * 2500 ** 2 + ofMemory * memory);
        expect(Math.abs(heap - heapOf(name, memory, { bytes: 1e9, genomes: 2500 })), name).toBeLessThan(2);
      }
    }
  });
});
