/**
 * The naming profile of a release: `field_names` in its config, `fieldNames` in its manifest.
 * - `orth` (the default): the specification's names, the neutral word `orth` where the
 *   interface it follows had its product name (`orthid`, `orth_group`, `GetOrthGroup`, …);
 * - `oma`: that interface's own names (`omaid`, `oma_group`, `GetOMAGroup`, …), so the clients
 *   written for it (OMA's R and Python clients, SOAP clients built from its WSDL) work unchanged.
 *
 * The table below is the one place that says which names differ. The renderers apply it where
 * they write an answer: JSON keys as the text is produced (render/respond.ts), the pairs table
 * header, the SOAP operation, parts and WSDL names, a few values the specification named the
 * same way, and the OpenAPI document. Paths, ids, links, pagination and errors are the same in
 * both profiles.
 */
import { FIELD_NAMES, type FieldNames, type Manifest } from "../../release-format/format.js";

export { FIELD_NAMES, type FieldNames };

/** Every name the specification substituted, by where it appears: orth name → original name. */
const ORIGINAL_NAMES = {
  /** Keys of JSON answers. */
  json: {
    orthid: "omaid",
    orth_group: "oma_group",
    orth_hog_id: "oma_hog_id",
    orth_version: "oma_version",
    orth_group_url: "oma_group_url",
    orth_hog_members: "oma_hog_members",
  },
  /** The pairs CSV/TSV header and the download's file name. */
  table: {
    orthid_1: "OMAid_1",
    orthid_2: "OMAid_2",
    OrthGroup: "OmaGroup",
    "orth-Pairs": "OMA-Pairs",
  },
  /** SOAP: the operation, the GetEntry part, the namespace, and the WSDL's definitions, port type, binding and service. */
  soap: {
    GetOrthGroup: "GetOMAGroup",
    OrthGroup: "OMAGroup",
    "urn:ORTH": "urn:OMA",
    ORTH: "OMA",
    ORTHPort: "OMAPort",
    ORTHBinding: "OMABinding",
    ORTHService: "OMAService",
  },
  /**
   * Values: the entry id type (source of the xref search, id type 0 of ListIDTypes), the
   * function-prediction GAF columns, the origin of exported OrthoXML.
   */
  value: {
    orthid: "omaid",
    orth_FastMap: "OMA_FastMap",
    "orth_Fun:002": "OMA_Fun:002",
    orth: "OMA",
  },
} as const satisfies Record<string, Record<string, string>>;

export type NameKind = keyof typeof ORIGINAL_NAMES;

/** The profile of a release (of its manifest); `orth` when the manifest names none. */
export const fieldNamesOf = (manifest: Pick<Manifest, "fieldNames"> | undefined): FieldNames => manifest?.fieldNames ?? "orth";

/** The name a profile gives to an orth name of a kind: itself under `orth`, or when the profile keeps it. */
export function nameIn(names: FieldNames, kind: NameKind, orthName: string): string {
  if (names === "orth") return orthName;
  return (ORIGINAL_NAMES[kind] as Record<string, string>)[orthName] ?? orthName;
}

/**
 * The orth name behind a name a client sent in a profile (a SOAP operation): the name itself
 * when the profile keeps it, undefined when the profile replaced it (an orth name the `oma`
 * profile does not know).
 */
export function orthNameOf(names: FieldNames, kind: NameKind, name: string): string | undefined {
  if (names === "orth") return name;
  const table = ORIGINAL_NAMES[kind] as Record<string, string>;
  const orth = Object.keys(table).find((k) => table[k] === name);
  if (orth !== undefined) return orth;
  return name in table ? undefined : name;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Alternatives of a regular expression, longest first (so `orth_group_url` wins over `orth_group`). */
const alternatives = (names: string[]): string => [...names].sort((a, b) => b.length - a.length).map(escape).join("|");

/**
 * A key of JSON text as JSON.stringify writes it: after `{` or `,`, quoted, before `:`. A string
 * value holding such text has its quotes escaped (`,\"orthid\":`), so it never matches.
 */
const JSON_KEY = new RegExp(`([{,])"(${alternatives(Object.keys(ORIGINAL_NAMES.json))})":`, "g");

/** JSON text (from JSON.stringify) with its keys named as the profile names them. */
export function renameJsonKeys(text: string, names: FieldNames): string {
  if (names === "orth") return text;
  return text.replace(JSON_KEY, (_, before: string, key: string) => `${before}"${nameIn(names, "json", key)}":`);
}

/**
 * The names of prose (the OpenAPI document's descriptions and property names): each kind's
 * names, the pairs header's `OrthGroup` for the SOAP part's (the document describes the
 * table), without the bare `ORTH` and `orth`, which prose uses as words of its own.
 */
const PROSE_NAMES: Record<string, string> = Object.fromEntries(
  Object.entries({ ...ORIGINAL_NAMES.value, ...ORIGINAL_NAMES.soap, ...ORIGINAL_NAMES.table, ...ORIGINAL_NAMES.json }).filter(([k]) => k !== "ORTH" && k !== "orth"),
);
/** A name standing alone (a plural `s` allowed): not inside a longer word. */
const PROSE_NAME = new RegExp(`(?<![A-Za-z0-9_])(${alternatives(Object.keys(PROSE_NAMES))})(?=s?(?![A-Za-z0-9]))`, "g");

/** Text (a description, a property name) with every name as the profile names it. */
export function renameText(text: string, names: FieldNames): string {
  if (names === "orth") return text;
  return text.replace(PROSE_NAME, (name: string) => PROSE_NAMES[name]);
}
