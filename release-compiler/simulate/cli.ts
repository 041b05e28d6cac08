/**
 * Command line of the release-input simulator:
 *   tsx release-compiler/simulate/cli.ts --out DIR [--genomes N] [--families N] [--seed S]
 *                                        [--no-hog-ids] [--name NAME] [--polyploid]
 *                                        [--family-breadth root|clade]
 * Exit codes: 0 done, 1 failure while simulating, 2 bad arguments.
 */
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { FAMILY_BREADTHS, type FamilyBreadth } from "./evolve.js";
import { ORGANISMS } from "./organisms.js";
import {
  DEFAULT_FAMILIES,
  DEFAULT_GENOMES,
  DEFAULT_SEED,
  MAX_FAMILIES,
  MAX_GENOMES,
  simulateRelease,
  type SimulationOptions,
} from "./simulate.js";

export const USAGE = `usage: npm run simulate -- --out DIR [--genomes N] [--families N] [--seed S] [--no-hog-ids] [--name NAME] [--polyploid] [--family-breadth root|clade]

Writes a simulated release input folder (release.json and its inputs) and truth/ to DIR.
  --out DIR        output folder (required)
  --genomes N      number of genomes, the first N of the built-in organisms (1..${MAX_GENOMES}, default ${DEFAULT_GENOMES}):
                   ${ORGANISMS.length} real organisms, then synthetic ones radiating inside their clades
  --families N     number of gene families to evolve (1..${MAX_FAMILIES}, default ${DEFAULT_FAMILIES});
                   proteins ~ genomes x families x 1.1 (root breadth), ~ families x 24 (clade breadth, 2,500 genomes)
  --seed S         random seed, a non-negative integer (default ${DEFAULT_SEED})
  --no-hog-ids     write hogs.orthoxml without group id attributes
  --name NAME      release name (default Simulated.<seed>)
  --polyploid      add hexaploid bread wheat (WHEAT, subgenomes A,B,D) with homoeologous genes
  --family-breadth root|clade
                   where families are born: root (most span all genomes; default up to ${ORGANISMS.length} genomes)
                   or clade (most span a clade; default above)
  --help           show this help`;

export class UsageError extends Error {}

function integer(flag: string, text: string | undefined, min: number, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < min || Number(text) > max) {
    throw new UsageError(`--${flag} must be an integer in ${min}..${max}, got '${text}'`);
  }
  return Number(text);
}

/** Parses the arguments (without `node script`); throws UsageError on bad arguments, returns null for --help. */
export function parseSimulateArgs(argv: string[]): SimulationOptions | null {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        out: { type: "string" },
        genomes: { type: "string" },
        families: { type: "string" },
        seed: { type: "string" },
        "no-hog-ids": { type: "boolean" },
        name: { type: "string" },
        polyploid: { type: "boolean" },
        "family-breadth": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return null;
  if (!values.out) throw new UsageError("--out DIR is required");
  if (values.name !== undefined && values.name.trim() === "") throw new UsageError("--name must not be empty");
  const breadth = values["family-breadth"];
  if (breadth !== undefined && !FAMILY_BREADTHS.includes(breadth as FamilyBreadth)) {
    throw new UsageError(`--family-breadth must be ${FAMILY_BREADTHS.join(" or ")}, got '${breadth}'`);
  }
  return {
    out: resolve(values.out),
    genomes: integer("genomes", values.genomes, 1, MAX_GENOMES),
    families: integer("families", values.families, 1, MAX_FAMILIES),
    seed: integer("seed", values.seed, 0, Number.MAX_SAFE_INTEGER),
    hogIds: !values["no-hog-ids"],
    name: values.name,
    polyploid: values.polyploid ?? false,
    familyBreadth: breadth as FamilyBreadth | undefined,
  };
}

export async function main(argv: string[]): Promise<number> {
  let options: SimulationOptions | null;
  try {
    options = parseSimulateArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`simulate: ${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  try {
    const s = await simulateRelease(options);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(
      `${s.name}: ${s.genomes} genomes, ${s.families} families (${s.familiesWritten} in hogs.orthoxml), ` +
        `${s.proteins} proteins (${s.mainIsoforms} genes, ${s.alternativeIsoforms} alternative isoforms), ` +
        `${s.orthologPairs} true ortholog pairs -> ${options.out} in ${seconds} s\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`simulate: ${(error as Error).stack ?? error}\n`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
