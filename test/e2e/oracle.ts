/**
 * Independent readings of input files for the end-to-end tests: deliberately simple parsers,
 * not the compiler's, so a compiler bug cannot hide behind a shared one.
 */
import { createHash } from "node:crypto";

/** FASTA records as id (first header word) → sequence, in file order. */
export function parseFasta(text: string): Map<string, string> {
  const out = new Map<string, string[]>();
  let chunks: string[] | undefined;
  for (const line of text.split("\n")) {
    if (line.startsWith(">")) {
      chunks = [];
      out.set(line.slice(1).trim().split(/\s+/)[0], chunks);
    } else chunks?.push(line.trim().toUpperCase());
  }
  return new Map([...out].map(([id, c]) => [id, c.join("").replace(/\*$/, "")]));
}

/** GFF3 gene features: ID → chromosome, start, end, strand. */
export function parseGffGenes(text: string): Map<string, { chromosome: string; start: number; end: number; strand: number }> {
  const out = new Map<string, { chromosome: string; start: number; end: number; strand: number }>();
  for (const line of text.split("\n")) {
    const f = line.split("\t");
    if (f.length !== 9 || f[2] !== "gene") continue;
    const id = /(?:^|;)ID=([^;]+)/.exec(f[8])?.[1];
    if (id) out.set(id, { chromosome: f[0], start: Number(f[3]), end: Number(f[4]), strand: f[6] === "-" ? -1 : 1 });
  }
  return out;
}

/** Rows of a TSV with a header line, as objects. */
export function parseTsv(text: string): Array<Record<string, string>> {
  const [head, ...lines] = text.split("\n").filter((l) => l.trim() && !l.startsWith("#") && !l.startsWith("!"));
  const cols = head.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i], v])));
}

export const md5Hex = (text: string): string => createHash("md5").update(text).digest("hex");
