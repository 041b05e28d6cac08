#!/usr/bin/env node
/**
 * `npm run compile -- --config FILE --out DIR`: compiles one release. Exit codes: 0 done
 * (warnings, if any, printed as file: warning: message), 1 input problems (each printed as
 * file:line: message), 2 bad usage.
 */
import { parseArgs } from "node:util";
import { compileRelease } from "./compile.js";
import { InputRejected } from "./problems.js";

const USAGE = "usage: npm run compile -- --config FILE --out DIR [--verbose] [--align-pairs]";

async function main(): Promise<number> {
  let values: { config?: string; out?: string; help?: boolean; verbose?: boolean; "align-pairs"?: boolean };
  try {
    ({ values } = parseArgs({
      options: { config: { type: "string" }, out: { type: "string" }, help: { type: "boolean" }, verbose: { type: "boolean" }, "align-pairs": { type: "boolean" } },
      strict: true,
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
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
      log: values.verbose ? (m) => console.log(m) : undefined,
      alignPairs: values["align-pairs"] ?? false,
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
