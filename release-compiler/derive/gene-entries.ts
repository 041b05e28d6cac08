/**
 * The orthoXML header's gene ids → entry numbers, as the threads that read the families share
 * them. Where every gene id is a whole number written plainly (OMA's, FastOMA's and the
 * simulator's: `1000000010`), they are two sorted typed arrays in shared memory, which worker
 * threads read in place: as a Map each worker held its own copy, ~110 MB of heap at a million
 * genes, and with two of them that was derive's peak. Other ids stay in a BigMap, copied to each.
 */
import { BigMap, type BigMapData } from "../collections.js";

export interface GeneEntries {
  get(id: string): number | undefined;
  has(id: string): boolean;
}

/** What a worker thread is posted (geneEntriesFrom takes it back): shared arrays, or a BigMap's parts. */
export type GeneEntriesData = { numbers: Float64Array; entries: Int32Array } | BigMapData<string, number>;

/** A whole number as it is written plainly: no sign, no leading zero, exact as a double. */
const PLAIN_NUMBER = /^(?:0|[1-9]\d{0,14})$/;

/** The genes' entries; a gene id given twice maps to its last entry, as a Map's `set` would. */
export function geneEntries(genes: ReadonlyArray<readonly [string, number]>): { entries: GeneEntries; data: GeneEntriesData } {
  if (!genes.every(([id]) => PLAIN_NUMBER.test(id))) {
    const map = new BigMap<string, number>();
    for (const [id, entry] of genes) map.set(id, entry);
    return { entries: map, data: map.data() };
  }
  // Sorted by number, a repeated id's last entry kept.
  const value = Float64Array.from(genes, ([id]) => Number(id));
  const order = Uint32Array.from(genes.keys()).sort((a, b) => value[a] - value[b] || a - b);
  const kept = order.filter((k, i) => i + 1 === order.length || value[order[i + 1]] !== value[k]);
  const numbers = new Float64Array(new SharedArrayBuffer(kept.length * Float64Array.BYTES_PER_ELEMENT));
  const entries = new Int32Array(new SharedArrayBuffer(kept.length * Int32Array.BYTES_PER_ELEMENT));
  kept.forEach((k, i) => {
    numbers[i] = value[k];
    entries[i] = genes[k][1];
  });
  const data = { numbers, entries };
  return { entries: geneEntriesFrom(data), data };
}

/** The gene entries a thread was posted. */
export function geneEntriesFrom(data: GeneEntriesData): GeneEntries {
  if (!("numbers" in data)) return BigMap.from(data);
  const { numbers, entries } = data;
  const get = (id: string): number | undefined => {
    if (!PLAIN_NUMBER.test(id)) return undefined;
    const n = Number(id);
    let lo = 0;
    let hi = numbers.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (numbers[mid] < n) lo = mid + 1;
      else hi = mid;
    }
    return lo < numbers.length && numbers[lo] === n ? entries[lo] : undefined;
  };
  return { get, has: (id) => get(id) !== undefined };
}
