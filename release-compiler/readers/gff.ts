/**
 * GFF3 gene loci, keyed by protein id. Only CDS features (their exons, chromosome and strand)
 * and `gene` / `mRNA` features whose ID is a protein id (the locus bounds) matter. Streamed:
 * only the per-protein summaries are kept.
 */
import type { GffLocus } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, isBlank, readLineBatches } from "./lines.js";

const STRANDS: Record<string, 1 | -1 | 0> = { "+": 1, "-": -1, ".": 0, "?": 0 };

interface Cds {
  chromosome: string;
  strand: 1 | -1 | 0;
  strandText: string;
  exons: Array<[number, number]>;
  /** Line of each exon, in input order (before sorting). */
  exonLines: number[];
  line: number;
}

interface Feature {
  start: number;
  end: number;
  line: number;
}

/** GFF3 column 9: `key=value;key=value`, values percent-encoded. */
function parseGffAttributes(text: string): { attrs: Map<string, string>; error?: string } {
  const attrs = new Map<string, string>();
  let error: string | undefined;
  if (text === "." || text === "") return { attrs };
  for (const part of text.split(";")) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    if (eq < 0) {
      error ??= `attribute "${part.trim()}" has no '='`;
      continue;
    }
    const key = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    let value = raw;
    // Most values encode nothing: decoded only when they hold a '%'.
    if (raw.includes("%")) {
      try {
        value = decodeURIComponent(raw);
      } catch {
        error ??= `attribute ${key} has an invalid percent-encoding: "${raw}"`;
      }
    }
    attrs.set(key, value);
  }
  return { attrs, error };
}

function parsePosition(text: string): number | undefined {
  if (!/^\d+$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && n >= 1 ? n : undefined;
}

export async function readGff(path: string, problems: Problems): Promise<Map<string, GffLocus>> {
  const file = fileLabel(path);
  const cdsByProtein = new Map<string, Cds>();
  const genes = new Map<string, Feature>();
  const mrnas = new Map<string, Feature>();

  // Lines a chunk at a time (readLineBatches): `break reading` ends it.
  reading: for await (const { lines, firstLineNo } of readLineBatches(path, problems)) for (let i = 0; i < lines.length; i++) {
    const text = lines[i], lineNo = firstLineNo + i;
    if (text.startsWith("##FASTA")) break reading; // the rest is sequence
    if (text.startsWith("#") || isBlank(text)) continue;
    const cols = text.split("\t");
    if (cols.length !== 9) {
      problems.report(file, lineNo, `expected 9 tab-separated columns, found ${cols.length}`);
      continue;
    }
    const [seqid, , type, startText, endText, , strandText, , attrText] = cols;
    const start = parsePosition(startText);
    const end = parsePosition(endText);
    let ok = true;
    if (start === undefined) {
      problems.report(file, lineNo, `start "${startText}" is not a positive integer`);
      ok = false;
    }
    if (end === undefined) {
      problems.report(file, lineNo, `end "${endText}" is not a positive integer`);
      ok = false;
    }
    if (start !== undefined && end !== undefined && end < start) {
      problems.report(file, lineNo, `end ${end} is before start ${start}`);
      ok = false;
    }
    const strand = STRANDS[strandText];
    if (strand === undefined) {
      problems.report(file, lineNo, `strand "${strandText}" is not one of + - . ?`);
      ok = false;
    }
    if (type !== "CDS" && type !== "gene" && type !== "mRNA") continue;
    const { attrs, error } = parseGffAttributes(attrText);
    if (error) {
      problems.report(file, lineNo, error);
      ok = false;
    }
    if (!ok) continue;

    if (type === "gene" || type === "mRNA") {
      const id = attrs.get("ID");
      const map = type === "gene" ? genes : mrnas;
      if (id && !map.has(id)) map.set(id, { start: start!, end: end!, line: lineNo });
      continue;
    }
    // CDS: its protein is protein_id, else the (first) Parent.
    const protein = attrs.get("protein_id") || attrs.get("Parent")?.split(",")[0];
    if (!protein) continue;
    const known = cdsByProtein.get(protein);
    if (!known) {
      cdsByProtein.set(protein, { chromosome: seqid, strand, strandText, exons: [[start!, end!]], exonLines: [lineNo], line: lineNo });
      continue;
    }
    if (known.chromosome !== seqid) {
      problems.report(
        file,
        lineNo,
        `CDS of ${protein} is on chromosome ${seqid}, but its earlier CDS (line ${known.line}) is on ${known.chromosome}`,
      );
      continue;
    }
    if (known.strand !== strand) {
      problems.report(
        file,
        lineNo,
        `CDS of ${protein} is on strand ${strandText}, but its earlier CDS (line ${known.line}) is on ${known.strandText}`,
      );
      continue;
    }
    known.exons.push([start!, end!]);
    known.exonLines.push(lineNo);
  }

  const loci = new Map<string, GffLocus>();
  for (const [protein, cds] of cdsByProtein) {
    const feature = genes.get(protein) ?? mrnas.get(protein);
    if (feature) {
      // A CDS sticking out of the gene (or mRNA) it belongs to: one of the coordinates is wrong.
      const kind = genes.has(protein) ? "gene" : "mRNA";
      cds.exons.forEach(([s, e], i) => {
        if (s < feature.start || e > feature.end) {
          problems.report(file, cds.exonLines[i], `CDS of ${protein} (${s}-${e}) is outside its ${kind} (${feature.start}-${feature.end}, line ${feature.line})`);
        }
      });
    }
    cds.exons.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let start = Infinity;
    let end = -Infinity;
    for (const [s, e] of cds.exons) {
      if (s < start) start = s;
      if (e > end) end = e;
    }
    loci.set(protein, {
      chromosome: cds.chromosome,
      start: feature ? feature.start : start,
      end: feature ? feature.end : end,
      strand: cds.strand,
      exons: cds.exons,
      line: feature ? feature.line : cds.line,
    });
  }
  return loci;
}
