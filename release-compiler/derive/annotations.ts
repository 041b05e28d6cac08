import type { AnnotationRow, GoTerm } from "../../release-format/format.js";
import { BigMap, BigSet, KeyFilter } from "../collections.js";
import type { OboTerm } from "../inputs.js";
import { Problems } from "../problems.js";
import { readDomainBatches } from "../readers/domains.js";
import { readGafBatches } from "../readers/gaf.js";
import { readLineBatches, takeRows } from "../readers/lines.js";
import { readObo } from "../readers/obo.js";
import { readUniProtBatches } from "../readers/uniprot.js";
import { readXrefBatches } from "../readers/xrefs.js";
import { aliasesOf, keepUsedDescriptions, type ProteinTable } from "./proteins.js";
import { lazyField } from "../snapshot.js";
import { annotationReader, annotationSpill, type AnnotationSpill, type GoAnnotation } from "./annotation-file.js";
import type { EntryFile } from "./entry-file.js";
import { ownString } from "./strings.js";

/** Cross-references, GO annotations and domains of every protein, read from their file (annotation-file.ts). */
export interface AnnotationTable {
  /** The annotation row of entry number - 1, built when asked for. */
  rowAt(index: number): AnnotationRow;
  /** Its cross-references alone (the entry-id index, the cross-reference search), */
  xrefsAt(index: number): AnnotationRow["xrefs"];
  /** and its GO annotations alone (the family GO table). */
  goAt(index: number): AnnotationRow["go"];
  count: number;
  goTerms: Map<string, GoTerm>;
  /** The table as plain data, for the derive task's snapshot. */
  readonly data: AnnotationData;
  /** Closes the file, if a row was read (another read opens it again). */
  close(): void;
}

/** An annotation table as plain data, for a task's snapshot (snapshot.ts): its rows in a file of the derive task's folder. */
export interface AnnotationData {
  count: number;
  file: EntryFile;
  goTerms: Map<string, GoTerm>;
}

/** The table of `data`, its file in `folder`; its GO terms taken from `data` when first used. */
export function restoreAnnotations(data: AnnotationData, folder: string): AnnotationTable {
  const table = { ...annotationReader(data.file, folder), data } as AnnotationTable;
  for (const key of ["count", "goTerms"] as const) lazyField(table, key, () => data[key]);
  return table;
}

/** A free-text xref source that describes the protein rather than naming it. */
const DESCRIPTION_SOURCE = "Description";

/**
 * Resolves an annotation's protein id: the FASTA id, the canonical id, a UniProt alias,
 * or a cross-reference read earlier that names exactly one protein. Only ids that some
 * annotation names its protein by (`queried`: queriedIds) are kept besides the FASTA ids: the
 * same answers, where keeping every cross-reference id read (~5 a protein) held ~0.5 GB of
 * derive's heap at a million proteins, of which the simulated files ask for a tenth.
 */
function proteinResolver(t: ProteinTable, queried: BigSet<string>) {
  // Past a Map's limit at ~16 M keys (collections.ts): every protein's canonical id may be asked for.
  const byAlias = new BigMap<string, number | null>();
  // Most ids learnt are asked for by no file (a tenth are, in the simulated releases): the
  // filter answers those without a lookup in `queried` (~5 s of this thread at a million proteins).
  const mayBeQueried = KeyFilter.of(queried, queried.size);
  const inputEntry = inputIdReader(t);
  // Files name a protein in runs of lines: the last id's answer, until `add` changes it.
  let lastId: string | undefined;
  let lastEntry: number | undefined;
  /** `slice`: the key is a slice of a line read, kept as a copy (strings.ts) when it is new. */
  const add = (key: string, entry: number, slice = false) => {
    if (!mayBeQueried.mayHave(key) || !queried.has(key)) return;
    const known = byAlias.get(key);
    if (known === undefined) byAlias.set(slice ? ownString(key) : key, entry);
    else if (known !== entry) byAlias.set(key, null);
    else return;
    if (key === lastId) lastId = undefined;
  };
  for (let i = 0; i < t.count; i++) {
    // A protein without an accession is named by its FASTA id alone, which resolves first (inputIdReader).
    if (t.accessions.is(i, "")) continue;
    add(t.accessions.at(i), i + 1);
    for (const a of aliasesOf(t, i)) add(a, i + 1);
  }
  return {
    resolve(id: string): number | undefined {
      if (id === lastId) return lastEntry;
      lastId = id;
      return (lastEntry = inputEntry(id) ?? byAlias.get(id) ?? undefined);
    },
    learn(id: string, entry: number) {
      add(id, entry, true);
    },
  };
}

/**
 * The entry of a FASTA id (the proteins' inputIds), for ids asked in a file's order: files list
 * proteins mostly in entry order, so the entry after the last one found is tried first, by
 * comparing its id's bytes, before a lookup in the index. Input ids are unique to their entry,
 * so the answer is the index's either way.
 */
function inputIdReader({ inputIds }: Pick<ProteinTable, "inputIds">): (id: string) => number | undefined {
  /** The entry after the last one found. */
  let next = 1;
  return (id) => {
    if (inputIds.is(next, id)) return next++;
    const entry = inputIds.numberOf(id);
    if (entry !== undefined) next = entry + 1;
    return entry;
  };
}

/**
 * Every id an annotation file may name its protein by that is not a FASTA id (those resolve
 * first, by the proteins' inputIds): a pass over the files' id fields alone, as their readers cut them
 * (readXrefTsv, readUniProt, readDomainTsv, readGaf), any line's, so that nothing a reader
 * resolves is missed (a line the reader refuses adds an id never asked for, harmlessly).
 */
export async function queriedIds(inputs: AnnotationInputs, proteins: Pick<ProteinTable, "inputIds">): Promise<BigSet<string>> {
  // As many as the proteins' canonical ids and more, where the files name proteins by accession: past a Set's limit.
  const queried = new BigSet<string>();
  // Files name a protein in runs of lines: each id is looked up once a run.
  let last = "";
  const inputEntry = inputIdReader(proteins);
  const note = (id: string | undefined) => {
    if (!id || id === last) return;
    last = id;
    if (inputEntry(id) === undefined && !queried.has(id)) queried.add(ownString(id));
  };
  const column = (text: string, k: number) => {
    let start = 0;
    for (let i = 0; i < k; i++) {
      start = text.indexOf("\t", start) + 1;
      if (start === 0) return undefined;
    }
    const end = text.indexOf("\t", start);
    return (end < 0 ? text.slice(start) : text.slice(start, end)).trim();
  };
  // A file that cannot be read is reported by its reader, after this pass.
  const unreported = new Problems();
  // A file's lines a chunk at a time (readLineBatches).
  const lines = (file: string) => readLineBatches(file, unreported);
  for (const file of [...(inputs.xrefs ?? []), ...(inputs.domains ? [inputs.domains] : [])]) for await (const batch of lines(file)) for (const text of batch.lines) note(column(text, 0));
  for (const file of inputs.goAnnotations ?? []) for await (const batch of lines(file)) for (const text of batch.lines) if (!text.startsWith("!")) note(column(text, 1));
  for (const file of inputs.uniprot ?? []) {
    for await (const batch of lines(file)) for (const text of batch.lines) {
      const code = text.slice(0, 2);
      const data = text.length > 5 ? text.slice(5) : "";
      if (code === "ID") note(data.trim().split(/\s+/)[0]);
      else if (code === "AC") for (const acc of data.split(";")) note(acc.trim());
    }
  }
  return queried;
}

export interface AnnotationInputs {
  /** The release config, named in warnings. */
  configPath?: string;
  xrefs?: string[];
  uniprot?: string[];
  goAnnotations?: string[];
  goOntology?: string;
  domains?: string;
}

/**
 * Reads the annotation files into their file in `files.folder` (annotation-file.ts), through a
 * spill in `files.scratch.folder`: the table reads its rows from that file. `queried`, the ids
 * the files name proteins by, may have been scanned for beforehand (compile.ts: while the main
 * thread waits on workers).
 */
export async function readAnnotations(
  t: ProteinTable,
  inputs: AnnotationInputs,
  problems: Problems,
  files: { folder: string; scratch: { folder: string; memoryBytes: number; threads: number } },
  queried: Promise<BigSet<string>> = queriedIds(inputs, t),
): Promise<AnnotationTable> {
  const spill = await annotationSpill(t.count, files.scratch);
  try {
    const { file, goTerms } = await readInto(spill, t, inputs, problems, files.folder, await queried);
    return restoreAnnotations({ count: t.count, file, goTerms }, files.folder);
  } finally {
    spill.close();
  }
}

/** Reads every annotation file into `store`, then its rows into their file in `folder`: the file, and the GO terms they cite. */
async function readInto(store: AnnotationSpill, t: ProteinTable, inputs: AnnotationInputs, problems: Problems, folder: string, queried: BigSet<string>) {
  const resolver = proteinResolver(t, queried);
  const addXref = (entry: number, source: string, id: string) => {
    store.addXref(entry - 1, source, id);
    resolver.learn(id, entry);
  };

  // Proteins whose description a cross-reference or UniProt entry gave (1), by entry - 1.
  const described = new Uint8Array(t.count);
  for (const file of inputs.xrefs ?? []) {
    await takeRows(readXrefBatches(file, problems), problems, (x) => {
      const entry = resolver.resolve(x.proteinId);
      if (entry === undefined) {
        problems.report(file, x.line, `unknown protein ${x.proteinId}`);
        return;
      }
      if (x.source === DESCRIPTION_SOURCE) {
        // A curated description replaces the FASTA header's text; the first one given wins.
        if (!described[entry - 1]) t.description[entry - 1] = t.descriptions.add(x.xref);
        described[entry - 1] = 1;
      } else addXref(entry, x.source, x.xref);
    });
  }

  // GO term names of DR GO lines (any entry's), for releases without an OBO file.
  const uniprotGoNames = new Map<string, string>();
  for (const file of inputs.uniprot ?? []) {
    // Not takeRows: nothing here reports a problem, and the reader reports some of an entry's after later lines'.
    for await (const entries of readUniProtBatches(file, problems)) for (const u of entries) {
      if (!inputs.goOntology) {
        for (const dr of u.crossRefs) {
          const name = dr.database === "GO" && !uniprotGoNames.has(dr.id) ? goTermName(dr.extra) : undefined;
          if (name) uniprotGoNames.set(ownString(dr.id), ownString(name));
        }
      }
      // UniProt files usually cover more than the release: entries of other proteins are skipped.
      const entry = [...u.accessions, u.entryName].map((id) => resolver.resolve(id)).find((e) => e !== undefined);
      if (entry === undefined) continue;
      const db = u.reviewed ? "UniProtKB/SwissProt" : "UniProtKB/TrEMBL";
      for (const acc of u.accessions) addXref(entry, db, acc);
      addXref(entry, db, u.entryName);
      for (const dr of u.crossRefs) if (dr.database !== "GO") addXref(entry, dr.database, dr.id);
      // The entry's name describes the protein unless a Description cross-reference did (it replaces the FASTA header's text).
      if (u.description && !described[entry - 1]) {
        t.description[entry - 1] = t.descriptions.add(u.description);
        described[entry - 1] = 1;
      }
      const entryName = ownString(u.entryName);
      for (const d of u.domains) store.addDomain(entry - 1, ["UniProt", entryName, d.name, d.start, d.end]);
    }
  }

  // The texts replaced (a release's FASTA headers, often each its own) go.
  if (described.includes(1)) keepUsedDescriptions(t);

  const domains = inputs.domains;
  if (domains) {
    await takeRows(readDomainBatches(domains, problems), problems, (d) => {
      const entry = resolver.resolve(d.proteinId);
      if (entry === undefined) {
        problems.report(domains, d.line, `unknown protein ${d.proteinId}`);
        return;
      }
      if (d.end > t.length[entry - 1]) {
        problems.report(domains, d.line, `domain end ${d.end} is past the end of ${d.proteinId} (length ${t.length[entry - 1]})`);
        return;
      }
      store.addDomain(entry - 1, [d.source, d.domainId, d.name, d.start, d.end]);
    });
  }

  const ontology = inputs.goOntology ? await readObo(inputs.goOntology, problems) : new Map<string, OboTerm>();
  const altIds = new Map<string, string>();
  for (const term of ontology.values()) for (const alt of term.altIds) altIds.set(alt, term.id);
  for (const file of inputs.goAnnotations ?? []) {
    await takeRows(readGafBatches(file, problems), problems, (a) => {
      const entry = resolver.resolve(a.objectId);
      if (entry === undefined) {
        problems.report(file, a.line, `unknown protein ${a.objectId}`);
        return;
      }
      if (a.qualifier.includes("NOT")) return;
      const goId = altIds.get(a.goId) ?? a.goId;
      if (ontology.size && !ontology.has(goId)) {
        problems.report(file, a.line, `${a.goId} is not a term of ${inputs.goOntology}`);
        return;
      }
      store.addGo(entry - 1, [goId, a.evidence, a.reference, a.aspect]);
    });
  }
  const counts = goTermCounts(ontology);
  const file = await store.finish(folder, counts.add);
  const goTerms = counts.terms(uniprotGoNames);
  if (inputs.goAnnotations?.length && !inputs.goOntology) {
    const unnamed = [...goTerms.values()].filter((term) => !term.name).length;
    problems.warn(
      inputs.configPath ?? "config",
      0,
      `"go_annotations" without "go_ontology": ${unnamed} of ${goTerms.size} GO terms have no name ` +
        `(an OBO file names them all; without it, names come from the DR GO lines of the "uniprot" files)`,
    );
  }
  return { file, goTerms };
}

/** The term name of a DR GO line's fields after the id: `C:cytoplasm; IBA:GO_Central` → `cytoplasm`. */
function goTermName(extra: string[]): string | undefined {
  return /^[CFP]:(.+)$/.exec(extra.slice(0, -1).join("; "))?.[1];
}

const ASPECT_NAMESPACE = { F: "molecular_function", P: "biological_process", C: "cellular_component" } as const;

/**
 * Term names (the ontology's, else the UniProt files'), aspects and information content:
 * IC(t) = -ln(p(t)), where p(t) is the share of annotated proteins of t's aspect annotated
 * with t or one of its descendants. `add` each protein's GO annotations (in entry order), then
 * read the `terms`.
 */
function goTermCounts(ontology: Map<string, OboTerm>) {
  const ancestors = new Map<string, string[]>();
  const ancestorsOf = (id: string): string[] => {
    let out = ancestors.get(id);
    if (out) return out;
    ancestors.set(id, []); // guards against is_a cycles
    const set = new Set<string>([id]);
    for (const p of ontology.get(id)?.isA ?? []) for (const a of ancestorsOf(p)) set.add(a);
    out = [...set];
    ancestors.set(id, out);
    return out;
  };
  const proteinsWith = new Map<string, number>();
  const proteinsPerAspect = new Map<string, number>();
  // The aspect each term was first annotated with, for terms the ontology does not know.
  const annotatedAspect = new Map<string, "P" | "F" | "C">();
  return {
    add(annotations: GoAnnotation[]): void {
      const terms = new Set<string>();
      const aspects = new Set<string>();
      for (const [goId, , , aspect] of annotations) {
        aspects.add(aspect);
        for (const a of ancestorsOf(goId)) terms.add(a);
        if (!annotatedAspect.has(goId)) annotatedAspect.set(goId, aspect);
      }
      for (const t of terms) proteinsWith.set(t, (proteinsWith.get(t) ?? 0) + 1);
      for (const a of aspects) proteinsPerAspect.set(a, (proteinsPerAspect.get(a) ?? 0) + 1);
    },
    terms(otherNames: Map<string, string>): Map<string, GoTerm> {
      const out = new Map<string, GoTerm>();
      for (const id of [...annotatedAspect.keys()].sort()) {
        const term = ontology.get(id);
        const letter = term
          ? (Object.keys(ASPECT_NAMESPACE) as Array<keyof typeof ASPECT_NAMESPACE>).find((k) => ASPECT_NAMESPACE[k] === term.namespace)!
          : annotatedAspect.get(id)!;
        const total = proteinsPerAspect.get(letter) ?? 0;
        const n = proteinsWith.get(id) ?? 0;
        const ic = total && n ? Math.round(-Math.log(n / total) * 1e4) / 1e4 : 0;
        out.set(id, { name: term?.name ?? otherNames.get(id) ?? "", aspect: ASPECT_NAMESPACE[letter], ic });
      }
      return out;
    },
  };
}
