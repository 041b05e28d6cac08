import { ApiError, echo, notFound } from "../errors.js";
import { hogPlace, type HogPlace, type RowChunk, type FamilyRow, type HogCardRows, type GenomeInfo, type GroupRow, type ProteinRow } from "../../release-format/format.js";
import type { Release } from "./release.js";

const ENTRY_NUMBER = /^[0-9]{1,10}$/;
const ORTHID = /^([A-Z0-9]{5})([0-9]{5})$/;
const FINGERPRINT = /^[A-Z]{7}$/;
export const HOG_ID = /^HOG:([A-Z]*)([0-9]+)((?:\.[0-9]+[a-z]+)*)$/;

/** What an entry id names: one entry, none, or several (a cross-reference shared by proteins). */
export type EntryResolution = { kind: "found"; entry: number } | { kind: "unknown" } | { kind: "ambiguous"; entries: number[] };

/** The entry an entry number or orthid names, read from nothing; undefined for any other id. */
export function directEntry(release: Release, id: string): number | undefined {
  const { proteins } = release.manifest.counts;
  if (ENTRY_NUMBER.test(id)) {
    const nr = Number(id);
    if (nr >= 1 && nr <= proteins) return nr;
  }
  const m = ORTHID.exec(id);
  if (m) {
    const genome = release.manifest.genomes.find((g) => g.code === m[1]);
    const index = Number(m[2]);
    if (genome && index >= 1 && index <= genome.nrEntries) return genome.firstEntry + index - 1;
  }
  return undefined;
}

/** Resolves an `entry_id`: entry number, then orthid, then canonical id or cross-reference. */
export async function resolveEntry(release: Release, id: string): Promise<EntryResolution> {
  const direct = directEntry(release, id);
  if (direct !== undefined) return { kind: "found", entry: direct };
  const entries = await release.lookup(release.manifest.indexes.entryIds, id);
  if (!entries || entries.length === 0) return { kind: "unknown" };
  return entries.length === 1 ? { kind: "found", entry: entries[0] } : { kind: "ambiguous", entries };
}

/** The entry number of an `entry_id` a route was given: unknown → 404 "unknown"; several entries → 404 "not unique". */
export async function entryNumber(release: Release, id: string): Promise<number> {
  const resolved = await resolveEntry(release, id);
  if (resolved.kind === "found") return resolved.entry;
  throw notFound(`requested id '${echo(id)}' is ${resolved.kind === "unknown" ? "unknown" : "not unique"}`);
}

export async function proteinRow(release: Release, entry: number): Promise<ProteinRow> {
  return release.row(release.manifest.tables.proteins, entry - 1);
}

/** A genome by species code or NCBI taxon id. */
export function resolveGenome(release: Release, id: string): GenomeInfo {
  const { genomes } = release.manifest;
  const byCode = genomes.find((g) => g.code === id);
  if (byCode) return byCode;
  if (ENTRY_NUMBER.test(id)) {
    const byTaxon = genomes.filter((g) => g.taxonId === Number(id));
    if (byTaxon.length > 1) throw notFound(`Ambiguous species: ${echo(id)}`);
    if (byTaxon.length === 1) return byTaxon[0];
  }
  throw notFound(`Unknown species: ${echo(id)}`);
}

/**
 * A group by number, fingerprint, or a member's entry id. A protein without a group
 * resolves to `undefined` (the group read answers `{}`).
 */
export async function resolveGroup(release: Release, id: string): Promise<GroupRow | undefined> {
  const { groups } = release.manifest.counts;
  if (ENTRY_NUMBER.test(id)) {
    const nr = Number(id);
    if (nr < 1 || nr > groups) throw notFound(`requested id '${echo(id)}' is unknown`);
    return release.row(release.manifest.tables.groups, nr - 1);
  }
  if (FINGERPRINT.test(id)) {
    const nrs = await release.lookup(release.manifest.indexes.fingerprints, id);
    if (nrs && nrs.length > 1) throw notFound(`${echo(id)} is not a unique id`);
    if (nrs && nrs.length === 1) return release.row(release.manifest.tables.groups, nrs[0] - 1);
  }
  const protein = await proteinRow(release, await entryNumber(release, id));
  return protein.group ? release.row(release.manifest.tables.groups, protein.group - 1) : undefined;
}

/**
 * Where a HOG is: its id, its family, the rows of its HOG cards in a family that has them
 * (FORMAT.md, "HOG cards"), for another tool's id the level that id names, and for a HOG
 * found by a protein's id that protein's entry (its family row is read beside it).
 */
export interface HogRef {
  hogId: string;
  family: number;
  /** The families chunk of its row, where the HOG id index named it. */
  familyChunk?: RowChunk;
  cards?: HogCardRows;
  level?: number;
  entry?: number;
}

/**
 * The HOG a HOG id names, the HOG another tool's id names (an OrthoFinder `N1.HOG0000005` or
 * `OG0000005`, in releases with `hogAliases`: then `level` is that HOG's level, the level a
 * route takes when its request gives none), or the HOG of a protein given by any entry id (in
 * a family with HOG cards its row names their rows).
 */
export async function findHog(release: Release, id: string): Promise<HogRef> {
  const aliases = release.manifest.indexes.hogAliases;
  const alias = aliases && !id.startsWith("HOG:") ? await release.lookup(aliases, id) : undefined;
  if (alias) {
    const [family, aliasId, level, ...place] = alias;
    return { hogId: aliasId, level, ...hogPlace([family, ...place] as HogPlace) };
  }
  if (id.startsWith("HOG:")) {
    const m = HOG_ID.exec(id);
    if (!m) throw notFound(`Invalid hog id: ${echo(id)}`);
    if (m[1] !== release.manifest.hogPrefix) throw new ApiError(410, `ID ${echo(id)} is no longer valid.`);
  } else {
    const protein = await proteinRow(release, await entryNumber(release, id));
    if (!protein.hog || !protein.family) throw notFound(`${echo(id)} is not part of any HOG.`);
    const [card, root] = protein.hogCards ?? [];
    return { hogId: protein.hog, family: protein.family, entry: protein.entry, ...(card === undefined ? {} : { cards: { card, root: root! } }) };
  }
  const place = await release.lookup(release.manifest.indexes.hogIds, id);
  if (place === undefined) throw notFound(`requested id '${echo(id)}' is unknown`);
  return { hogId: id, ...hogPlace(place) };
}

/** The family row of a HOG found by findHog: beside the protein it was found by, else from the chunk its index names (no directory read either way). */
export async function familyOf(release: Release, hog: HogRef): Promise<FamilyRow> {
  const { families } = release.manifest.tables;
  return hog.entry === undefined ? release.rowIn(families, hog.family - 1, hog.familyChunk) : release.rowBeside("families", hog.entry, hog.family - 1);
}

/** The family holding a HOG id, another tool's id of a HOG, or a protein's HOG (findHog), with its family row. */
export async function resolveHog(release: Release, id: string): Promise<{ hogId: string; family: FamilyRow; level?: number }> {
  const hog = await findHog(release, id);
  return { hogId: hog.hogId, family: await familyOf(release, hog), level: hog.level };
}
