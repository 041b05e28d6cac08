/**
 * FASTA proteomes (and cDNA): streamed record by record, so a proteome is never held whole.
 * The protein id is the first word of the header, exactly as the other inputs refer to it.
 */
import type { FastaRecord } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, readLineBatches } from "./lines.js";

const UNIPROT_RE = /^(sp|tr)\|([^|]+)\|([^|]+)$/;
/** A sequence line of upper-case letters alone, kept as it is. */
const PLAIN_LINE = /^[A-Z]+$/;

interface Pending {
  id: string;
  description: string;
  line: number;
  chunks: string[];
  /** Line of a `*` that ended a sequence line: fine if it is the last residue, a problem otherwise. */
  starLine: number;
  reportedBadChar: boolean;
  /** False for records that are reported and dropped (empty or duplicate id). */
  keep: boolean;
}

/**
 * `keepStops`: a `*` inside a sequence is kept as a residue (proteomes OrthoFinder ran on, which
 * it accepts; one warning per file counts them); otherwise it is a problem. A trailing `*` is dropped either way.
 */
export async function* readFasta(path: string, problems: Problems, options: { keepStops?: boolean } = {}): AsyncGenerator<FastaRecord> {
  const file = fileLabel(path);
  const letters = options.keepStops ? /^[A-Za-z*]*$/ : /^[A-Za-z]*$/;
  const notLetter = options.keepStops ? /[^A-Za-z*]/g : /[^A-Za-z]/g;
  let withStops = 0;
  const seen = new Map<string, number>();
  let rec: Pending | undefined;
  let reportedOrphan = false;
  let sawText = false;
  let lastLine = 0;
  let lastText = "";
  const problemsBefore = problems.count;
  const end = { unterminated: false };

  const finish = (atEof: boolean): FastaRecord | undefined => {
    if (!rec || !rec.keep) return undefined;
    const sequence = rec.chunks.join("");
    if (sequence === "") {
      problems.report(
        file,
        rec.line,
        atEof
          ? `record "${rec.id}" has no sequence: the file ends after its header (truncated file?)`
          : `record "${rec.id}" has no sequence`,
      );
      return undefined;
    }
    if (options.keepStops && sequence.includes("*")) withStops++;
    const out: FastaRecord = { id: rec.id, description: rec.description, sequence, line: rec.line };
    const m = UNIPROT_RE.exec(rec.id);
    if (m) out.uniprot = { reviewed: m[1] === "sp", accession: m[2], entryName: m[3] };
    return out;
  };

  for await (const { lines, firstLineNo } of readLineBatches(path, problems, end)) for (let i = 0; i < lines.length; i++) {
    const text = lines[i], lineNo = firstLineNo + i;
    lastLine = lineNo;
    lastText = text;
    if (!sawText && text.trim() !== "") sawText = true;
    if (text.startsWith(">")) {
      const done = finish(false);
      if (done) yield done;
      const header = text.slice(1).trim();
      const space = header.search(/\s/);
      const id = space < 0 ? header : header.slice(0, space);
      const description = space < 0 ? "" : header.slice(space).trim();
      rec = { id, description, line: lineNo, chunks: [], starLine: 0, reportedBadChar: false, keep: true };
      if (id === "") {
        problems.report(file, lineNo, "empty header: no protein id after '>'");
        rec.keep = false;
      } else {
        const first = seen.get(id);
        if (first !== undefined) {
          problems.report(file, lineNo, `duplicate id "${id}" (first on line ${first})`);
          rec.keep = false;
        } else seen.set(id, lineNo);
      }
      continue;
    }
    // Most sequence lines are upper-case letters alone: taken as they are, without the clean-up below.
    const plain = PLAIN_LINE.test(text);
    let residues = plain ? text : text.replace(/\s+/g, "");
    if (residues === "") continue;
    if (!rec) {
      if (!reportedOrphan) {
        problems.report(file, lineNo, "sequence line before the first '>' header");
        reportedOrphan = true;
      }
      continue;
    }
    if (!rec.keep) continue;
    if (rec.starLine > 0 && options.keepStops) {
      rec.chunks.push("*");
    } else if (rec.starLine > 0 && !rec.reportedBadChar) {
      problems.report(file, rec.starLine, `'*' inside the sequence of "${rec.id}" (only one trailing '*' is allowed)`);
      rec.reportedBadChar = true;
    }
    rec.starLine = 0;
    if (plain) {
      rec.chunks.push(residues);
      continue;
    }
    if (residues.endsWith("*")) {
      residues = residues.slice(0, -1);
      rec.starLine = lineNo;
    }
    if (!letters.test(residues)) {
      const bad = residues.match(notLetter)![0];
      if (!rec.reportedBadChar) {
        problems.report(file, lineNo, `invalid character '${bad}' in the sequence of "${rec.id}" (only letters are allowed)`);
        rec.reportedBadChar = true;
      }
      residues = residues.replace(notLetter, "");
    }
    rec.chunks.push(residues.toUpperCase());
  }
  // A last sequence line without its line terminator: the file was most likely cut short there.
  if (end.unterminated && rec?.keep && rec.line !== lastLine && lastText.trim() !== "") {
    problems.report(file, lastLine, `the file ends in the middle of a line, inside the sequence of "${rec.id}" (truncated file? if it is complete, end it with a newline)`);
    rec.keep = false;
  }
  if (!sawText && problems.count === problemsBefore) problems.report(file, 0, "empty file: no FASTA record");
  const done = finish(true);
  if (withStops > 0) problems.warn(file, 0, `${withStops} sequence(s) hold '*' (stop codons) inside: kept as residues, as OrthoFinder took them`);
  if (done) yield done;
}
