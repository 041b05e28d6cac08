/**
 * UniProtKB flat files (Swiss-Prot / TrEMBL `.dat` / `.txt`, plain or gzipped), streamed entry by
 * entry. Only the line types a release uses are parsed: ID, AC, DE, DR, FT DOMAIN, OS, OX and SQ.
 */
import type { UniProtEntry } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, readLineBatches } from "./lines.js";

interface Feature {
  key: string;
  location: string;
  /** Qualifier text (`/note="…"` …), continuation lines joined with a space. */
  qualifiers: string;
  line: number;
}

interface Pending {
  line: number;
  entryName?: string;
  reviewed: boolean;
  accessions: string[];
  crossRefs: UniProtEntry["crossRefs"];
  domains: UniProtEntry["domains"];
  sequence: string[];
  organism: string[];
  taxonId?: number;
  recName?: string;
  subName?: string;
  feature?: Feature;
}

/** `DR   Pfam; PF00006; ATP-synt_ab; 1.` → database, first id, extra fields (trailing `.` removed). */
export function parseDrLine(data: string): { database: string; id: string; extra: string[] } | undefined {
  let text = data.trim();
  let isoform: string | undefined;
  // An isoform-specific reference ends with ` [P12345-2]` after the final `.`.
  const iso = /\s(\[[^\]]+\])$/.exec(text);
  if (iso) {
    isoform = iso[1];
    text = text.slice(0, iso.index).trim();
  }
  if (text.endsWith(".")) text = text.slice(0, -1);
  const fields = text.split(";").map((f) => f.trim());
  if (fields.length < 2 || fields[0] === "" || fields[1] === "") return undefined;
  const extra = fields.slice(2);
  if (isoform) extra.push(isoform);
  return { database: fields[0], id: fields[1], extra };
}

/**
 * A protein name of the entry itself from a DE line: `RecName: Full=ATP synthase subunit alpha
 * {ECO:0000255|HAMAP-Rule:MF_01346};` → ["RecName", "ATP synthase subunit alpha"], evidence
 * dropped. Names of the parts in `Includes:` / `Contains:` sections are indented: not matched.
 */
function parseDeName(data: string): [string, string] | undefined {
  const m = /^(RecName|SubName):\s*Full=(.*?)(?:\s*\{[^{}]*\})?;?\s*$/.exec(data);
  return m && m[2] ? [m[1], m[2]] : undefined;
}

/** Location of a feature: `10..213` or `27`. Uncertain (`<1`, `>20`, `?`) and isoform-qualified ones give `null`. */
function parseLocation(location: string): { start: number; end: number } | null | undefined {
  if (/[<>?]|:/.test(location)) return null;
  let m = /^(\d+)\.\.(\d+)$/.exec(location);
  if (m) return { start: Number(m[1]), end: Number(m[2]) };
  m = /^(\d+)$/.exec(location);
  if (m) return { start: Number(m[1]), end: Number(m[1]) };
  m = /^(\d+)\s+(\d+)$/.exec(location); // pre-2019 layout: `FT   DOMAIN     10    213   name.`
  if (m) return { start: Number(m[1]), end: Number(m[2]) };
  return undefined;
}

/** The rows one at a time (readUniProtBatches gives a chunk of lines' rows together; a chunk's problems are reported before its first row). */
export async function* readUniProt(path: string, problems: Problems): AsyncGenerator<UniProtEntry> {
  for await (const rows of readUniProtBatches(path, problems)) yield* rows;
}

export async function* readUniProtBatches(path: string, problems: Problems): AsyncGenerator<UniProtEntry[]> {
  const file = fileLabel(path);
  let entry: Pending | undefined;
  let inSequence = false;

  const finishFeature = () => {
    const f = entry?.feature;
    if (!entry || !f) return;
    entry.feature = undefined;
    if (f.key !== "DOMAIN") return;
    let location = f.location;
    let oldStyleName: string | undefined;
    // Pre-2019 layout: `FT   DOMAIN       10    213       Name.` (positions, then the name).
    const old = /^([<>]?\d+|\?\d*)\s+([<>]?\d+|\?\d*)(?:\s+(.*))?$/.exec(location);
    if (old) {
      location = `${old[1]} ${old[2]}`;
      oldStyleName = (old[3] ?? "").replace(/\.$/, "").trim();
    }
    const pos = parseLocation(location);
    if (pos === null) return; // uncertain position: skipped on purpose
    if (pos === undefined || pos.start < 1 || pos.end < pos.start) {
      problems.report(file, f.line, `DOMAIN feature has an unparsable location "${f.location}"`);
      return;
    }
    const note = /\/note="([^"]*)"/.exec(f.qualifiers);
    entry.domains.push({ name: note ? note[1] : (oldStyleName ?? ""), ...pos });
  };

  const finishEntry = (): UniProtEntry | undefined => {
    finishFeature();
    const e = entry;
    entry = undefined;
    inSequence = false;
    if (!e) return undefined;
    let ok = true;
    if (!e.entryName) {
      problems.report(file, e.line, "entry without an ID line");
      ok = false;
    }
    if (e.accessions.length === 0) {
      problems.report(file, e.line, e.entryName ? `entry ${e.entryName} has no AC line` : "entry without an AC line");
      ok = false;
    }
    if (!ok) return undefined;
    return {
      accessions: e.accessions,
      entryName: e.entryName!,
      reviewed: e.reviewed,
      crossRefs: e.crossRefs,
      domains: e.domains,
      sequence: e.sequence.join(""),
      ...(e.organism.length ? { organism: e.organism.join(" ").replace(/\.$/, "") } : {}),
      ...(e.taxonId !== undefined ? { taxonId: e.taxonId } : {}),
      ...(e.recName || e.subName ? { description: e.recName ?? e.subName } : {}),
      line: e.line,
    };
  };

  for await (const { lines, firstLineNo } of readLineBatches(path, problems)) {
    const rows: UniProtEntry[] = [];
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i], lineNo = firstLineNo + i;
      if (text.startsWith("//")) {
        if (!entry) {
          problems.report(file, lineNo, "'//' without an entry before it");
          continue;
        }
        const done = finishEntry();
        if (done) rows.push(done);
        continue;
      }
      if (text.trim() === "") continue;
      const code = text.slice(0, 2);
      const data = text.length > 5 ? text.slice(5) : "";
      if (code === "ID" && entry && entry.entryName) {
        // A new ID before `//`: the previous entry was cut short.
        problems.report(file, entry.line, `entry ${entry.entryName} is not terminated by '//'`);
        finishFeature();
        entry = undefined;
        inSequence = false;
      }
      if (!entry) entry = { line: lineNo, reviewed: false, accessions: [], crossRefs: [], domains: [], sequence: [], organism: [] };

      if (inSequence && code === "  ") {
        entry.sequence.push(text.replace(/[\s\d]+/g, "").toUpperCase());
        continue;
      }
      if (code !== "FT") finishFeature();
      switch (code) {
        case "ID": {
          const [name, status] = data.trim().split(/\s+/);
          entry.line = lineNo;
          entry.entryName = name;
          entry.reviewed = (status ?? "").startsWith("Reviewed");
          break;
        }
        case "DE": {
          const [kind, name] = parseDeName(data) ?? [];
          if (kind === "RecName") entry.recName ??= name;
          else if (kind === "SubName") entry.subName ??= name;
          break;
        }
        case "AC":
          for (const acc of data.split(";").map((a) => a.trim())) if (acc) entry.accessions.push(acc);
          break;
        case "DR": {
          const ref = parseDrLine(data);
          if (ref) entry.crossRefs.push(ref);
          else problems.report(file, lineNo, `DR line is not "database; id; …": "${data.trim()}"`);
          break;
        }
        case "FT": {
          const key = text.slice(5, 21).trim();
          const rest = text.slice(21).trim();
          if (key !== "") {
            finishFeature();
            entry.feature = { key, location: rest, qualifiers: "", line: lineNo };
          } else if (entry.feature) {
            entry.feature.qualifiers += (entry.feature.qualifiers ? " " : "") + rest;
          }
          break;
        }
        case "SQ":
          inSequence = true;
          break;
        case "OS":
          entry.organism.push(data.trim());
          break;
        case "OX": {
          const taxon = /NCBI_TaxID=(\d+)/.exec(data);
          if (taxon) entry.taxonId = Number(taxon[1]);
          break;
        }
      }
    }
    yield rows;
  }
  if (entry) {
    const what = entry.entryName ? `entry ${entry.entryName}` : "the last entry";
    problems.report(file, entry.line, `${what} is not terminated by '//' at the end of the file (truncated file?)`);
  }
}
