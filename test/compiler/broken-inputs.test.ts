/**
 * The compiler fed broken inputs (issue "Reliability"): a small valid simulated input set is
 * compiled once; then each case copies the inputs, breaks them in one way, and runs the real
 * CLI against the same output folder. Every case must exit 1, name the broken file and line
 * (computed from the broken file) with a clear reason, leave the existing release byte-for-byte
 * unchanged and leave nothing beside it.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { gunzipSync, gzipSync, constants as zlib } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { compileRelease } from "../../release-compiler/compile.js";
import { simulateRelease } from "../../release-compiler/simulate/simulate.js";
import { TEST_BUILD } from "../build-dir.js";

const ROOT = resolve(import.meta.dirname, "../..");
const WORK = join(TEST_BUILD, "broken-inputs");
const INPUT = join(WORK, "input");
/** The release compiled from the valid inputs; each case gets its own copy as the existing release. */
const BASELINE = join(WORK, "baseline", "release");

/** A problem the CLI must print: `file:line: message` (just `file: message` for line 0). */
interface Expected {
  /** Path relative to the case's input folder. */
  file: string;
  line: number;
  message: RegExp;
}

/** Helpers over one case's copy of the inputs. */
class Inputs {
  constructor(readonly dir: string) {}
  path(rel: string): string {
    return join(this.dir, rel);
  }
  read(rel: string): string {
    return readFileSync(this.path(rel), "utf8");
  }
  write(rel: string, content: string | Buffer): void {
    writeFileSync(this.path(rel), content);
  }
  lines(rel: string): string[] {
    return this.read(rel).split("\n");
  }
  /** Rewrites a file line by line; `edit` gets 0-based indexes. */
  editLines(rel: string, edit: (lines: string[]) => void): void {
    const lines = this.lines(rel);
    edit(lines);
    this.write(rel, lines.join("\n"));
  }
  /** 1-based number of the first line matching, after `from` (1-based, exclusive). */
  lineOf(rel: string, match: string | RegExp, from = 0): number {
    const lines = this.lines(rel);
    for (let i = from; i < lines.length; i++) {
      if (typeof match === "string" ? lines[i].includes(match) : match.test(lines[i])) return i + 1;
    }
    throw new Error(`${rel}: no line matches ${match}`);
  }
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Inputs of the simulated set (4 genomes: HUMAN, PANTR, GORGO, PONAB) that the cases break. */
const HUMAN = "proteome/HUMAN.fa";
const PANTR = "proteome/PANTR.fa";
const HOGS = "hogs.orthoxml";
const TREE = "species_tree.nwk";
const INFO = "species_info.tsv";
const GAF = "annotations/go.gaf";
const GFF = "gff3/HUMAN.gff";

/** Id, 1-based line and character offset of every FASTA header. */
function headers(text: string): Array<{ id: string; line: number; offset: number }> {
  const out: Array<{ id: string; line: number; offset: number }> = [];
  let offset = 0;
  text.split("\n").forEach((l, i) => {
    if (l.startsWith(">")) out.push({ id: l.slice(1).split(/\s/)[0], line: i + 1, offset });
    offset += l.length + 1;
  });
  return out;
}

/** 1-based line of the `nth` (0-based) orthoXML line matching `pattern`. */
function xmlLine(x: Inputs, pattern: RegExp, nth = 0): number {
  const lines = x.lines(HOGS);
  let seen = 0;
  for (let i = 0; i < lines.length; i++) if (pattern.test(lines[i]) && seen++ === nth) return i + 1;
  throw new Error(`no ${nth}-th line matching ${pattern}`);
}

/**
 * Moves the Hominini HOG nested in HOG:0000002's Homininae HOG to another level (taxon id and
 * name); the line of its <orthologGroup>.
 */
function moveNestedHog(x: Inputs, taxonId: string, level: string): number {
  const parent = x.lineOf(HOGS, /<orthologGroup id="HOG:0000002_2"/);
  const child = x.lineOf(HOGS, /<orthologGroup id="HOG:0000002_3"/, parent);
  x.editLines(HOGS, (l) => {
    l[child - 1] = l[child - 1].replace('taxonId="3"', `taxonId="${taxonId}"`);
    l[child + 1] = l[child + 1].replace('value="Hominini"', `value="${level}"`);
  });
  return child;
}

interface Case {
  name: string;
  /** Breaks the copy and returns the problems the CLI must report. */
  breakIt: (x: Inputs) => Expected[];
}

const CASES: Case[] = [
  {
    name: "FASTA cut in the middle of a header",
    breakIt: (x) => {
      const text = x.read(HUMAN);
      const h = headers(text)[Math.floor(headers(text).length / 2)];
      const cut = text.slice(0, h.offset + 8); // ">SIMHUMA"
      x.write(HUMAN, cut);
      return [{ file: HUMAN, line: h.line, message: /record "SIMHUMA" has no sequence: the file ends after its header \(truncated file\?\)/ }];
    },
  },
  {
    name: "FASTA cut in the middle of a sequence line",
    breakIt: (x) => {
      const text = x.read(HUMAN);
      const h = headers(text)[Math.floor(headers(text).length / 2)];
      const cut = text.slice(0, h.offset + text.slice(h.offset).indexOf("\n") + 30); // 29 residues into the first sequence line
      x.write(HUMAN, cut);
      return [
        {
          file: HUMAN,
          line: cut.split("\n").length,
          message: new RegExp(`the file ends in the middle of a line, inside the sequence of "${h.id}" \\(truncated file\\?`),
        },
      ];
    },
  },
  {
    name: "gzipped FASTA cut in half",
    breakIt: (x) => {
      const gz = gzipSync(x.read(HUMAN));
      const cut = gz.subarray(0, Math.floor(gz.length / 2));
      unlinkSync(x.path(HUMAN));
      x.write(`${HUMAN}.gz`, cut);
      // The stream fails after the last complete line it could decompress.
      const partial = gunzipSync(cut, { finishFlush: zlib.Z_SYNC_FLUSH }).toString("utf8");
      return [{ file: `${HUMAN}.gz`, line: partial.split("\n").length, message: /gzip data is truncated or corrupt/ }];
    },
  },
  {
    name: "empty FASTA",
    breakIt: (x) => {
      x.write(PANTR, "");
      return [{ file: PANTR, line: 0, message: /empty file: no FASTA record/ }];
    },
  },
  {
    name: "duplicate protein id within one FASTA",
    breakIt: (x) => {
      const text = x.read(HUMAN);
      const first = headers(text)[0];
      x.write(HUMAN, `${text}>${first.id} again\nMKVL\n`);
      return [{ file: HUMAN, line: text.split("\n").length, message: new RegExp(`duplicate id "${first.id}" \\(first on line 1\\)`) }];
    },
  },
  {
    name: "duplicate protein id across two proteomes",
    breakIt: (x) => {
      const first = headers(x.read(HUMAN))[0];
      const text = x.read(PANTR);
      x.write(PANTR, `${text}>${first.id}\nMKVL\n`);
      return [
        {
          file: PANTR,
          line: text.split("\n").length,
          message: new RegExp(`protein id ${first.id} is used twice \\(first at ${esc(x.path(HUMAN))}:1\\)`),
        },
      ];
    },
  },
  {
    name: "protein of the HOGs removed from its proteome",
    breakIt: (x) => {
      const text = x.read(HUMAN);
      const all = headers(text);
      const gene = x.lines(HOGS).find((l) => l.includes('protId="SIMHUMAN'))!;
      const protId = /protId="([^"]+)"/.exec(gene)![1];
      const k = all.findIndex((h) => h.id === protId);
      x.write(HUMAN, text.slice(0, all[k].offset) + (k + 1 < all.length ? text.slice(all[k + 1].offset) : ""));
      return [{ file: HOGS, line: x.lineOf(HOGS, `protId="${protId}"`), message: new RegExp(`protein ${protId} of the HOGs is not in the proteomes`) }];
    },
  },
  {
    name: "orthoXML gene whose protId is in no proteome",
    breakIt: (x) => {
      const line = xmlLine(x, /<gene /, 5);
      x.editLines(HOGS, (l) => (l[line - 1] = l[line - 1].replace(/protId="[^"]+"/, 'protId="NOT_A_PROTEIN"')));
      return [{ file: HOGS, line, message: /protein NOT_A_PROTEIN of the HOGs is not in the proteomes/ }];
    },
  },
  {
    name: "orthoXML geneRef to an unknown gene",
    breakIt: (x) => {
      const line = xmlLine(x, /<geneRef /, 3);
      x.editLines(HOGS, (l) => (l[line - 1] = l[line - 1].replace(/id="[^"]+"/, 'id="999999999"')));
      return [{ file: HOGS, line, message: /unknown geneRef id 999999999/ }];
    },
  },
  {
    name: "orthoXML gene referenced twice",
    breakIt: (x) => {
      const firstLine = xmlLine(x, /<geneRef /, 0);
      const ref = x.lines(HOGS)[firstLine - 1].trim();
      const id = /id="([^"]+)"/.exec(ref)![1];
      const target = xmlLine(x, /<geneRef /, 10); // inside a later family
      x.editLines(HOGS, (l) => l.splice(target, 0, `        ${ref}`));
      return [{ file: HOGS, line: target + 1, message: new RegExp(`gene ${id} is referenced twice \\(first on line ${firstLine}\\)`) }];
    },
  },
  {
    name: "orthoXML nested HOG above its parent's level (level inversion)",
    // HOG:0000002 is at Homininae with a nested Hominini HOG: lift the nested one to Hominidae.
    breakIt: (x) => [
      { file: HOGS, line: moveNestedHog(x, "1", "Hominidae"), message: /level 'Hominidae' of HOG HOG:S0000002 is not below level 'Homininae' of the HOG containing it/ },
    ],
  },
  {
    name: "orthoXML nested HOG on its parent's own level (a HOG inside itself)",
    breakIt: (x) => [
      { file: HOGS, line: moveNestedHog(x, "2", "Homininae"), message: /level 'Homininae' of HOG HOG:S0000002 is not below level 'Homininae' of the HOG containing it/ },
    ],
  },
  {
    name: "orthoXML with two genes of one protein in two HOGs",
    breakIt: (x) => {
      // Point the gene of one family's member at the protein of another family's member.
      const lines = x.lines(HOGS);
      const refA = /id="([^"]+)"/.exec(lines[xmlLine(x, /<geneRef /, 0) - 1])![1];
      const second = x.lineOf(HOGS, /<orthologGroup id="HOG:0000002_2"/);
      const refB = /id="([^"]+)"/.exec(lines[x.lineOf(HOGS, /<geneRef /, second) - 1])![1];
      const geneA = x.lineOf(HOGS, `<gene id="${refA}"`);
      const geneB = x.lineOf(HOGS, `<gene id="${refB}"`);
      const protA = /protId="([^"]+)"/.exec(lines[geneA - 1])![1];
      x.editLines(HOGS, (l) => (l[geneB - 1] = l[geneB - 1].replace(/protId="[^"]+"/, `protId="${protA}"`)));
      return [{ file: HOGS, line: second, message: new RegExp(`protein ${protA} is in two HOGs \\(HOG:S0000001, HOG:S0000002\\)`) }];
    },
  },
  {
    name: "orthoXML with a mismatched closing tag",
    breakIt: (x) => {
      const line = xmlLine(x, /<\/paralogGroup>/, 1);
      x.editLines(HOGS, (l) => (l[line - 1] = l[line - 1].replace("</paralogGroup>", "</orthologGroup>")));
      return [{ file: HOGS, line, message: /not well-formed XML: Unexpected close tag/ }];
    },
  },
  {
    name: "orthoXML cut in the middle",
    breakIt: (x) => {
      const text = x.read(HOGS);
      const cut = text.slice(0, Math.floor(text.length * 0.8));
      x.write(HOGS, cut);
      return [{ file: HOGS, line: cut.split("\n").length, message: /not well-formed XML: .*(Unclosed|unexpected end)/i }];
    },
  },
  {
    name: "Newick with unbalanced parentheses: one ')' too many",
    breakIt: (x) => {
      x.write(TREE, "(\n  ((HUMAN,PANTR)Hominini,\n  GORGO)Homininae,\n  PONAB)Hominidae);\n");
      return [{ file: TREE, line: 4, message: /unbalanced parentheses: '\)' without a matching '\(' \(column 18\)/ }];
    },
  },
  {
    name: "Newick with unbalanced parentheses: a '(' never closed",
    breakIt: (x) => {
      x.write(TREE, "\n\n(((HUMAN,PANTR)Hominini,GORGO)Homininae,PONAB;\n");
      return [{ file: TREE, line: 3, message: /unbalanced parentheses: 1 '\(' not closed \(column 1\)/ }];
    },
  },
  {
    name: "GFF with start after end",
    breakIt: (x) => {
      const line = x.lineOf(GFF, "\tCDS\t");
      x.editLines(GFF, (l) => {
        const f = l[line - 1].split("\t");
        [f[3], f[4]] = [f[4], f[3]];
        l[line - 1] = f.join("\t");
      });
      const f = x.lines(GFF)[line - 1].split("\t");
      return [{ file: GFF, line, message: new RegExp(`end ${f[4]} is before start ${f[3]}`) }];
    },
  },
  {
    name: "GFF with non-numeric and zero coordinates",
    breakIt: (x) => {
      const a = x.lineOf(GFF, "\tCDS\t");
      const b = x.lineOf(GFF, "\tgene\t", a);
      x.editLines(GFF, (l) => {
        const f = l[a - 1].split("\t");
        f[3] = `${f[3]}x`;
        l[a - 1] = f.join("\t");
        const g = l[b - 1].split("\t");
        g[3] = "0";
        l[b - 1] = g.join("\t");
      });
      return [
        { file: GFF, line: a, message: /start "\d+x" is not a positive integer/ },
        { file: GFF, line: b, message: /start "0" is not a positive integer/ },
      ];
    },
  },
  {
    name: "GFF with a CDS beyond the end of its gene",
    breakIt: (x) => {
      const gene = x.lineOf(GFF, "\tgene\t");
      const cds = x.lineOf(GFF, "\tCDS\t", gene);
      const geneEnd = Number(x.lines(GFF)[gene - 1].split("\t")[4]);
      const protein = /protein_id=([^;]+)/.exec(x.lines(GFF)[cds - 1])![1];
      x.editLines(GFF, (l) => {
        const f = l[cds - 1].split("\t");
        f[4] = String(geneEnd + 500);
        l[cds - 1] = f.join("\t");
      });
      return [
        {
          file: GFF,
          line: cds,
          message: new RegExp(`CDS of ${protein} \\(\\d+-${geneEnd + 500}\\) is outside its gene \\(\\d+-${geneEnd}, line ${gene}\\)`),
        },
      ];
    },
  },
  {
    name: "GFF row with missing columns",
    breakIt: (x) => {
      const line = x.lineOf(GFF, "\tCDS\t", 5);
      x.editLines(GFF, (l) => (l[line - 1] = l[line - 1].split("\t").slice(0, 5).join("\t")));
      return [{ file: GFF, line, message: /expected 9 tab-separated columns, found 5/ }];
    },
  },
  {
    name: "GAF rows with missing columns",
    breakIt: (x) => {
      const a = x.lineOf(GAF, /^[^!]/);
      const b = a + 3;
      x.editLines(GAF, (l) => {
        l[a - 1] = l[a - 1].split("\t").slice(0, 5).join("\t");
        l[b - 1] = l[b - 1].split("\t").slice(0, 14).join("\t");
      });
      return [
        { file: GAF, line: a, message: /expected 15 to 17 tab-separated columns \(GAF 2\.x\), found 5/ },
        { file: GAF, line: b, message: /expected 15 to 17 tab-separated columns \(GAF 2\.x\), found 14/ },
      ];
    },
  },
  {
    name: "GAF row with spaces instead of tabs",
    breakIt: (x) => {
      const line = x.lineOf(GAF, /^[^!]/) + 1;
      x.editLines(GAF, (l) => (l[line - 1] = l[line - 1].replace(/\t/g, "    ")));
      return [{ file: GAF, line, message: /expected 15 to 17 tab-separated columns \(GAF 2\.x\), found 1$/m }];
    },
  },
  {
    name: "species_info.tsv with bad rows",
    breakIt: (x) => {
      x.editLines(INFO, (l) => {
        l[1] = l[1].replace("\t9606\t", "\tnine\t");
        l[2] = l[2].split("\t").slice(0, 2).join("\t");
        l.splice(4, 0, l[3]);
      });
      return [
        { file: INFO, line: 2, message: /NCBITaxonId "nine" is not a positive integer/ },
        { file: INFO, line: 3, message: /expected 3 tab-separated columns, found 2/ },
        { file: INFO, line: 5, message: /duplicate species code GORGO \(first on line 4\)/ },
      ];
    },
  },
  {
    name: "species_info.tsv without its header",
    breakIt: (x) => {
      x.editLines(INFO, (l) => l.shift());
      return [{ file: INFO, line: 1, message: /header is missing the columns Name, NCBITaxonId/ }];
    },
  },
  {
    name: "config naming a file that does not exist",
    breakIt: (x) => {
      x.editLines("release.json", (l) => {
        const i = l.findIndex((s) => s.includes('"species_tree"'));
        l[i] = l[i].replace("species_tree.nwk", "missing/tree.nwk");
      });
      return [
        {
          file: "release.json",
          line: x.lineOf("release.json", '"species_tree"'),
          message: new RegExp(`species_tree: file not found: ${esc(x.path("missing/tree.nwk"))}`),
        },
      ];
    },
  },
  {
    name: "config that is not valid JSON",
    breakIt: (x) => {
      x.editLines("release.json", (l) => {
        const i = l.findIndex((s) => s.includes('"hogs"'));
        l[i] = l[i].replace(/,$/, "");
      });
      return [{ file: "release.json", line: x.lineOf("release.json", '"hogs"') + 1, message: /not valid JSON/ }];
    },
  },
  {
    name: "binary file as the species tree",
    breakIt: (x) => {
      x.write(TREE, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x01]));
      return [{ file: TREE, line: 0, message: /binary file \(it contains NUL bytes\), expected text/ }];
    },
  },
  {
    name: "binary file as a proteome",
    breakIt: (x) => {
      const bytes = Buffer.alloc(4096);
      for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 131 + 7) % 256;
      x.write(PANTR, bytes);
      return [{ file: PANTR, line: 0, message: /binary file \(it contains NUL bytes\), expected text/ }];
    },
  },
];

/** Several cases applied to one copy (each breaks a different file). */
function combined(name: string, parts: string[]): Case {
  const cases = parts.map((p) => {
    const c = CASES.find((k) => k.name === p);
    if (!c) throw new Error(`no case ${p}`);
    return c;
  });
  return { name, breakIt: (x) => cases.flatMap((c) => c.breakIt(x)) };
}

/**
 * Several problems in several files at once: every one is reported with its location. The
 * compiler stops after the species list and tree when they are broken, so these are one case
 * for the species files and one for everything read after them.
 */
const MANY = [
  combined("several problems in the species files", ["species_info.tsv with bad rows", "Newick with unbalanced parentheses: one ')' too many"]),
  combined("several problems in proteomes, HOGs, GFF and GAF", [
    "FASTA cut in the middle of a sequence line",
    "duplicate protein id across two proteomes",
    "orthoXML geneRef to an unknown gene",
    "GFF with start after end",
    "GAF rows with missing columns",
  ]),
];

const digest = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

/** Every file under a folder with its sha-256. */
function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = digest(p);
    }
  };
  walk(dir);
  return out;
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(resolve(ROOT, "node_modules/.bin/tsx"), [resolve(ROOT, "release-compiler/cli.ts"), ...args], { cwd: ROOT }, (error, stdout, stderr) =>
      done({ code: error ? ((error as { code?: number }).code ?? -1) : 0, stdout, stderr }),
    );
  });
}

let release: Record<string, string>;

beforeAll(async () => {
  rmSync(WORK, { recursive: true, force: true });
  await simulateRelease({ out: INPUT, genomes: 4, families: 20, seed: 3, name: "Broken.Test" });
  await compileRelease(join(INPUT, "release.json"), BASELINE);
  release = hashTree(BASELINE);
});

describe.concurrent("the CLI on broken inputs", () => {
  it.each([...CASES, ...MANY].map((c, i) => [c.name, c, i] as const))("%s", async (_name, c, i) => {
    // Each case has its own copy of the inputs and of the existing release, so that a case the
    // compiler wrongly accepts fails alone instead of changing the release under the others.
    const dir = join(WORK, "cases", String(i), "input");
    const outParent = join(WORK, "cases", String(i), "out");
    const out = join(outParent, "release");
    rmSync(join(WORK, "cases", String(i)), { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    cpSync(INPUT, dir, { recursive: true });
    cpSync(BASELINE, out, { recursive: true });
    const x = new Inputs(dir);
    const expected = c.breakIt(x);

    const run = await cli(["--config", x.path("release.json"), "--out", out]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stderr).toMatch(/\d+ problem\(s\) in the inputs; nothing was written\.\n$/);
    const printed = run.stderr.split("\n");
    for (const e of expected) {
      const where = e.line > 0 ? `${x.path(e.file)}:${e.line}: ` : `${x.path(e.file)}: `;
      const hit = printed.find((l) => l.startsWith(where) && e.message.test(l.slice(where.length)));
      const sameFile = printed.filter((l) => l.startsWith(x.path(e.file)));
      expect(hit, `expected "${where}${e.message.source}" among:\n${(sameFile.length ? sameFile : printed).slice(0, 20).join("\n")}`).toBeDefined();
    }
    expect(hashTree(out)).toEqual(release);
    expect(readdirSync(outParent)).toEqual(["release"]);
  });
});
