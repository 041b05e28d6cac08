/**
 * The release config: a JSON file naming the inputs, paths relative to the config file's folder.
 * Loading resolves every path, checks that each file or folder exists, and reports every
 * mistake at once (with the line of the key) instead of failing on the first.
 */
import { existsSync, statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { FIELD_NAMES, RELEASE_NAME, type FieldNames } from "../release-format/format.js";
import { Problems } from "./problems.js";

export interface ReleaseConfig {
  /** Absolute path of the config file. */
  configPath: string;
  name: string;
  /** Single capital letter distinguishing the HOG ids of this release (`HOG:A0000001`). */
  hogReleaseLetter?: string;
  /** Release date, YYYY-MM-DD: the date of function annotations (kept out of the clock so output is reproducible). */
  date?: string;
  /** Naming profile of the answers: `orth` (the default) or `oma` (the original interface's names). */
  fieldNames?: FieldNames;
  /** Required without `orthofinder`; with it, optional (OrthoFinder's species names then give the codes). */
  speciesInfo?: string;
  /** Required without `orthofinder`; with it, optional (it names OrthoFinder's levels N0, N1, …). */
  speciesTree?: string;
  /** Folder of `CODE.fa`; with `orthofinder`, the folder OrthoFinder ran on (`<species>.fa`, `.faa`, …). */
  proteomes: string;
  /** OrthoFinder's `Results_*` folder (2.5.x or 3.x layout): the HOGs, pairs and gene trees instead of `hogs`. */
  orthofinder?: string;
  /** A folder of OMA release files (release-compiler/oma-import/): the genomes, proteins, HOGs, groups, pairs and id maps instead of the keys they replace. */
  omaRelease?: string;
  /** Folder of `CODE.fa` coding sequences. */
  cdna?: string;
  /** Required without `orthofinder`, refused with it. */
  hogs?: string;
  groups?: string;
  pairs?: string;
  /** Folder of `CODE.gff`. */
  loci?: string;
  /** Folder of `CODE.splice`. */
  isoforms?: string;
  goAnnotations: string[];
  goOntology?: string;
  xrefs: string[];
  uniprot: string[];
  domains?: string;
}

type Kind = "string" | "releaseName" | "letter" | "date" | "fieldNames" | "file" | "folder" | "files";

const KEYS: Record<string, { kind: Kind; required: boolean; field: keyof ReleaseConfig }> = {
  name: { kind: "releaseName", required: true, field: "name" },
  hog_release_letter: { kind: "letter", required: false, field: "hogReleaseLetter" },
  date: { kind: "date", required: false, field: "date" },
  field_names: { kind: "fieldNames", required: false, field: "fieldNames" },
  species_info: { kind: "file", required: true, field: "speciesInfo" },
  species_tree: { kind: "file", required: true, field: "speciesTree" },
  proteomes: { kind: "folder", required: true, field: "proteomes" },
  orthofinder: { kind: "folder", required: false, field: "orthofinder" },
  oma_release: { kind: "folder", required: false, field: "omaRelease" },
  cdna: { kind: "folder", required: false, field: "cdna" },
  hogs: { kind: "file", required: true, field: "hogs" },
  groups: { kind: "file", required: false, field: "groups" },
  pairs: { kind: "file", required: false, field: "pairs" },
  loci: { kind: "folder", required: false, field: "loci" },
  isoforms: { kind: "folder", required: false, field: "isoforms" },
  go_annotations: { kind: "files", required: false, field: "goAnnotations" },
  go_ontology: { kind: "file", required: false, field: "goOntology" },
  xrefs: { kind: "files", required: false, field: "xrefs" },
  uniprot: { kind: "files", required: false, field: "uniprot" },
  domains: { kind: "file", required: false, field: "domains" },
};

/** Keys an OrthoFinder release (`orthofinder`) may leave out, and keys it must leave out. */
const NOT_REQUIRED_WITH_ORTHOFINDER = new Set(["species_info", "species_tree", "hogs"]);
const REFUSED_WITH_ORTHOFINDER = ["hogs", "pairs"];
/** Keys an OMA release folder (`oma_release`) gives itself: refused beside it. */
const REFUSED_WITH_OMA_RELEASE = ["species_info", "species_tree", "proteomes", "orthofinder", "cdna", "isoforms", "hogs", "groups", "pairs"];

/** 1-based line of a character offset. */
function lineAt(text: string, pos: number): number {
  let line = 1;
  for (let i = 0; i < pos && i < text.length; i++) if (text[i] === "\n") line++;
  return line;
}

/** Line of the first `"key":` in the text (good enough for a flat config), 0 if not found. */
function lineOfKey(text: string, key: string): number {
  const escaped = JSON.stringify(key).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`${escaped}\\s*:`).exec(text);
  return m ? lineAt(text, m.index) : 0;
}

function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  return typeof v === "object" ? "an object" : `${typeof v} ${JSON.stringify(v)}`;
}

/** Path of a species' file in a per-species folder (`CODE.fa`, `CODE.gff`, `CODE.splice`); prefers a gzipped copy when only that exists. */
export function speciesFile(folder: string, code: string, ext: string): string {
  const plain = path.join(folder, code + (ext.startsWith(".") || ext === "" ? ext : `.${ext}`));
  if (!existsSync(plain) && existsSync(`${plain}.gz`)) return `${plain}.gz`;
  return plain;
}

export async function loadConfig(configPath: string): Promise<{ config?: ReleaseConfig; problems: Problems }> {
  const problems = new Problems();
  const file = configPath;
  let text: string;
  try {
    text = await readFile(configPath, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    problems.report(file, 0, code === "ENOENT" ? "config file not found" : `cannot read the config file: ${(err as Error).message}`);
    return { problems };
  }

  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const message = (err as Error).message;
    const pos = /position (\d+)/.exec(message);
    const lineCol = /\(line (\d+) column \d+\)/.exec(message);
    const line = lineCol ? Number(lineCol[1]) : pos ? lineAt(text, Number(pos[1])) : 0;
    problems.report(file, line, `not valid JSON: ${message}`);
    return { problems };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    problems.report(file, 1, `the config must be a JSON object, found ${typeName(json)}`);
    return { problems };
  }

  const base = path.dirname(path.resolve(configPath));
  const values: Record<string, unknown> = {};
  const obj = json as Record<string, unknown>;

  for (const key of Object.keys(obj)) {
    if (!(key in KEYS)) problems.report(file, lineOfKey(text, key), `unknown key "${key}"`);
  }

  const checkPath = (key: string, rel: string, kind: "file" | "folder", line: number): string => {
    const abs = path.resolve(base, rel);
    if (!existsSync(abs)) {
      problems.report(file, line, `${key}: ${kind} not found: ${abs}`);
    } else {
      const isDir = statSync(abs).isDirectory();
      if (kind === "file" && isDir) problems.report(file, line, `${key}: ${abs} is a folder, expected a file`);
      if (kind === "folder" && !isDir) problems.report(file, line, `${key}: ${abs} is a file, expected a folder`);
    }
    return abs;
  };

  for (const [key, spec] of Object.entries(KEYS)) {
    const value = obj[key];
    const line = lineOfKey(text, key);
    if (value === undefined) {
      if (spec.required && !(obj.orthofinder !== undefined && NOT_REQUIRED_WITH_ORTHOFINDER.has(key)) && obj.oma_release === undefined) {
        problems.report(file, 0, `missing required key "${key}"`);
      }
      if (spec.kind === "files") values[spec.field] = [];
      continue;
    }
    switch (spec.kind) {
      case "string":
        if (typeof value !== "string" || value.trim() === "") {
          problems.report(file, line, `"${key}" must be a non-empty string, found ${typeName(value)}`);
        } else values[spec.field] = value;
        break;
      case "releaseName":
        // The name is a storage key's segment and a path segment (`/release/{name}/`).
        if (typeof value !== "string" || !RELEASE_NAME.test(value)) {
          problems.report(file, line, `"${key}" must be letters, digits, '.', '_' and '-' (it names the release in storage keys and in /release/{name}/ paths), found ${typeName(value)}`);
        } else values[spec.field] = value;
        break;
      case "date":
        if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) {
          problems.report(file, line, `"${key}" must be a date YYYY-MM-DD, found ${typeName(value)}`);
        } else values[spec.field] = value;
        break;
      case "fieldNames":
        if (typeof value !== "string" || !(FIELD_NAMES as readonly string[]).includes(value)) {
          problems.report(file, line, `"${key}" must be ${FIELD_NAMES.map((n) => `"${n}"`).join(" or ")}, found ${typeName(value)}`);
        } else values[spec.field] = value;
        break;
      case "letter":
        if (typeof value !== "string" || !/^[A-Z]$/.test(value)) {
          problems.report(file, line, `"${key}" must be a single capital letter A-Z, found ${typeName(value)}`);
        } else values[spec.field] = value;
        break;
      case "file":
      case "folder":
        if (typeof value !== "string" || value === "") {
          problems.report(file, line, `"${key}" must be a ${spec.kind} path (a non-empty string), found ${typeName(value)}`);
        } else values[spec.field] = checkPath(key, value, spec.kind, line);
        break;
      case "files":
        if (!Array.isArray(value) || value.some((v) => typeof v !== "string" || v === "")) {
          const bad = Array.isArray(value) ? `a list containing ${typeName(value.find((v) => typeof v !== "string" || v === ""))}` : typeName(value);
          problems.report(file, line, `"${key}" must be a list of file paths (non-empty strings), found ${bad}`);
        } else values[spec.field] = value.map((v: string) => checkPath(key, v, "file", line));
        break;
    }
  }

  if (obj.orthofinder !== undefined) {
    // OrthoFinder's results are the HOGs and the pairs: a second source of either is a mistake.
    for (const key of REFUSED_WITH_ORTHOFINDER) {
      if (obj[key] !== undefined) problems.report(file, lineOfKey(text, key), `"${key}" cannot be given with "orthofinder" (the OrthoFinder results give the ${key})`);
    }
  }
  if (obj.oma_release !== undefined) {
    for (const key of REFUSED_WITH_OMA_RELEASE) {
      if (obj[key] !== undefined) problems.report(file, lineOfKey(text, key), `"${key}" cannot be given with "oma_release" (the OMA release files give it)`);
    }
  }
  if (problems.count > 0) return { problems };
  return { config: { configPath: path.resolve(configPath), ...values } as ReleaseConfig, problems };
}
