import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { main, parseSimulateArgs, UsageError } from "../../../release-compiler/simulate/cli.js";
import { MAX_GENOMES } from "../../../release-compiler/simulate/species-tree.js";
import { tempDir } from "./helpers.js";

const root = tempDir("simulate-cli");
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

function capture(): { err: () => string; out: () => string } {
  let err = "";
  let out = "";
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
    err += String(chunk);
    return true;
  });
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  return { err: () => err, out: () => out };
}

describe("simulate command line", () => {
  it("parses flags", () => {
    expect(parseSimulateArgs(["--out", "x", "--genomes", "5", "--families=30", "--seed", "9", "--no-hog-ids", "--name", "Demo"])).toMatchObject({
      genomes: 5,
      families: 30,
      seed: 9,
      hogIds: false,
      name: "Demo",
    });
    expect(parseSimulateArgs(["--out", "x"])).toMatchObject({ hogIds: true, genomes: undefined, families: undefined });
    expect(parseSimulateArgs(["--help"])).toBeNull();
  });

  it.each([
    [["--genomes", "3"], "--out DIR is required"],
    [["--out", "x", "--genomes", "0"], "--genomes must be an integer"],
    [["--out", "x", "--genomes", "abc"], "--genomes must be an integer"],
    [["--out", "x", "--genomes", String(MAX_GENOMES + 1)], `1..${MAX_GENOMES}`],
    [["--out", "x", "--genomes", "2.5"], "--genomes must be an integer"],
    [["--out", "x", "--families", "-4"], ""],
    [["--out", "x", "--seed", "x1"], "--seed must be an integer"],
    [["--out", "x", "--frobnicate"], "frobnicate"],
    [["--out", "x", "extra"], "extra"],
    [["--out", "x", "--name", ""], "--name"],
  ])("rejects %j with exit code 2 and the usage", async (argv, message) => {
    expect(() => parseSimulateArgs(argv)).toThrow(UsageError);
    const io = capture();
    expect(await main(argv)).toBe(2);
    expect(io.err()).toContain(message);
    expect(io.err()).toContain("usage: npm run simulate");
  });

  it("writes a release", async () => {
    const out = join(root, "small");
    const io = capture();
    expect(await main(["--out", out, "--genomes", "3", "--families", "20", "--seed", "5"])).toBe(0);
    expect(io.out()).toContain("Simulated.5: 3 genomes, 20 families");
    expect(existsSync(join(out, "hogs.orthoxml"))).toBe(true);
    expect(readFileSync(join(out, "species_tree.nwk"), "utf8")).toBe("((HUMAN,PANTR)Hominini,GORGO)Homininae;\n");
  });
});
