/**
 * The Gene Ontology in OBO 1.2/1.4: `[Term]` stanzas only (`[Typedef]` and others skipped),
 * with `is_a` parents, `alt_id`, obsolescence and namespace. Terms are keyed by their primary id.
 */
import type { OboTerm } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, readLines } from "./lines.js";

const NAMESPACES = new Set(["biological_process", "molecular_function", "cellular_component"]);

interface Stanza {
  line: number;
  id?: string;
  name?: string;
  namespace?: string;
  isA: string[];
  altIds: string[];
  obsolete: boolean;
}

/** An identifier value: the first word, without a trailing `! comment` or `{qualifiers}`. */
function idValue(value: string): string {
  return value.replace(/\s!.*$/, "").trim().split(/\s+/)[0] ?? "";
}

export async function readObo(path: string, problems: Problems): Promise<Map<string, OboTerm>> {
  const file = fileLabel(path);
  const terms = new Map<string, OboTerm>();
  const termLine = new Map<string, number>();
  let stanza: Stanza | undefined;

  const finish = () => {
    if (!stanza) return;
    const s = stanza;
    stanza = undefined;
    if (!s.id) {
      problems.report(file, s.line, "[Term] without an id");
      return;
    }
    let ok = true;
    if (!s.name) {
      problems.report(file, s.line, `term ${s.id} has no name`);
      ok = false;
    }
    if (!s.namespace) {
      problems.report(file, s.line, `term ${s.id} has no namespace`);
      ok = false;
    } else if (!NAMESPACES.has(s.namespace)) {
      problems.report(
        file,
        s.line,
        `term ${s.id} has an unknown namespace "${s.namespace}" (expected biological_process, molecular_function or cellular_component)`,
      );
      ok = false;
    }
    const first = termLine.get(s.id);
    if (first !== undefined) {
      problems.report(file, s.line, `duplicate term ${s.id} (first on line ${first})`);
      return;
    }
    termLine.set(s.id, s.line);
    if (!ok) return;
    terms.set(s.id, {
      id: s.id,
      name: s.name!,
      namespace: s.namespace as OboTerm["namespace"],
      isA: s.isA,
      altIds: s.altIds,
      obsolete: s.obsolete,
    });
  };

  let inTerm = false;
  for await (const { text, lineNo } of readLines(path, problems)) {
    const line = text.trim();
    if (line.startsWith("[")) {
      finish();
      inTerm = line === "[Term]";
      if (inTerm) stanza = { line: lineNo, isA: [], altIds: [], obsolete: false };
      continue;
    }
    if (!inTerm || !stanza || line === "" || line.startsWith("!")) continue;
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const tag = line.slice(0, colon).trim();
    const value = line.slice(colon + 1).trim();
    switch (tag) {
      case "id":
        stanza.id = idValue(value);
        break;
      case "name":
        stanza.name = value;
        break;
      case "namespace":
        stanza.namespace = idValue(value);
        break;
      case "is_a":
        stanza.isA.push(idValue(value));
        break;
      case "alt_id":
        stanza.altIds.push(idValue(value));
        break;
      case "is_obsolete":
        stanza.obsolete = idValue(value) === "true";
        break;
    }
  }
  finish();
  return terms;
}
