import type { AnnotationRow, GoTerm } from "../../src/release/format.js";
import type { OboTerm } from "../inputs.js";
import type { Problems } from "../problems.js";
import { readDomainTsv } from "../readers/domains.js";
import { readGaf } from "../readers/gaf.js";
import { readObo } from "../readers/obo.js";
import { readUniProt } from "../readers/uniprot.js";
import { readXrefTsv } from "../readers/xrefs.js";
import type { ProteinTable } from "./proteins.js";

/** Cross-references, GO annotations and domains of every protein, by entry number - 1. */
export interface AnnotationTable {
  rows: AnnotationRow[];
  goTerms: Map<string, GoTerm>;
}

/** A free-text xref source that describes the protein rather than naming it. */
const DESCRIPTION_SOURCE = "Description";

/**
 * Resolves an annotation's protein id: the FASTA id, the canonical id, a UniProt alias,
 * or a cross-reference read earlier that names exactly one protein.
 */
export function proteinResolver(t: ProteinTable, rows: AnnotationRow[]) {
  const byAlias = new Map<string, number | null>();
  const add = (key: string, entry: number) => {
    const known = byAlias.get(key);
    byAlias.set(key, known === undefined || known === entry ? entry : null);
  };
  t.canonicalId.forEach((id, i) => add(id, i + 1));
  t.aliases.forEach((list, i) => list.forEach((a) => add(a, i + 1)));
  return {
    resolve(id: string): number | undefined {
      return t.byInputId.get(id) ?? byAlias.get(id) ?? undefined;
    },
    learn(id: string, entry: number) {
      add(id, entry);
    },
    rows,
  };
}

export interface AnnotationInputs {
  xrefs?: string[];
  uniprot?: string[];
  goAnnotations?: string[];
  goOntology?: string;
  domains?: string;
}

export async function readAnnotations(t: ProteinTable, inputs: AnnotationInputs, problems: Problems): Promise<AnnotationTable> {
  const rows: AnnotationRow[] = t.inputId.map(() => ({ xrefs: [], go: [], domains: [] }));
  const resolver = proteinResolver(t, rows);
  const seenXref = rows.map(() => new Set<string>());
  const addXref = (entry: number, source: string, id: string) => {
    const key = `${source}\t${id}`;
    if (seenXref[entry - 1].has(key)) return;
    seenXref[entry - 1].add(key);
    rows[entry - 1].xrefs.push([source, id]);
    resolver.learn(id, entry);
  };

  const described = new Set<number>();
  for (const file of inputs.xrefs ?? []) {
    for await (const x of readXrefTsv(file, problems)) {
      const entry = resolver.resolve(x.proteinId);
      if (entry === undefined) {
        problems.report(file, x.line, `unknown protein ${x.proteinId}`);
        continue;
      }
      if (x.source === DESCRIPTION_SOURCE) {
        // A curated description replaces the FASTA header's text; the first one given wins.
        if (!described.has(entry)) t.description[entry - 1] = x.xref;
        described.add(entry);
      } else addXref(entry, x.source, x.xref);
    }
  }

  for (const file of inputs.uniprot ?? []) {
    for await (const u of readUniProt(file, problems)) {
      // UniProt files usually cover more than the release: entries of other proteins are skipped.
      const entry = [...u.accessions, u.entryName].map((id) => resolver.resolve(id)).find((e) => e !== undefined);
      if (entry === undefined) continue;
      const db = u.reviewed ? "UniProtKB/SwissProt" : "UniProtKB/TrEMBL";
      for (const acc of u.accessions) addXref(entry, db, acc);
      addXref(entry, db, u.entryName);
      for (const dr of u.crossRefs) if (dr.database !== "GO") addXref(entry, dr.database, dr.id);
      for (const d of u.domains) rows[entry - 1].domains.push(["UniProt", u.entryName, d.name, d.start, d.end]);
    }
  }

  if (inputs.domains) {
    for await (const d of readDomainTsv(inputs.domains, problems)) {
      const entry = resolver.resolve(d.proteinId);
      if (entry === undefined) {
        problems.report(inputs.domains, d.line, `unknown protein ${d.proteinId}`);
        continue;
      }
      if (d.end > t.sequence[entry - 1].length) {
        problems.report(inputs.domains, d.line, `domain end ${d.end} is past the end of ${d.proteinId} (length ${t.sequence[entry - 1].length})`);
        continue;
      }
      rows[entry - 1].domains.push([d.source, d.domainId, d.name, d.start, d.end]);
    }
  }

  const ontology = inputs.goOntology ? await readObo(inputs.goOntology, problems) : new Map<string, OboTerm>();
  const altIds = new Map<string, string>();
  for (const term of ontology.values()) for (const alt of term.altIds) altIds.set(alt, term.id);
  for (const file of inputs.goAnnotations ?? []) {
    for await (const a of readGaf(file, problems)) {
      const entry = resolver.resolve(a.objectId);
      if (entry === undefined) {
        problems.report(file, a.line, `unknown protein ${a.objectId}`);
        continue;
      }
      if (a.qualifier.includes("NOT")) continue;
      const goId = altIds.get(a.goId) ?? a.goId;
      if (ontology.size && !ontology.has(goId)) {
        problems.report(file, a.line, `${a.goId} is not a term of ${inputs.goOntology}`);
        continue;
      }
      rows[entry - 1].go.push([goId, a.evidence, a.reference, a.aspect]);
    }
  }
  return { rows, goTerms: goTermsWithInformationContent(rows, ontology) };
}

const ASPECT_NAMESPACE = { F: "molecular_function", P: "biological_process", C: "cellular_component" } as const;

/**
 * Term names, aspects and information content: IC(t) = -ln(p(t)), where p(t) is the share of
 * annotated proteins of t's aspect annotated with t or one of its descendants.
 */
function goTermsWithInformationContent(rows: AnnotationRow[], ontology: Map<string, OboTerm>): Map<string, GoTerm> {
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
  for (const row of rows) {
    const terms = new Set<string>();
    const aspects = new Set<string>();
    for (const [goId, , , aspect] of row.go) {
      aspects.add(aspect);
      for (const a of ancestorsOf(goId)) terms.add(a);
    }
    for (const t of terms) proteinsWith.set(t, (proteinsWith.get(t) ?? 0) + 1);
    for (const a of aspects) proteinsPerAspect.set(a, (proteinsPerAspect.get(a) ?? 0) + 1);
  }
  // The aspect each term was annotated with, for terms the ontology does not know.
  const annotatedAspect = new Map<string, "P" | "F" | "C">();
  for (const row of rows) for (const [goId, , , aspect] of row.go) if (!annotatedAspect.has(goId)) annotatedAspect.set(goId, aspect);
  const out = new Map<string, GoTerm>();
  for (const id of [...annotatedAspect.keys()].sort()) {
    const term = ontology.get(id);
    const letter = term
      ? (Object.keys(ASPECT_NAMESPACE) as Array<keyof typeof ASPECT_NAMESPACE>).find((k) => ASPECT_NAMESPACE[k] === term.namespace)!
      : annotatedAspect.get(id)!;
    const total = proteinsPerAspect.get(letter) ?? 0;
    const n = proteinsWith.get(id) ?? 0;
    const ic = total && n ? Math.round(-Math.log(n / total) * 1e4) / 1e4 : 0;
    out.set(id, { name: term?.name ?? "", aspect: ASPECT_NAMESPACE[letter], ic });
  }
  return out;
}
