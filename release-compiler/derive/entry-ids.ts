import { BigArray, BigSet } from "../collections.js";
import { GrowingInts } from "../write/growing.js";
import type { AnnotationTable } from "./annotations.js";
import { aliasesOf, canonicalIdOf, type ProteinTable } from "./proteins.js";

/**
 * A versioned RefSeq (`NP_001004711.2`) or Ensembl (`ENSP00000354587.3`) accession: the
 * accession and its version. UniProt isoforms (`P12345-2`) are other proteins, not versions.
 */
const VERSIONED = /^((?:[A-Z]{2}_[A-Z]{0,4}|ENS[A-Z]+)\d+)\.\d+$/;
const UNVERSIONED = /^(?:[A-Z]{2}_[A-Z]{0,4}|ENS[A-Z]+)\d+$/;

/**
 * Every (id, entry) pair the protein lookup answers, in parallel arrays (a large release has
 * tens of millions): canonical ids, aliases and cross-references, and a versioned accession
 * without its version (clients often drop it). The entry-id index groups them by id; an id
 * naming several entries is ambiguous. An id given as such wins over a version-less one.
 */
export function entryIdPairs(p: ProteinTable, annotations: Pick<AnnotationTable, "xrefsAt">): { keys: BigArray<string>; entries: Int32Array } {
  // BigArrays: more than one array holds at 20 M proteins (collections.ts).
  const keys = new BigArray<string>();
  const entries = new GrowingInts();
  const unversioned = new BigArray<string>();
  const unversionedEntries = new GrowingInts();
  const add = (key: string, entry: number) => {
    if (!key) return;
    keys.push(key);
    entries.push(entry);
    const accession = VERSIONED.exec(key)?.[1];
    if (accession) {
      unversioned.push(accession);
      unversionedEntries.push(entry);
    }
  };
  for (let i = 0; i < p.count; i++) {
    add(canonicalIdOf(p, i), i + 1);
    for (const a of aliasesOf(p, i)) add(a, i + 1);
    for (const [, id] of annotations.xrefsAt(i)) add(id, i + 1);
  }
  if (unversioned.length) {
    const given = new BigSet<string>();
    for (const key of keys) if (UNVERSIONED.test(key)) given.add(key);
    for (let u = 0; u < unversioned.length; u++) {
      const accession = unversioned.at(u);
      if (given.has(accession)) continue;
      keys.push(accession);
      entries.push(unversionedEntries.values[u]);
    }
  }
  return { keys, entries: entries.values.subarray(0, entries.length) };
}
