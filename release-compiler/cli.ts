#!/usr/bin/env node
/**
 * `npm run compile -- --config FILE --out DIR`: compiles one release. Each stage prints one
 * line (and draws a live bar on stderr when it is a terminal). Exit codes: 0 done (warnings, if any, printed
 * as file: warning: message), 1 input problems (each printed as file:line: message), 2 bad usage.
 * `--task NAME` runs one task, as a workflow's job (workflow/Snakefile); `--plan` prints the
 * tasks as JSON: what each needs, and the file that says it has finished.
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { compileRelease, compileTask, defaultMemory, planCompile, SIDE_BY_SIDE_INPUT_BYTES } from "./compile.js";
import { InputRejected } from "./problems.js";
import { TASK_OF_PARENT } from "./task-processes.js";
import { TASK_NAMES, UnfinishedTask, type TaskName } from "./tasks.js";

const USAGE = `usage: npm run compile -- --config FILE --out DIR [--jobs N] [--memory SIZE] [--verbose] [--align-pairs] [--work DIR] [--side-by-side | --in-process] [--task NAME [--inputs HASH] | --plan]
  --jobs N       worker threads (HOG family pairs and alignments, relation tables, k-mers), and threads the row engine sorts on (default: ${availableParallelism()}, the cores)
  --memory SIZE  the memory the compile keeps to, e.g. 4g or 512m (default: ${(defaultMemory() / 2 ** 30).toFixed(1)}g, half the machine's):
                 tasks run side by side while their expected resident sets fit in it, and sort out of core
                 in what theirs leave; with --task, the memory of that task alone
  --verbose      stage lines also give the heap, resident set and CPU time
  --align-pairs  every pairwise relation gets the score and distance of its alignment
  --work DIR     where finished tasks are kept, and kept after (default: OUT.work, removed once the release is in place);
                 a compile killed part-way and started again resumes from it
  --side-by-side the tasks side by side, each in a child process, as many at a time as the jobs allow
                 (the default with ${SIDE_BY_SIDE_INPUT_BYTES / 2 ** 30} GB of inputs or more), each with a heap sized to its share of --memory
  --in-process   every task in this process, one after another (the default otherwise)
  --task NAME    run one task, whose needs have finished in the work folder: ${[...TASK_NAMES, "release"].join(", ")} (release puts the release together)
  --inputs HASH  with --task: the hash of the inputs as the plan gave it (a workflow's jobs), so that the task
                 does not read every input file again to compute it (gigabytes at scale)
  --plan         print the tasks as JSON (what each needs, the file that says it finished, the inputs' hash), for a workflow`;

/** `4g`, `512m`, `4GB`, `2GiB`, or a number of bytes. */
function parseSize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?$/i.exec(text.trim());
  if (!match) return undefined;
  const bytes = Number(match[1]) * 1024 ** " kmgt".indexOf(match[2].toLowerCase() || " ");
  return bytes >= 1 ? Math.floor(bytes) : undefined;
}

async function main(): Promise<number> {
  // A task of a compile's side-by-side tasks (task-processes.ts) ends with the compile that started it.
  if (process.env[TASK_OF_PARENT]) {
    process.stdin.on("end", () => {
      console.error("the compile that started this task has ended; stopping");
      process.exit(1);
    });
    process.stdin.resume();
  }
  let values: { config?: string; out?: string; help?: boolean; verbose?: boolean; "align-pairs"?: boolean; jobs?: string; memory?: string; work?: string; task?: string; plan?: boolean; inputs?: string; "in-process"?: boolean; "side-by-side"?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: "string" },
        out: { type: "string" },
        jobs: { type: "string" },
        memory: { type: "string" },
        work: { type: "string" },
        task: { type: "string" },
        plan: { type: "boolean" },
        inputs: { type: "string" },
        "in-process": { type: "boolean" },
        "side-by-side": { type: "boolean" },
        help: { type: "boolean" },
        verbose: { type: "boolean" },
        "align-pairs": { type: "boolean" },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) {
    console.error(`--jobs takes a whole number of at least 1, not "${values.jobs}"\n${USAGE}`);
    return 2;
  }
  const memory = values.memory === undefined ? undefined : parseSize(values.memory);
  if (values.memory !== undefined && memory === undefined) {
    console.error(`--memory takes a size such as 4g or 512m, not "${values.memory}"\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (!values.config || !values.out) {
    console.error(`--config and --out are required\n${USAGE}`);
    return 2;
  }
  const task = values.task as TaskName | "release" | undefined;
  if (task !== undefined && ![...TASK_NAMES, "release"].includes(task)) {
    console.error(`--task takes one of ${[...TASK_NAMES, "release"].join(", ")}, not "${values.task}"\n${USAGE}`);
    return 2;
  }
  if (values["in-process"] && values["side-by-side"]) {
    console.error(`--side-by-side and --in-process do not go together\n${USAGE}`);
    return 2;
  }
  if (task !== undefined && values.plan) {
    console.error(`--task and --plan do not go together\n${USAGE}`);
    return 2;
  }
  if (values.inputs !== undefined && (task === undefined || !/^[0-9a-f]{64}$/.test(values.inputs))) {
    console.error(`--inputs goes with --task and takes the inputs' hash as --plan gives it (64 hex digits), not "${values.inputs}"\n${USAGE}`);
    return 2;
  }
  const options = {
    log: (line: string) => console.log(line),
    verbose: values.verbose ?? false,
    terminal: process.stderr,
    alignPairs: values["align-pairs"] ?? false,
    jobs,
    memory,
    work: values.work,
    inputsHash: values.inputs ?? (process.env[TASK_OF_PARENT] || undefined),
    ...(values["in-process"] ? { sideBySide: false } : values["side-by-side"] ? { sideBySide: true } : {}),
  };
  try {
    if (values.plan) {
      console.log(JSON.stringify(await planCompile(values.config, values.out, options), null, 2));
      return 0;
    }
    if (task !== undefined && task !== "release") {
      await compileTask(values.config, values.out, task, options);
      return 0;
    }
    const result = task === "release" ? (await compileTask(values.config, values.out, task, options))! : await compileRelease(values.config, values.out, options);
    for (const warning of result.warnings) console.error(warning);
    const { counts, name } = result.manifest;
    const mb = (result.stats.bytes / 1e6).toFixed(1);
    console.log(
      `compiled ${name} into ${result.outDir}: ${counts.genomes} genomes, ${counts.proteins} proteins, ` +
        `${counts.families} HOG families (${counts.hogs} HOG ids), ${counts.groups} groups; ` +
        `${result.stats.packs} packs (${result.stats.chunks} chunks), ${mb} MB, manifest ${result.stats.manifestBytes} B, header ${(result.stats.headerBytes / 1e3).toFixed(1)} kB, ` +
        `${result.stats.seconds.toFixed(1)} s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB${result.stats.sideBySide ? " (this process; the tasks' own processes not counted)" : ""}`,
    );
    return 0;
  } catch (error) {
    if (error instanceof InputRejected) {
      console.error(error.problems.format());
      console.error(`${error.problems.count} problem(s) in the inputs; nothing was written.`);
      return 1;
    }
    if (error instanceof UnfinishedTask) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
