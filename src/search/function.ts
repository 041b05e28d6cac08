/**
 * Function annotation of a sequence (reference E.3): the GO annotations of the entries holding
 * it, else of its best approximate match that has any, as GAF 2.0-like rows.
 */
import { goTermsOf } from "../release/annotations.js";
import type { AnnotationRow } from "../../release-format/format.js";
import type { Release } from "../release/release.js";
import { rowsOf } from "../release/summaries.js";
import { fieldNamesOf, nameIn } from "../render/field-names.js";
import { orthid } from "../render/protein.js";
import { exactMatches } from "./sequence-index.js";
import { approximateHits, MIN_ALIGNMENT_SCORE } from "./sequence-search.js";

/** Shorter queries are too short to annotate: no annotations rather than chance ones. */
const MIN_ANNOTATED_LENGTH = 25;
/** Approximate hits within this share of the best score may lend their annotations. */
const NEAR_BEST = 0.8;

export interface GafRow {
  DB: string;
  Qualifier: string;
  GO_ID: string;
  "DB:Reference": string;
  Evidence: string;
  With: string;
  Aspect: "P" | "F" | "C";
  DB_Object_Name: string;
  Synonym: string;
  DB_Object_Type: string;
  Date: string;
  Assigned_By: string;
  GO_name: string;
}

export async function goAnnotationsOf(release: Release, query: string): Promise<GafRow[]> {
  if (query.length < MIN_ANNOTATED_LENGTH) return [];
  const { annotations } = release.manifest.tables;
  const id = (entry: number) => orthid(release.genomeOfEntry(entry), entry);

  // Sources: every exact match, or the first near-best approximate hit with annotations.
  let sources: Array<{ entry: number; with: string; row: AnnotationRow }> = [];
  const exact = await exactMatches(release, query);
  if (exact.length) {
    const rows = await rowsOf<AnnotationRow>(release, annotations, exact);
    sources = exact.map((entry) => ({ entry, with: `Exact:${id(entry)}`, row: rows.get(entry)! }));
  } else {
    const hits = await approximateHits(release, query);
    const near = hits.filter((h) => h.score >= MIN_ALIGNMENT_SCORE && h.score >= NEAR_BEST * (hits[0]?.score ?? 0));
    const rows = await rowsOf<AnnotationRow>(release, annotations, near.map((h) => h.entry));
    const first = near.find((h) => rows.get(h.entry)!.go.length > 0);
    if (first) sources = [{ entry: first.entry, with: `Approx:${id(first.entry)}:${first.score}`, row: rows.get(first.entry)! }];
  }

  const terms = await goTermsOf(release, sources.map((s) => s.entry));
  const date = release.manifest.date.replace(/-/g, "");
  // The GAF's database and reference names carry the profile's name (orth_FastMap, OMA_FastMap).
  const named = (orthName: string) => nameIn(fieldNamesOf(release.manifest), "value", orthName);
  const seen = new Set<string>();
  const out: GafRow[] = [];
  for (const source of sources) {
    for (const [goId, , , aspect] of source.row.go) {
      const key = `${goId}\t${source.with}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({
        DB: named("orth_FastMap"),
        Qualifier: "",
        GO_ID: goId,
        "DB:Reference": named("orth_Fun:002"),
        Evidence: "IEA",
        With: source.with,
        Aspect: aspect,
        DB_Object_Name: "",
        Synonym: "",
        DB_Object_Type: "protein",
        Date: date,
        Assigned_By: named("orth_FastMap"),
        GO_name: terms.get(goId)?.name ?? "",
      });
    }
  }
  return out;
}
