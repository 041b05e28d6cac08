/**
 * The eight operations of the legacy SOAP interface (reference D.2), answered from the same
 * release reads as the REST interface.
 */
import { ApiError } from "../errors.js";
import { annotationRow } from "../release/annotations.js";
import { isOrthologType, REL_TYPES, type AnnotationRow, type GroupRow, type ProteinRow } from "../../release-format/format.js";
import type { Release } from "../release/release.js";
import { proteinRow, resolveEntry } from "../release/resolve.js";
import { rowsOf } from "../release/summaries.js";
import { xrefsOf } from "../../release-format/xrefs.js";
import { fieldNamesOf, nameIn } from "../render/field-names.js";
import { orthid } from "../render/protein.js";
import { KMER_LENGTH, sanitiseSequence } from "../../release-format/kmers.js";
import { exactMatches } from "../search/sequence-index.js";
import { clientFault, intPart, malformed, stringListPart, stringPart, type SoapCall } from "./envelope.js";
import type { SoapValue } from "./xml-out.js";

type Parts = Array<[string, SoapValue]>;

const ORTHO_TYPES: Record<string, string> = {
  "1:1": "1:1 orthologs",
  "1:n": "1:many orthologs",
  "m:1": "many:1 orthologs",
  "m:n": "many:many orthologs",
};

/** Id types after 0 (the orthid): these sources first when the release has them, then the others by name. */
const PREFERRED_SOURCES = ["UniProtKB/SwissProt", "UniProtKB/TrEMBL", "Ensembl Protein", "Ensembl Gene", "RefSeq", "EntrezGene"];

/** An entry id that must resolve: unknown or ambiguous ids are Client faults. */
async function entryOf(release: Release, id: string): Promise<number> {
  const resolved = await resolveEntry(release, id.trim());
  if (resolved.kind === "found") return resolved.entry;
  throw clientFault(`${resolved.kind === "ambiguous" ? "Ambiguous" : "Unknown"} entry id: ${id.slice(0, 100)}`);
}

/** An entry id that may not resolve (list operations answer an empty list then). */
async function entryOrNone(release: Release, id: string): Promise<number | undefined> {
  const resolved = await resolveEntry(release, id.trim());
  return resolved.kind === "found" ? resolved.entry : undefined;
}

const idOf = (release: Release, entry: number) => orthid(release.genomeOfEntry(entry), entry);

/** Pairwise orthologs of an entry: `[partner, relation type]` by partner entry number. */
async function orthologsOf(release: Release, entry: number): Promise<Array<[number, string]>> {
  const relations = await release.rowBeside("relations", entry, entry - 1);
  return relations.filter(([, t]) => isOrthologType(t)).map(([partner, t]) => [partner, REL_TYPES[t]]);
}

/** The release's id types: 0 the orthid, then one per cross-reference source. */
export function idTypes(release: Release): string[] {
  const sources = release.manifest.xrefSearch.sources.filter((s) => s !== "orthid");
  const preferred = PREFERRED_SOURCES.filter((s) => sources.includes(s));
  const others = sources.filter((s) => !preferred.includes(s)).sort();
  return ["orthid", ...preferred, ...others];
}

export const operations: Record<string, (release: Release, call: SoapCall) => Promise<Parts>> = {
  async TestOrthology(release, call) {
    const first = await entryOf(release, stringPart(call, "EntryID1", 0));
    const second = await entryOf(release, stringPart(call, "EntryID2", 1));
    const relation = (await orthologsOf(release, first)).find(([partner]) => partner === second);
    return [["OrthoType", { type: "string", value: relation ? ORTHO_TYPES[relation[1]] : "not orthologous" }]];
  },

  async ListOrthologs(release, call) {
    const entry = await entryOrNone(release, stringPart(call, "EntryID", 0));
    const orthologs = entry ? await orthologsOf(release, entry) : [];
    return [["IDs", { type: "strings", value: orthologs.map(([partner]) => idOf(release, partner)) }]];
  },

  async GetOrthGroup(release, call) {
    const nr = intPart(call, "GroupNr", 0);
    if (nr < 1 || nr > release.manifest.counts.groups) throw clientFault(`Unknown group: ${nr}`);
    const group = await release.row<GroupRow>(release.manifest.tables.groups, nr - 1);
    return [["IDs", { type: "strings", value: group.members.map((m) => idOf(release, m.entry)) }]];
  },

  async GetEntry(release, call) {
    const entry = await entryOf(release, stringPart(call, "EntryID", 0));
    const [protein, sequence, annotations] = await Promise.all([
      proteinRow(release, entry),
      release.rowBeside("sequences", entry, entry - 1),
      annotationRow(release, entry),
    ]);
    // The orthid, the canonical id, then every cross-reference id.
    const ids = [idOf(release, entry), protein.canonicalId, ...xrefsOf(protein, annotations).map((x) => x.id)].filter(Boolean);
    return [
      ["IDs", { type: "strings", value: [...new Set(ids)] }],
      ["Sequence", { type: "string", value: sequence.sequence }],
      ["Organism", { type: "string", value: release.genomeOfEntry(entry).species }],
      ["OrthGroup", { type: "int", value: protein.group }],
    ];
  },

  async IdentifySequence(release, call) {
    const query = sanitiseSequence(stringPart(call, "Sequence", 0));
    if (query.length < KMER_LENGTH) throw malformed(`the sequence must have at least ${KMER_LENGTH} amino acids`);
    let entries: number[];
    try {
      entries = await exactMatches(release, query);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) throw clientFault(error.detail);
      throw error;
    }
    return [["IDs", { type: "strings", value: entries.map((e) => idOf(release, e)) }]];
  },

  async GetMatrixInfo(release) {
    const { name, counts } = release.manifest;
    return [
      ["Name", { type: "string", value: name }],
      ["NumSpecies", { type: "int", value: counts.genomes }],
      ["NumGroups", { type: "int", value: counts.groups }],
    ];
  },

  async ListIDTypes(release) {
    // Type 0, the entry id, is named as the release's profile names it (orthid, omaid).
    const named = (name: string, nr: number) => (nr === 0 ? nameIn(fieldNamesOf(release.manifest), "value", name) : name);
    return [["IDLists", { type: "idTypes", value: idTypes(release).map((name, nr) => ({ nr, name: named(name, nr) })) }]];
  },

  async MapIDs(release, call) {
    const ids = stringListPart(call, "InIDs", 0);
    const outType = intPart(call, "OutType", 1);
    const types = idTypes(release);
    if (outType < 0 || outType >= types.length) throw clientFault(`Unknown id type: ${outType} (ListIDTypes names 0 to ${types.length - 1})`);
    if (ids.length > 1000) throw malformed("at most 1000 ids per MapIDs call");
    const entries = await Promise.all(ids.map((id) => entryOrNone(release, id)));
    const found = entries.filter((e): e is number => e !== undefined);
    const [proteins, annotations] = await Promise.all([
      rowsOf<ProteinRow>(release, release.manifest.tables.proteins, found),
      outType === 0 ? undefined : rowsOf<AnnotationRow>(release, release.manifest.tables.annotations, found),
    ]);
    const source = types[outType];
    const mapped = entries.map((entry) => {
      if (entry === undefined) return [];
      if (outType === 0) return [idOf(release, entry)];
      const xrefs = xrefsOf(proteins.get(entry)!, annotations!.get(entry)!);
      return [...new Set(xrefs.filter((x) => x.source === source).map((x) => x.id))];
    });
    return [["OutIDs", { type: "stringLists", value: mapped }]];
  },
};
