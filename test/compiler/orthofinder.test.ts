/**
 * OrthoFinder results fed to the compiler broken (in the style of broken-inputs.test.ts, in
 * process): each case copies the real 3.1 run (and its proteomes), breaks one thing, and the
 * compile must stop with that problem as `file:line: message`. Plus the species-code rule.
 */
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compileRelease } from "../../release-compiler/compile.js";
import { IdIndex } from "../../release-compiler/packed-strings.js";
import { orthologuePairs } from "../../release-compiler/derive/orthofinder/pairs.js";
import { speciesCode, type OrthoFinderSpecies } from "../../release-compiler/derive/orthofinder/species.js";
import type { ProteinTable } from "../../release-compiler/derive/proteins.js";
import type { PairRow } from "../../release-compiler/inputs.js";
import { InputRejected, Problems } from "../../release-compiler/problems.js";
import { tempDir } from "./readers/tmp.js";
import { TEST_BUILD } from "../build-dir.js";
import { data, hasSharedData, warnWithoutSharedData } from "../shared-data.js";

warnWithoutSharedData("the OrthoFinder broken-input tests");
const WORK = join(TEST_BUILD, "orthofinder-broken");
const RUN = data("orthofinder-mycoplasmoides-3.1");
const RESULTS = "OrthoFinder/Results_Nov24";

/** One case's copy of the run: its files by path relative to the copy. */
class Copy {
  constructor(readonly dir: string) {}
  path(rel: string): string {
    return join(this.dir, rel);
  }
  lines(rel: string): string[] {
    return readFileSync(this.path(rel), "utf8").split("\n");
  }
  edit(rel: string, change: (lines: string[]) => void): void {
    const lines = this.lines(rel);
    change(lines);
    writeFileSync(this.path(rel), lines.join("\n"));
  }
  /** 1-based line of the first line starting with `prefix`. */
  lineOf(rel: string, prefix: string): number {
    return this.lines(rel).findIndex((l) => l.startsWith(prefix)) + 1;
  }
  config(extra: Record<string, unknown> = {}): string {
    const path = this.path("release.json");
    writeFileSync(path, JSON.stringify({ name: "Broken", orthofinder: RESULTS, proteomes: "input", ...extra }, null, 1));
    return path;
  }
}

let cases = 0;
function copyOfRun(): Copy {
  const dir = join(WORK, `case-${++cases}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(RUN, "input"), join(dir, "input"), { recursive: true });
  cpSync(join(RUN, RESULTS), join(dir, RESULTS), { recursive: true });
  return new Copy(dir);
}

/** The problems of a compile that must fail, as the CLI prints them. */
async function problemsOf(config: string, out: string): Promise<string[]> {
  try {
    await compileRelease(config, out);
  } catch (err) {
    if (err instanceof InputRejected) return err.problems.format(1000).split("\n");
    throw err;
  }
  throw new Error("the compile succeeded");
}

const N1 = `${RESULTS}/Phylogenetic_Hierarchical_Orthogroups/N1.tsv`;
const N2 = `${RESULTS}/Phylogenetic_Hierarchical_Orthogroups/N2.tsv`;
const PAIRS = `${RESULTS}/Orthologues/Orthologues_Mycoplasmoides_fastidiosum/Mycoplasmoides_fastidiosum__v__Mycoplasmoides_genitalium.tsv`;
const TREES = `${RESULTS}/Resolved_Gene_Trees/Resolved_Gene_Trees.txt`;
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

describe("the species code rule", () => {
  it("takes 3 + 2 letters of genus and species, pads short names and numbers collisions", () => {
    const taken = new Set<string>();
    const codes = ["Mycoplasma_genitalium", "Mycoplasma_gallisepticum", "Mycoplasma_genitalium_G37", "Homo_sapiens.GRCh38.pep.all", "Ecoli", "E", "Myco-ge"].map((n) => {
      const code = speciesCode(n, taken);
      taken.add(code);
      return code;
    });
    expect(codes).toEqual(["MYCGE", "MYCGA", "MYCG1", "HOMSA", "ECOLI", "EXXXX", "MYCG2"]);
    for (let n = 3; n <= 9; n++) taken.add(`MYCG${n}`);
    expect(speciesCode("Mycoplasma_genus", taken)).toBe("MYC10");
  });
});

describe.skipIf(!hasSharedData)("broken OrthoFinder results", () => {
  beforeAll(() => rmSync(WORK, { recursive: true, force: true }));

  it("a gene id of a HOG table in no proteome is a file:line error", async () => {
    const x = copyOfRun();
    const line = x.lineOf(N1, "N1.HOG0000001\t");
    x.edit(N1, (l) => (l[line - 1] = l[line - 1].replace("gene-JVT77_RS01320", "gene-NOT_A_GENE")));
    const problems = await problemsOf(x.config(), x.path("out"));
    expect(problems).toContain(`${x.path(N1)}:${line}: gene gene-NOT_A_GENE (Mycoplasmoides_gallisepticum) is not in any proteome`);
  });

  it("a gene in another species' column, and one in two HOGs of a level, are file:line errors", async () => {
    const x = copyOfRun();
    const a = x.lineOf(N1, "N1.HOG0000001\t");
    const b = x.lineOf(N1, "N1.HOG0000003\t");
    x.edit(N1, (l) => {
      const cells = l[a - 1].split("\t");
      [cells[4], cells[5]] = [cells[5], cells[4]]; // gallisepticum genes under genitalium and back
      l[a - 1] = cells.join("\t");
      l[b - 1] = l[b - 1].replace("gene-MG_RS02600", "gene-MG_RS02600, gene-MG_RS02605, gene-MG_RS02605");
    });
    const problems = await problemsOf(x.config(), x.path("out"));
    expect(problems).toContain(`${x.path(N1)}:${a}: gene gene-JVT77_RS01320 is in the Mycoplasmoides_genitalium column but in the proteome of Mycoplasmoides_gallisepticum`);
    expect(problems).toContain(`${x.path(N1)}:${b}: gene gene-MG_RS02605 is twice in this row: a gene is in one HOG of a level`);
  });

  it("a HOG whose genes lie in two HOGs of the level above is a file:line error", async () => {
    const x = copyOfRun();
    const line = x.lineOf(N2, "N2.HOG0000001\t");
    // gene-MG_RS00760 is in N1.HOG0000001; N2.HOG0000001's genes are in N1.HOG0000002.
    x.edit(N2, (l) => {
      l[line - 2] = l[line - 2].replace("gene-MG_RS00760, ", "");
      l[line - 1] = l[line - 1].replace("gene-MG_RS00765", "gene-MG_RS00760, gene-MG_RS00765");
    });
    const problems = await problemsOf(x.config(), x.path("out"));
    expect(problems).toContain(`${x.path(N2)}:${line}: HOG N2.HOG0000001 is not within one HOG of N1: its genes are in N1.HOG0000001, N1.HOG0000002`);
  });

  it("a gene of an Orthologues file in no proteome, and a gene tree leaf that is no protein, are file:line errors", async () => {
    const x = copyOfRun();
    const pair = x.lineOf(PAIRS, "OG0000008\t");
    x.edit(PAIRS, (l) => (l[pair - 1] = l[pair - 1].replace("gene-MG_RS02060", "gene-MG_RS99999")));
    const tree = x.lineOf(TREES, "OG0000003:");
    x.edit(TREES, (l) => (l[tree - 1] = l[tree - 1].replace("Mycoplasmoides_genitalium_gene-MG_RS02600", "Mycoplasmoides_genitalium_gene-ZZZ")));
    const problems = await problemsOf(x.config(), x.path("out"));
    expect(problems).toContain(`${x.path(PAIRS)}:${pair}: gene gene-MG_RS99999 (Mycoplasmoides_genitalium) is not in any proteome`);
    expect(problems).toContain(
      `${x.path(TREES)}:${tree}: leaf Mycoplasmoides_genitalium_gene-ZZZ of the tree of OG0000003 is not <species>_<protein id> of a proteome`,
    );
  });

  it("an unbalanced gene tree line is reported on its own line", async () => {
    const x = copyOfRun();
    const tree = x.lineOf(TREES, "OG0000005:");
    x.edit(TREES, (l) => (l[tree - 1] = l[tree - 1].replace(/\)n0;$/, ";")));
    const problems = await problemsOf(x.config(), x.path("out"));
    expect(problems).toContainEqual(expect.stringMatching(new RegExp(`^${esc(x.path(TREES))}:${tree}: OG0000005: unbalanced parentheses: 1 '\\(' not closed`)));
  });

  it("species_info must name every species in its File column; a species tree of another topology is refused", async () => {
    const x = copyOfRun();
    writeFileSync(
      x.path("species.tsv"),
      "Name\tNCBITaxonId\tFile\nMYCFA\t901\tMycoplasmoides_fastidiosum\nMYCGA\t902\tMycoplasmoides_gallisepticum\nMYCGE\t903\tMycoplasma_genitalium\n",
    );
    writeFileSync(x.path("tree.nwk"), "((MYCFA,MYCGA)A,(MYCGE,MYCPN)B)Root;\n");
    const problems = await problemsOf(x.config({ species_info: "species.tsv", species_tree: "tree.nwk" }), x.path("out"));
    expect(problems).toContain(`${x.path("species.tsv")}:4: File Mycoplasma_genitalium is not a species of the OrthoFinder results (Mycoplasmoides_fastidiosum, Mycoplasmoides_gallisepticum, Mycoplasmoides_genitalium, Mycoplasmoides_pneumoniae)`);
    expect(problems).toContain(`${x.path("species.tsv")}: OrthoFinder species Mycoplasmoides_genitalium has no row (File column)`);

    writeFileSync(x.path("species.tsv"), "Name\tNCBITaxonId\tFile\nMYCFA\t901\tMycoplasmoides_fastidiosum\nMYCGA\t902\tMycoplasmoides_gallisepticum\nMYCGE\t903\tMycoplasmoides_genitalium\nMYCPN\t904\tMycoplasmoides_pneumoniae\n");
    const tree = await problemsOf(x.config({ species_info: "species.tsv", species_tree: "tree.nwk" }), x.path("out"));
    expect(tree.some((p) => p.startsWith(`${x.path("tree.nwk")}: no node of this tree has exactly the species of OrthoFinder's N1 (`))).toBe(true);
    expect(tree).toContain(`${x.path("tree.nwk")}: node 'A' (MYCFA, MYCGA) is not a clade of OrthoFinder's species tree ${x.path(RESULTS)}/Species_Tree/SpeciesTree_rooted_node_labels.txt: the trees' topologies differ`);
  });

  it("refuses hogs or pairs beside orthofinder, and names a species without a proteome", async () => {
    const x = copyOfRun();
    rmSync(x.path("input/Mycoplasmoides_pneumoniae.fa"));
    writeFileSync(x.path("hogs.xml"), "<orthoXML/>");
    const config = x.config({ hogs: "hogs.xml" });
    const problems = await problemsOf(config, x.path("out"));
    expect(problems).toContain(`${config}:5: "hogs" cannot be given with "orthofinder" (the OrthoFinder results give the hogs)`);
    const again = await problemsOf(x.config(), x.path("out"));
    expect(again).toContain(`${x.path("input")}: no proteome of OrthoFinder species Mycoplasmoides_pneumoniae: expected Mycoplasmoides_pneumoniae.fa (or .faa, .fasta, .fas, .pep) in this folder`);
  });
});

describe("OrthoFinder's orthologues as given pairs (orthologuePairs)", () => {
  it("hands on a row's pairs in batches of bounded size, every pair once, unknown genes reported at their line", async () => {
    const dir = tempDir();
    const path = join(dir, "A__v__B.tsv");
    writeFileSync(path, ["Orthogroup\tA\tB", "OG1\ta1, a2, a3\tb1, b2", "OG2\ta4\tb3, bX"].join("\n") + "\n");
    const ids = ["a1", "a2", "a3", "a4", "b1", "b2", "b3"];
    const proteins = { inputIds: IdIndex.of(ids), genome: ids.map((id) => (id.startsWith("a") ? 0 : 1)) } as unknown as ProteinTable;
    const of = { genomeOfName: new Map([["A", 0], ["B", 1]]), species: [{ file: "A" }, { file: "B" }] } as unknown as OrthoFinderSpecies;
    const problems = new Problems();
    const batches: PairRow[][] = [];
    for await (const batch of orthologuePairs([["A", "B", path]], of, proteins, problems, undefined, 3)) batches.push(batch);
    expect(Math.max(...batches.map((b) => b.length))).toBeLessThanOrEqual(3 + 2);
    expect(batches.length).toBeGreaterThan(1);
    expect(batches.flat().map((p) => `${p.protein1}-${p.protein2} ${p.relType} ${p.line}`)).toEqual([
      "a1-b1 m:n 2", "a1-b2 m:n 2", "a2-b1 m:n 2", "a2-b2 m:n 2", "a3-b1 m:n 2", "a3-b2 m:n 2", "a4-b3 1:n 3",
    ]);
    expect(problems.list.map((p) => `${p.line}: ${p.message}`)).toEqual(["3: gene bX (B) is not in any proteome"]);
  });
});
