#!/usr/bin/env node
/**
 * `npm run compile -- --config FILE --out DIR`: compiles one release. Each stage prints one
 * line (and draws a live bar on stderr when it is a terminal). Exit codes: 0 done (warnings, if any, printed
 * as file: warning: message), 1 input problems (each printed as file:line: message), 2 bad usage.
 */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { compileRelease, DEFAULT_ENGINE_MEMORY } from "./compile.js";
import { InputRejected } from "./problems.js";

const USAGE = `usage: npm run compile -- --config FILE --out DIR [--jobs N] [--memory SIZE] [--verbose] [--align-pairs]
  --jobs N       worker threads that derive (and align) the HOG families' pairs, and threads the row engine sorts on (default: ${availableParallelism()}, the cores)
  --memory SIZE  memory the row engine holds before it spills to disk, e.g. 4g or 512m (default: ${DEFAULT_ENGINE_MEMORY / 2 ** 30}g)
  --verbose      stage lines also give the heap and resident set
  --align-pairs  every pairwise relation gets the score and distance of its alignment`;

/** `4g`, `512m`, `4GB`, `2GiB`, or a number of bytes. */
function parseSize(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?$/i.exec(text.trim());
  if (!match) return undefined;
  const bytes = Number(match[1]) * 1024 ** " kmgt".indexOf(match[2].toLowerCase() || " ");
  return bytes >= 1 ? Math.floor(bytes) : undefined;
}

async function main(): Promise<number> {
  let values: { config?: string; out?: string; help?: boolean; verbose?: boolean; "align-pairs"?: boolean; jobs?: string; memory?: string };
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: "string" },
        out: { type: "string" },
        jobs: { type: "string" },
        memory: { type: "string" },
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
  try {
    const result = await compileRelease(values.config, values.out, {
      log: (line) => console.log(line),
      verbose: values.verbose ?? false,
      terminal: process.stderr,
      alignPairs: values["align-pairs"] ?? false,
      jobs,
      memory,
    });
    for (const warning of result.warnings) console.error(warning);
    const { counts, name } = result.manifest;
    const mb = (result.stats.bytes / 1e6).toFixed(1);
    console.log(
      `compiled ${name} into ${result.outDir}: ${counts.genomes} genomes, ${counts.proteins} proteins, ` +
        `${counts.families} HOG families (${counts.hogs} HOG ids), ${counts.groups} groups; ` +
        `${result.stats.packs} packs (${result.stats.chunks} chunks), ${mb} MB, manifest ${result.stats.manifestBytes} B, header ${(result.stats.headerBytes / 1e3).toFixed(1)} kB, ` +
        `${result.stats.seconds.toFixed(1)} s, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
    return 0;
  } catch (error) {
    if (error instanceof InputRejected) {
      console.error(error.problems.format());
      console.error(`${error.problems.count} problem(s) in the inputs; nothing was written.`);
      return 1;
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
