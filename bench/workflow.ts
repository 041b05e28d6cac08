/**
 * The compile as tasks (release-compiler/tasks.ts), on the compile benchmark's largest input
 * (about 10^6 proteins over 100 genomes), side by side in one run:
 * - `npm run compile -- --jobs 2 --in-process` in one process (its work folder kept, to weigh what a task keeps);
 * - the same with the tasks after derive side by side, each a child process (`--side-by-side`);
 * - the same, killed once the relations task (its parts put together) has finished, then started again: it resumes;
 * - the Snakemake workflow (workflow/Snakefile, `snakemake --cores 2`): each task a job, the
 *   writing tasks side by side when cores allow; Snakemake's own per-job record (benchmark:)
 *   gives each task's wall time and peak resident set.
 * Each within 4 GB (`--memory 4g`; Snakemake: `--resources mem_mb=4096`) and a heap limit of 3,584 MB. Reports wall time, peak resident set (a
 * workflow's: of all its processes together, sampled), whether the releases are byte-identical,
 * and what keeping the tasks costs: the derived release's snapshot, and its saving and loading.
 * Each compile's log is kept beside where its release was (build/bench/workflow/*.log).
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { openReleaseFolder } from "../release-compiler/local/folder-storage.js";
import { readStageLines } from "../release-compiler/stages.js";
import { partOf, TASK_NAMES } from "../release-compiler/tasks.js";
import { SIDE_BY_SIDE_STAGE } from "../release-compiler/compile.js";
import { COMPILER_NODE_FLAGS } from "../release-compiler/task-processes.js";
import { compileScratch, runMeasured, type MeasuredRun } from "./measured-run.js";

const ROOT = resolve(import.meta.dirname, "..");
const OUT = resolve(ROOT, "build/bench/workflow");
const HEAP_MB = 3584;
/** The compiles' memory budget. */
const MEMORY = "4g";
const MEMORY_MB = 4096;
/** The compile benchmark's largest input (bench/compile.ts), simulated there (`BENCH_COMPILE_QUICK=1`: its quick one, 60k proteins). */
const INPUT = resolve(ROOT, "build/bench/compile-input", process.env.BENCH_COMPILE_QUICK ? "g100-f540-s1" : "g100-f9000-s1");

interface Run {
  name: string;
  seconds: number;
  peakMb: number;
  tempBytes: number;
  manifest: string;
  detail: string;
}

const cli = (out: string, extra: string[] = []) => [
  `--max-old-space-size=${HEAP_MB}`,
  ...COMPILER_NODE_FLAGS,
  "--import",
  "tsx",
  resolve(ROOT, "release-compiler/cli.ts"),
  "--config",
  resolve(INPUT, "release.json"),
  "--out",
  out,
  "--jobs",
  "2",
  "--memory",
  MEMORY,
  "--verbose",
  ...extra,
];

const stageSeconds = (output: string, name: string) => readStageLines(output).find((l) => l.name === name)?.seconds ?? NaN;

function checked(run: MeasuredRun, what: string): MeasuredRun {
  if (run.code !== 0) throw new Error(`${what} failed (${run.code}):\n${run.output.slice(-4000)}`);
  return run;
}

export async function workflowBenchmark(log: (line: string) => void): Promise<string> {
  if (!existsSync(resolve(INPUT, "release.json"))) throw new Error(`no input at ${INPUT}: run npm run bench -- --only compile first`);
  rmSync(OUT, { recursive: true, force: true });
  const runs: Run[] = [];
  // Each release is removed once its manifest is read (which names every chunk by its hash): three at 1M do not fit beside each other.
  const manifestOf = (out: string) => {
    const manifest = readFileSync(join(out, "manifest.json"), "utf8");
    rmSync(out, { recursive: true, force: true });
    return manifest;
  };

  // One process, its work folder kept to weigh the derived release.
  const whole = join(OUT, "whole");
  log(`compiling ${INPUT} in one process (npm run compile -- --in-process)…`);
  const one = checked(await runMeasured(process.execPath, cli(whole, ["--work", `${whole}.work`, "--in-process"]), { cwd: ROOT, scratchOf: (pid) => compileScratch(whole, pid) }), "compile");
  writeFileSync(`${whole}.log`, one.output);
  const tasks = join(`${whole}.work`, "tasks");
  const derived = readdirSync(tasks).find((name) => name.startsWith("derive-"))!;
  const snapshotBytes = statSync(join(tasks, derived, "output.v8")).size;
  const keep = stageSeconds(one.output, "keep the derived release");
  const proteins = (await openReleaseFolder(whole)).manifest.counts.proteins;
  runs.push({ name: "npm run compile -- --in-process", seconds: one.seconds, peakMb: one.peakKb / 1024, tempBytes: one.peakScratchBytes, manifest: manifestOf(whole), detail: `keeping the derived release: ${keep.toFixed(1)} s` });
  rmSync(`${whole}.work`, { recursive: true, force: true });

  // The tasks after derive side by side, each a child process (release-compiler/task-processes.ts).
  const apart = join(OUT, "side-by-side");
  log("compiling with the tasks side by side (npm run compile -- --side-by-side)…");
  const sides = checked(await runMeasured(process.execPath, cli(apart, ["--side-by-side"]), { cwd: ROOT, tree: true, scratchOf: (pid) => compileScratch(apart, pid) }), "side-by-side compile");
  writeFileSync(`${apart}.log`, sides.output);
  runs.push({
    name: "npm run compile -- --side-by-side",
    seconds: sides.seconds,
    peakMb: sides.peakKb / 1024,
    tempBytes: sides.peakScratchBytes,
    manifest: manifestOf(apart),
    detail: `the tasks after derive: ${stageSeconds(sides.output, SIDE_BY_SIDE_STAGE).toFixed(0)} s side by side`,
  });

  // Killed once the relations task has finished, then started again.
  const resumed = join(OUT, "resumed");
  log("compiling again, killed once the relations task has finished…");
  const killedSeconds = await killedAfter(resumed, "relations");
  log(`killed after ${killedSeconds.toFixed(0)} s; starting again…`);
  const again = checked(await runMeasured(process.execPath, cli(resumed), { cwd: ROOT, tree: true, scratchOf: (pid) => compileScratch(resumed, pid) }), "resumed compile");
  writeFileSync(`${resumed}.log`, again.output);
  const load = stageSeconds(again.output, "load the derived release");
  runs.push({
    name: "killed after the relations task, started again",
    seconds: killedSeconds + again.seconds,
    peakMb: again.peakKb / 1024,
    tempBytes: again.peakScratchBytes,
    manifest: manifestOf(resumed),
    detail: `${killedSeconds.toFixed(0)} s until killed + ${again.seconds.toFixed(0)} s started again (loading the derived release: ${load.toFixed(1)} s)`,
  });

  // Snakemake: every task a job.
  const workflow = join(OUT, "snakemake");
  log("compiling with snakemake --cores 2…");
  const snake = checked(
    await runMeasured(
      "snakemake",
      ["--snakefile", resolve(ROOT, "workflow/Snakefile"), "--directory", OUT, "--cores", "2", "--resources", `mem_mb=${MEMORY_MB}`, "--config", `release=${resolve(INPUT, "release.json")}`, `out=${workflow}`],
      { cwd: OUT, env: { ...process.env, NODE_OPTIONS: `--max-old-space-size=${HEAP_MB}` }, tree: true, scratchOf: (pid) => compileScratch(workflow, pid) },
    ),
    "snakemake",
  );
  writeFileSync(`${workflow}.log`, snake.output);
  // A part of the relations (one rule for all, workflow/Snakefile) has its record named by its done file's key too.
  const records = readdirSync(join(`${workflow}.work`, "benchmarks"));
  const recordOf = (task: string) => records.find((file) => file === `${task}.tsv` || (partOf(task) !== undefined && new RegExp(`^${task}-[0-9a-f]+\\.tsv$`).test(file)))!;
  const jobs = [...TASK_NAMES, "release"].map((task) => ({ task, ...snakemakeRecord(join(`${workflow}.work`, "benchmarks", recordOf(task))) }));
  runs.push({
    name: "snakemake --cores 2",
    seconds: snake.seconds,
    peakMb: snake.peakKb / 1024,
    tempBytes: snake.peakScratchBytes,
    manifest: manifestOf(workflow),
    detail: "each task a job: see below",
  });
  rmSync(`${workflow}.work`, { recursive: true, force: true });

  const same = runs.every((r) => r.manifest === runs[0].manifest);
  for (const r of runs) log(`${r.name}: ${r.seconds.toFixed(0)} s, peak ${r.peakMb.toFixed(0)} MB`);
  return [
    `Input: the compile benchmark's largest (${proteins.toLocaleString("en-US")} proteins over 100 genomes, \`${INPUT.slice(ROOT.length + 1)}\`), each compile with \`--jobs 2 --memory ${MEMORY}\` (Snakemake: \`--resources mem_mb=${MEMORY_MB}\`) and a heap limit of ${HEAP_MB} MB, one after the other in one run. ` +
      `Peak RSS: the process's high-water mark; side by side and for Snakemake, the resident sets of all its processes together, sampled every 100 ms. Temp disk: the largest the work folder's tasks and scratch grew (row engine databases and spill files, the derived release), not its packs, which become the release. ` +
      `The ${runs.length} releases are ${same ? "byte-identical (the same manifest, which names every chunk by its hash)" : "NOT byte-identical"}.`,
    "",
    "| compile | wall | peak RSS | temp disk | |",
    "|---|---|---|---|---|",
    ...runs.map((r) => `| ${r.name} | ${r.seconds.toFixed(0)} s | ${r.peakMb.toFixed(0)} MB | ${(r.tempBytes / 1e9).toFixed(2)} GB | ${r.detail} |`),
    "",
    `What a finished task keeps: the derived release (every table the writing tasks read, as V8 serializes it) is ${(snapshotBytes / 1e6).toFixed(0)} MB at this size; keeping it took ${keep.toFixed(1)} s of the one-process compile. It is read lazily: each writing task (in one process, afresh for each; or as a Snakemake job) reads the fields it uses when it first uses them, inside its own stage; the resumed compile's "load the derived release" (${load.toFixed(1)} s) is reading the config, hashing the inputs and locating the fields. The compiles' logs are kept in \`${OUT.slice(ROOT.length + 1)}/\`.`,
    "",
    "The Snakemake jobs, from Snakemake's own record of each (`benchmark:` in the Snakefile; seconds of wall time, peak resident set of the job):",
    "",
    "| task | wall | peak RSS |",
    "|---|---|---|",
    ...jobs.map((j) => `| ${j.task} | ${j.seconds.toFixed(1)} s | ${j.maxRssMb.toFixed(0)} MB |`),
  ].join("\n");
}

/** Starts a compile and kills it once task `task` has finished; returns the seconds it ran. */
async function killedAfter(out: string, task: string): Promise<number> {
  const started = performance.now();
  // Killed alone: a compile's tasks side by side stop when it dies (release-compiler/task-processes.ts).
  const child = spawn(process.execPath, cli(out), { cwd: ROOT, stdio: "ignore" });
  let exited: number | null | undefined;
  const closed = new Promise<void>((done) => child.on("close", (code) => ((exited = code), done())));
  const done = join(`${out}.work`, "done");
  await new Promise<void>((finished) => {
    const poll = setInterval(() => {
      if (exited !== undefined || (existsSync(done) && readdirSync(done).some((name) => new RegExp(`^${task}-[0-9a-f]+$`).test(name)))) {
        clearInterval(poll);
        child.kill("SIGKILL");
        finished();
      }
    }, 50);
  });
  await closed;
  if (exited === 0) throw new Error("the compile finished before it could be killed");
  return (performance.now() - started) / 1000;
}

/** A Snakemake benchmark file: a header line, then `s h:m:s max_rss …` of the job. */
function snakemakeRecord(path: string): { seconds: number; maxRssMb: number } {
  const [header, values] = readFileSync(path, "utf8").trim().split("\n").map((line) => line.split("\t"));
  const at = (name: string) => Number(values[header.indexOf(name)]);
  return { seconds: at("s"), maxRssMb: at("max_rss") };
}
