import { REL_TYPES, type AnnotationRow, type GenomeInfo, type PairRow } from "../../release-format/format.js";
import type { PairSelection } from "../release/pairs.js";
import type { Release } from "../release/release.js";
import { rowsOf, summariesOf } from "../release/summaries.js";
import { fieldNamesOf, nameIn } from "./field-names.js";
import type { Links } from "./links.js";
import { orthid, proteinSummary } from "./protein.js";

export interface PairFilters extends PairSelection {
  /** Cross-reference sources whose ids the pairs carry (`xrefs` parameter). */
  xrefs?: string[];
}

/** What rendering a page of pairs needs: both proteins' summaries, and their xrefs when asked. */
async function pairContext(release: Release, rows: PairRow[], sources: string[] | undefined) {
  const entries = [...new Set(rows.flatMap((r) => [r[0], r[1]]))];
  const [summaries, annotations] = await Promise.all([
    summariesOf(release, entries),
    sources ? rowsOf<AnnotationRow>(release, release.manifest.tables.annotations, entries) : undefined,
  ]);
  /** Source → the entry's first id from it ("" when none); SourceID falls back to the canonical id. */
  const xrefsOf = (entry: number): Record<string, string> | null => {
    if (!sources) return null;
    const xrefs = annotations!.get(entry)!.xrefs;
    const out: Record<string, string> = {};
    for (const source of sources) {
      const hit = xrefs.find(([s]) => s === source)?.[1];
      out[source] = hit ?? (source === "SourceID" ? summaries.get(entry)!.canonicalId : "");
    }
    return out;
  };
  /** The shared group number of a pair, or "" when they are not in one group. */
  const sharedGroup = (r: PairRow): number | "" => {
    const g = summaries.get(r[0])!.group;
    return g !== 0 && g === summaries.get(r[1])!.group ? g : "";
  };
  return { summaries, xrefsOf, sharedGroup };
}

/** Pair items of the JSON list: both proteins' summaries (with `xrefs`), type, distance, score, shared group. */
export async function pairItems(release: Release, links: Links, rows: PairRow[], sources?: string[]) {
  const { summaries, xrefsOf, sharedGroup } = await pairContext(release, rows, sources);
  const side = (entry: number) => Object.assign(proteinSummary(release, links, summaries.get(entry)!), { xrefs: xrefsOf(entry) });
  return rows.map((r) => ({
    entry_1: side(r[0]),
    entry_2: side(r[1]),
    rel_type: REL_TYPES[r[2]],
    distance: r[3],
    score: r[4],
    orth_group: sharedGroup(r),
  }));
}

/**
 * Pairs as CSV or TSV lines (CRLF-terminated), with the header line when `header`: the rows of a
 * page, or one slice of a whole genome pair's file.
 */
export async function pairLines(release: Release, rows: PairRow[], options: { format: "csv" | "tsv"; xrefs?: string[]; header: boolean }): Promise<string> {
  const { format } = options;
  const sources = options.xrefs ?? [];
  const { xrefsOf, sharedGroup } = await pairContext(release, rows, options.xrefs);
  const cell = format === "csv" ? csvCell : tsvCell;
  const line = (cells: Array<string | number>) => `${cells.map((v) => cell(String(v))).join(format === "csv" ? "," : "\t")}\r\n`;
  const side = (entry: number) => {
    const x = xrefsOf(entry);
    return [orthid(release.genomeOfEntry(entry), entry), ...sources.map((s) => x![s])];
  };
  const names = fieldNamesOf(release.manifest);
  const named = (orthName: string) => nameIn(names, "table", orthName);
  let out = options.header
    ? line([named("orthid_1"), ...sources.map((s) => `${s}_1`), named("orthid_2"), ...sources.map((s) => `${s}_2`), "RelType", named("OrthGroup")])
    : "";
  for (const r of rows) out += line([...side(r[0]), ...side(r[1]), REL_TYPES[r[2]], sharedGroup(r)]);
  return out;
}

/** A page of pairs as a CSV or TSV download. */
export async function pairsTable(
  release: Release,
  rows: PairRow[],
  options: { format: "csv" | "tsv"; genome1: GenomeInfo; genome2: GenomeInfo; xrefs?: string[]; headers: Record<string, string> },
): Promise<Response> {
  const { format, genome1, genome2 } = options;
  const text = await pairLines(release, rows, { format, xrefs: options.xrefs, header: true });
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace("T", "_").slice(0, 15);
  const date = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}_${stamp.slice(9, 15)}`;
  return new Response(text, {
    headers: {
      ...options.headers,
      "Content-Type": format === "csv" ? "text/csv; charset=utf-8" : "text/tab-separated-values; charset=utf-8",
      "Content-Disposition": `attachment; filename=${nameIn(fieldNamesOf(release.manifest), "table", "orth-Pairs")}_${genome1.code}-${genome2.code}_${date}.${format}`,
    },
  });
}

/** RFC 4180: quote a cell holding a comma, quote or line break, doubling its quotes. */
const csvCell = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);
/** TSV has no quoting: tabs and line breaks inside a cell become spaces. */
const tsvCell = (v: string): string => v.replace(/[\t\r\n]/g, " ");
