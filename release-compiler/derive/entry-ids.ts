import { BigSet, roomFor } from "../collections.js";
import type { AnnotationTable } from "./annotations.js";
import type { ProteinTable } from "./proteins.js";

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
export function entryIdPairs(p: ProteinTable, annotations: Pick<AnnotationTable, "xrefsAt">): { keys: string[]; entries: number[] } {
  const keys: string[] = [];
  const entries: number[] = [];
  const unversioned: Array<[string, number]> = [];
  const add = (key: string, entry: number) => {
    if (!key) return;
    roomFor(keys.length, "the entry id index's ids (canonical ids, aliases, cross-reference ids)");
    keys.push(key);
    entries.push(entry);
    const accession = VERSIONED.exec(key)?.[1];
    if (accession) {
      roomFor(unversioned.length, "the entry id index's unversioned accessions");
      unversioned.push([accession, entry]);
    }
  };
  for (let i = 0; i < p.count; i++) {
    add(p.canonicalId[i], i + 1);
    for (const a of p.aliases[i]) add(a, i + 1);
    for (const [, id] of annotations.xrefsAt(i)) add(id, i + 1);
  }
  if (!unversioned.length) return { keys, entries };
  const given = new BigSet(keys.filter((key) => UNVERSIONED.test(key)));
  for (const [accession, entry] of unversioned) {
    if (given.has(accession)) continue;
    roomFor(keys.length, "the entry id index's ids (canonical ids, aliases, cross-reference ids)");
    keys.push(accession);
    entries.push(entry);
  }
  return { keys, entries };
}
