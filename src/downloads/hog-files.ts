/**
 * HOG files: a HOG's members on a level as FASTA, and every HOG of a level as a table with its
 * members. Both read in slices as the client pulls, so a family of 50,000 members or a level
 * of a million HOGs streams in bounded memory.
 */
import { hogPlace, type FamilyRow, type HogListRow, type ProteinSummary, type SequenceRow } from "../../release-format/format.js";
import { fastaRecord } from "../render/fasta.js";
import { orthid } from "../render/protein.js";
import { memberSlicesByEntry, membersByEntry } from "../release/family-members.js";
import type { Release } from "../release/release.js";
import { rowsOf } from "../release/summaries.js";
import type { HogAt } from "../routes/hogs.js";
import { fastaHeader, type SequenceKind } from "./genome-fasta.js";

/** HOG list rows read at once. */
const HOG_SLICE = 2048;

/** The members of a HOG on a level as FASTA records, by entry number. */
export async function hogFasta(release: Release, family: FamilyRow, hog: HogAt, kind: SequenceKind): Promise<AsyncIterable<string>> {
  const slices = await memberSlicesByEntry(release, family, hog.members);
  const records = async (part: ProteinSummary[]) => {
    const sequences = await rowsOf<SequenceRow>(release, release.manifest.tables.sequences, part.map((m) => m.entry));
    let out = "";
    for (const m of part) {
      const row = sequences.get(m.entry)!;
      const sequence = kind === "cdna" ? row.cdna : row.sequence;
      if (sequence) out += fastaRecord(fastaHeader(release, m), sequence);
    }
    return out;
  };
  return (async function* () {
    for await (const part of slices) yield await records(part);
  })();
}

export const HOG_TABLE_COLUMNS = ["hog_id", "level", "roothog_id", "description", "completeness_score", "nr_members", "members_orthid", "members_canonicalid"];

/**
 * Every HOG of a level as TSV (the columns above; members comma-separated, by entry number),
 * in the order of the HOG list endpoint. `hogOnLevel` gives a HOG's members on the level.
 */
export async function hogTable(
  release: Release,
  level: number,
  hogOnLevel: (family: FamilyRow, id: string) => HogAt,
): Promise<AsyncIterable<string>> {
  const { tables, hogLists, indexes, taxonomy } = release.manifest;
  const [first, count] = hogLists.levels[level];
  const tsv = (cells: Array<string | number>) => `${cells.map((v) => String(v).replace(/[\t\r\n]/g, " ")).join("\t")}\n`;
  const slice = async (from: number): Promise<string> => {
    let out = "";
    for await (const row of await release.rows<HogListRow>(tables.hogList, first + from, first + Math.min(count, from + HOG_SLICE))) {
      const [id, rootHog, description, completeness] = row;
      const place = await release.lookup(indexes.hogIds, id);
      const { family: index, familyChunk } = hogPlace(place!);
      const family = await release.rowIn<FamilyRow>(tables.families, index - 1, familyChunk);
      const members = await membersByEntry(release, family, hogOnLevel(family, id).members);
      out += tsv([
        id,
        taxonomy.names[level],
        rootHog,
        description,
        completeness,
        members.length,
        members.map((m) => orthid(release.genomeOfEntry(m.entry), m.entry)).join(","),
        members.map((m) => m.canonicalId).join(","),
      ]);
    }
    return out;
  };
  const head = tsv(HOG_TABLE_COLUMNS) + (count ? await slice(0) : "");
  return (async function* () {
    yield head;
    for (let from = HOG_SLICE; from < count; from += HOG_SLICE) yield await slice(from);
  })();
}
