/**
 * Every relation between two genomes (orthologs; within one genome, close paralogs and
 * homoeologs) as the pairs endpoint's TSV gives a page of them, all pages in one stream: read a
 * few thousand pairs at a time, with the summaries (and cross-references) of that slice only.
 */
import type { GenomeInfo } from "../../release-format/format.js";
import { pairLines } from "../render/pairs.js";
import { pairsBetween } from "../release/pairs.js";
import type { Release } from "../release/release.js";

/** Pairs rendered per read: a few pairs chunks and the proteins chunks of their summaries. */
const SLICE = 4096;

export async function pairsTsv(release: Release, genome1: GenomeInfo, genome2: GenomeInfo, xrefs?: string[]): Promise<AsyncIterable<string>> {
  const pairs = await pairsBetween(release, genome1, genome2, {});
  // The first slice is read before the answer starts: a storage fault is a 503, not a cut stream.
  const first = await pairLines(release, await pairs.rows(0, Math.min(SLICE, pairs.total)), { format: "tsv", xrefs, header: true });
  return (async function* () {
    yield first;
    for (let from = SLICE; from < pairs.total; from += SLICE) {
      yield await pairLines(release, await pairs.rows(from, Math.min(pairs.total, from + SLICE)), { format: "tsv", xrefs, header: false });
    }
  })();
}
