/**
 * The compiler as a whole: byte-identical output for the same inputs, every input problem
 * reported with file and line, nothing written over a good release when inputs are bad, and
 * the CLI's exit codes.
 */
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { compileRelease } from "../../release-compiler/compile.js";
import { runTasksSideBySide } from "../../release-compiler/task-processes.js";
import { RELATION_PARTS } from "../../release-compiler/tasks.js";
import { readDerivedLine } from "../../release-compiler/stages.js";
import { ANNOTATION_TABLES_STAGE, HOG_INDEX_STAGE, HOG_LISTS_STAGE, INDEXES_STAGE, PROTEIN_TABLES_STAGE, PUT_RELATIONS_TOGETHER, relationsPartStage } from "../../release-compiler/write/release.js";
import { InputRejected } from "../../release-compiler/problems.js";
import { simulateRelease } from "../../release-compiler/simulate/simulate.js";
import { folderFiles } from "../../release-compiler/local/r2-loader.js";
import { releasePacks } from "../../release-compiler/local/release-packs.js";
import { HASH_HEX_LENGTH } from "../../release-format/format.js";
import { hasSharedData, warnWithoutSharedData } from "../shared-data.js";

const ROOT = resolve(import.meta.dirname, "../..");
let input: string;

beforeAll(async () => {
  input = join(mkdtempSync(join(tmpdir(), "orth-compile-")), "input");
  await simulateRelease({ out: input, genomes: 6, families: 60, seed: 11, name: "Compile.Test" });
});

/** A copy of the simulated inputs to break. */
function copyOfInput(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "orth-broken-")), "input");
  cpSync(input, dir, { recursive: true });
  return dir;
}

async function problemsOf(config: string, out: string): Promise<string[]> {
  try {
    await compileRelease(config, out);
  } catch (error) {
    if (error instanceof InputRejected) return error.problems.list.map((p) => `${p.file}:${p.line}: ${p.message}`);
    throw error;
  }
  throw new Error("compile accepted broken inputs");
}

/** This small release's work on worker threads all the same (workers.ts threadsAlways), in this test and the processes it starts. */
const threadsAlways = () => vi.stubEnv("ORTH_THREADS_ALWAYS", "1");
afterEach(() => {
  vi.unstubAllEnvs();
});

describe("compileRelease", () => {
  it("gives byte-identical releases for the same inputs", async () => {
    const out = mkdtempSync(join(tmpdir(), "orth-twice-"));
    const a = await compileRelease(join(input, "release.json"), join(out, "a"));
    const b = await compileRelease(join(input, "release.json"), join(out, "b"));
    const files = (dir: string) => readdirSync(join(dir, "packs")).sort();
    expect(readdirSync(a.outDir).sort()).toEqual(["manifest.json", "packs"]);
    expect(files(a.outDir)).toEqual(files(b.outDir));
    expect(readFileSync(join(a.outDir, "manifest.json"))).toEqual(readFileSync(join(b.outDir, "manifest.json")));
    for (const f of files(a.outDir)) expect(readFileSync(join(a.outDir, "packs", f)).equals(readFileSync(join(b.outDir, "packs", f)))).toBe(true);
    // Every pack the release's trees name is there, and nothing else; each is named by its hash.
    const { packs } = await releasePacks(await folderFiles(a.outDir));
    expect(packs.map((name) => `${name}.pack`).sort()).toEqual(files(a.outDir));
    for (const name of packs) {
      expect(createHash("sha256").update(readFileSync(join(a.outDir, "packs", `${name}.pack`))).digest("hex").slice(0, HASH_HEX_LENGTH)).toBe(name);
    }
    expect(a.stats.packs).toBe(packs.length);
    expect(readdirSync(out).sort()).toEqual(["a", "b"]);
  });

  it("types a pairs file's orthologs by their co-orthologs as the truth types them, and names where a pair repeated was first given", async () => {
    const dir = copyOfInput();
    const rows = readFileSync(join(dir, "truth/orthologs.tsv"), "utf8").trimEnd().split("\n").slice(1).map((line) => line.split("\t"));
    const config = JSON.parse(readFileSync(join(dir, "release.json"), "utf8")) as Record<string, unknown>;
    const withPairs = (name: string, lines: string[]) => {
      writeFileSync(join(dir, `${name}.tsv`), `${lines.join("\n")}\n`);
      writeFileSync(join(dir, `${name}.json`), JSON.stringify({ ...config, pairs: `${name}.tsv` }));
      return join(dir, `${name}.json`);
    };
    const typed = withPairs("typed", rows.map((r) => r.join("\t")));
    const untyped = withPairs("untyped", rows.map(([a, b]) => `${a}\t${b}`));
    const out = mkdtempSync(join(tmpdir(), "orth-pairs-"));
    await compileRelease(typed, join(out, "typed"));
    await compileRelease(untyped, join(out, "untyped"));
    expect(rows.some(([, , type]) => type !== "1:1")).toBe(true);
    expect(releaseFiles(join(out, "untyped"))).toEqual(releaseFiles(join(out, "typed")));
    // The first pair again, the other way round, on the last line.
    const [first, second] = rows[0];
    const repeated = withPairs("repeated", [...rows.map(([a, b]) => `${a}\t${b}`), `${second}\t${first}`]);
    expect(await problemsOf(repeated, join(out, "repeated"))).toEqual([`${join(dir, "repeated.tsv")}:${rows.length + 1}: the pair ${second}, ${first} was already given on line 1`]);
  });

  it("reports every problem of every input with its file and line, and keeps the old release", async () => {
    const dir = copyOfInput();
    const out = join(mkdtempSync(join(tmpdir(), "orth-keep-")), "release");
    const good = await compileRelease(join(dir, "release.json"), out);
    const before = readFileSync(join(out, "manifest.json"));

    const code = good.manifest.genomes[0].code;
    const fasta = join(dir, "proteome", `${code}.fa`);
    const fastaLines = readFileSync(fasta, "utf8").split("\n").length;
    appendFileSync(fasta, ">TRUNCATED_AT_END\n");
    const gff = join(dir, "gff3", `${code}.gff`);
    const gffLines = readFileSync(gff, "utf8").trimEnd().split("\n");
    const cds = gffLines.findIndex((l) => l.split("\t")[2] === "CDS");
    const fields = gffLines[cds].split("\t");
    [fields[3], fields[4]] = ["900", "100"];
    gffLines[cds] = fields.join("\t");
    writeFileSync(gff, `${gffLines.join("\n")}\n`);
    const orthoxml = join(dir, "hogs.orthoxml");
    const xml = readFileSync(orthoxml, "utf8").replace(/protId="[^"]+"/, 'protId="NOT_A_PROTEIN"');
    writeFileSync(orthoxml, xml);
    const gaf = join(dir, "annotations/go.gaf");
    const gafText = readFileSync(gaf, "utf8").trimEnd();
    writeFileSync(gaf, `${gafText}\nUniProtKB\tX1\tx\tenables\tGO:0003674\n`);

    const problems = await problemsOf(join(dir, "release.json"), out);
    const protLine = xml.split("\n").findIndex((l) => l.includes("NOT_A_PROTEIN")) + 1;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`proteome/${code}\\.fa:${fastaLines}: .*no sequence`)),
        expect.stringMatching(new RegExp(`gff3/${code}\\.gff:${cds + 1}: .*end 100 .*start 900`)),
        `${orthoxml}:${protLine}: protein NOT_A_PROTEIN of the HOGs is not in the proteomes`,
        expect.stringMatching(new RegExp(`annotations/go\\.gaf:${gafText.split("\n").length + 1}: .*column`)),
      ]),
    );
    expect(readFileSync(join(out, "manifest.json"))).toEqual(before);
    expect(readdirSync(resolve(out, "..")).sort()).toEqual(["release"]);
  });

  it("reports duplicate protein ids, unbalanced Newick and unknown config keys", async () => {
    const dir = copyOfInput();
    const config = JSON.parse(readFileSync(join(dir, "release.json"), "utf8"));
    const [first, second] = readFileSync(join(dir, "species_info.tsv"), "utf8").split("\n").slice(1, 3).map((l) => l.split("\t")[0]);
    const firstId = /^>(\S+)/m.exec(readFileSync(join(dir, "proteome", `${first}.fa`), "utf8"))![1];
    appendFileSync(join(dir, "proteome", `${second}.fa`), `>${firstId}\nMKV\n`);
    let problems = await problemsOf(join(dir, "release.json"), join(dir, "out"));
    expect(problems.some((p) => p.includes(`${second}.fa`) && p.includes(`protein id ${firstId} is used twice`))).toBe(true);

    writeFileSync(join(dir, "species_tree.nwk"), "((A,B)x,C;");
    problems = await problemsOf(join(dir, "release.json"), join(dir, "out"));
    expect(problems.some((p) => p.includes("species_tree.nwk:1") && /unbalanced|not closed/.test(p))).toBe(true);

    writeFileSync(join(dir, "release.json"), JSON.stringify({ ...config, proteome: "x" }));
    problems = await problemsOf(join(dir, "release.json"), join(dir, "out"));
    expect(problems.some((p) => p.includes("release.json") && p.includes("proteome"))).toBe(true);
  });
});

/** A release's manifest and its pack names (each a hash of its bytes): equal lists are byte-identical releases. */
const releaseFiles = (dir: string) => [readFileSync(join(dir, "manifest.json"), "utf8"), ...readdirSync(join(dir, "packs")).sort()];

describe("npm run compile", () => {
  const cli = (args: string[]) =>
    promisify(execFile)(resolve(ROOT, "node_modules/.bin/tsx"), [resolve(ROOT, "release-compiler/cli.ts"), ...args], { cwd: ROOT }).then(
      (r) => ({ code: 0, ...r }),
      (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }),
    );

  it("compiles, and exits 1 with located problems or 2 on bad usage", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "orth-cli-")), "release");
    const ok = await cli(["--config", join(input, "release.json"), "--out", out]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/compiled Compile\.Test into .*: 6 genomes/);

    const broken = copyOfInput();
    writeFileSync(join(broken, "species_info.tsv"), "Name\tNCBITaxonId\nHUMAN\tnine\n");
    const bad = await cli(["--config", join(broken, "release.json"), "--out", out]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/species_info\.tsv:2: /);
    expect(bad.stderr).toMatch(/problem\(s\) in the inputs; nothing was written/);

    expect((await cli(["--config", join(input, "release.json")])).code).toBe(2);
    expect((await cli(["--bogus"])).code).toBe(2);
    for (const [flag, value] of [["--jobs", "0"], ["--jobs", "two"], ["--memory", "lots"], ["--memory", "0g"]]) {
      const usage = await cli(["--config", join(input, "release.json"), "--out", out, flag, value]);
      expect(usage.code, `${flag} ${value}`).toBe(2);
      expect(usage.stderr).toContain(`${flag} takes`);
    }
    const both = await cli(["--config", join(input, "release.json"), "--out", out, "--side-by-side", "--in-process"]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("--side-by-side and --in-process do not go together");
  });

  it("prints one line per stage, and gives the same bytes whatever its jobs, its memory and the segments of its maps", async () => {
    threadsAlways();
    const dir = mkdtempSync(join(tmpdir(), "orth-cli-"));
    const one = await cli(["--config", join(input, "release.json"), "--out", join(dir, "one"), "--jobs", "1", "--memory", "64m"]);
    const two = await cli(["--config", join(input, "release.json"), "--out", join(dir, "two"), "--jobs", "2", "--memory", "1GiB", "--verbose"]);
    // Every BigMap of the compile (collections.ts) split into parts of at most 7 keys and every
    // BigArray in segments of 4, as a release past 2^23 proteins, ids or HOG ids has them: each
    // key is found in the part its hash names (a key not found makes an input problem).
    vi.stubEnv("ORTH_EDGE_MAP_SEGMENT", "7");
    const segmented = await cli(["--config", join(input, "release.json"), "--out", join(dir, "segmented"), "--jobs", "2"]);
    expect(segmented.code, segmented.stderr).toBe(0);
    expect(releaseFiles(join(dir, "segmented"))).toEqual(releaseFiles(join(dir, "one")));
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^pairwise relations: \d+\.\d s$/m);
    expect(one.stdout).toMatch(/^write sequence index: \d+\.\d s$/m);
    expect(two.stdout).toMatch(/^write sequence index: \d+\.\d s \(heap \d+ MB, RSS \d+ MB, peak \d+ MB, main thread \d+% busy, CPU \d+\.\d s\)$/m);
    // Not a terminal: no live bar.
    expect(one.stderr).not.toContain("\r");
    expect(releaseFiles(join(dir, "two"))).toEqual(releaseFiles(join(dir, "one")));
  });

  warnWithoutSharedData("the bacteria3 release with its maps in segments");
  it.skipIf(!hasSharedData)("gives bacteria3 (a groups file, a pairs file) the same bytes with its maps in segments of 7", async () => {
    // The groups come out in the order of their first row and the given pairs are checked for
    // repeats through BigMaps: split into parts of at most 7 keys here, in hash order, not insertion order.
    const dir = mkdtempSync(join(tmpdir(), "orth-segments-"));
    const config = resolve(ROOT, "test/fixtures/bacteria3.release.json");
    const plain = await cli(["--config", config, "--out", join(dir, "plain")]);
    vi.stubEnv("ORTH_EDGE_MAP_SEGMENT", "7");
    const segmented = await cli(["--config", config, "--out", join(dir, "segmented")]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(segmented.code, segmented.stderr).toBe(0);
    expect(releaseFiles(join(dir, "segmented"))).toEqual(releaseFiles(join(dir, "plain")));
  });

  it("runs its tasks side by side in processes of their own, with the same bytes and every task's stage lines", async () => {
    threadsAlways();
    const dir = mkdtempSync(join(tmpdir(), "orth-apart-"));
    const lines: string[] = [];
    const apart = await compileRelease(join(input, "release.json"), join(dir, "apart"), { jobs: 2, sideBySide: true, log: (line) => lines.push(line) });
    const together = await compileRelease(join(input, "release.json"), join(dir, "together"), { jobs: 2, sideBySide: false });
    expect([apart.stats.sideBySide, together.stats.sideBySide]).toEqual([true, false]);
    expect(releaseFiles(apart.outDir)).toEqual(releaseFiles(together.outDir));
    const parts = Array.from({ length: RELATION_PARTS }, (_, i) => relationsPartStage(i + 1));
    for (const stage of ["pairwise relations", ...parts, PUT_RELATIONS_TOGETHER, "write group, family and pair directory tables", ANNOTATION_TABLES_STAGE, PROTEIN_TABLES_STAGE, "write sequence index", "write cross-reference search", HOG_LISTS_STAGE, INDEXES_STAGE, HOG_INDEX_STAGE, "the tasks side by side"]) {
      expect(lines.filter((line) => line.startsWith(`${stage}: `)), stage).toHaveLength(1);
    }
    expect(lines.filter((line) => line.includes("finished by an earlier run"))).toEqual([]);
    // Derive names the size of what it derived, once (not again as each task's process loads it), for a projection to read back.
    expect(lines.filter((line) => line.startsWith("the derived release: "))).toHaveLength(1);
    const derived = readDerivedLine(lines.join("\n"))!;
    expect(derived.genomes).toBe(apart.manifest.counts.genomes);
    expect(derived.bytes).toBeGreaterThan(apart.manifest.counts.proteins * 100);
  });

  it("fails with the end of a failed task's output when its tasks run side by side", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-apart-failed-"));
    const missing = join(dir, "missing.json");
    const run = runTasksSideBySide(["relations-1", "xref-search"], {
      args: ["--config", missing, "--out", join(dir, "release"), "--work", join(dir, "work")],
      jobs: 2,
      memoryBytes: 2 ** 30,
      scale: () => ({ bytes: 0, genomes: 0 }),
      inputsHash: "0".repeat(64),
      isDone: (name) => name === "derive",
    });
    await expect(run).rejects.toThrow(new RegExp(`^task relations-1 failed \\(exit code 1\\):\\n[^]*${missing.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  });

  it("killed part-way, resumes from its finished tasks, leaves nothing behind, and gives the same bytes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-killed-"));
    const out = join(dir, "release");
    const child = spawn(resolve(ROOT, "node_modules/.bin/tsx"), [resolve(ROOT, "release-compiler/cli.ts"), "--config", join(input, "release.json"), "--out", out], { cwd: ROOT, stdio: "ignore" });
    let exit: number | null | undefined;
    const closed = new Promise((done) => child.on("close", (code) => done((exit = code))));
    // tsx runs the compile in a child of its own: kill the whole group once the relations task has finished.
    const finished = () => (existsSync(join(dir, "release.work", "done")) ? readdirSync(join(dir, "release.work", "done")) : []);
    await new Promise<void>((done) => {
      const poll = setInterval(() => {
        if (finished().some((name) => name.startsWith("relations-"))) {
          clearInterval(poll);
          spawn("pkill", ["-KILL", "-f", `release-compiler/cli.ts.*${out}`]).on("close", () => done());
        }
      }, 10);
    });
    await closed;
    expect(exit, "the compile finished before it was killed").not.toBe(0);
    expect(existsSync(join(out, "manifest.json"))).toBe(false);
    const before = finished();
    expect(before.some((name) => name.startsWith("derive-"))).toBe(true);

    const again = await cli(["--config", join(input, "release.json"), "--out", out]);
    expect(again.code).toBe(0);
    for (const name of before) expect(again.stdout).toContain(`${name.replace(/-[0-9a-f]+$/, "")}: finished by an earlier run, loaded from ${join(dir, "release.work", "tasks", name)}`);
    expect(again.stdout).toMatch(/^load the derived release: /m);
    expect(again.stdout).toMatch(/^write sequence index: /m);
    expect(again.stdout).not.toMatch(/^pairwise relations: /m);
    expect(readdirSync(dir)).toEqual(["release"]);
    const clean = await compileRelease(join(input, "release.json"), join(dir, "clean"));
    expect(releaseFiles(out)).toEqual(releaseFiles(clean.outDir));
  });
});
