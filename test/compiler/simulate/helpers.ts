/**
 * Small independent readers of the simulator's output for its tests (deliberately not the
 * compiler's readers: these tests check the simulator against the formats, not the compiler).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `${prefix}-`));
}

/** Every file below `dir`, as paths relative to it, sorted. */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(relative(dir, path));
    }
  };
  walk(dir);
  return out.sort();
}

export interface FastaEntry {
  id: string;
  header: string;
  sequence: string;
  /** Longest sequence line. */
  maxLine: number;
}

export function readFasta(path: string): FastaEntry[] {
  const entries: FastaEntry[] = [];
  let current: FastaEntry | null = null;
  for (const line of readFileSync(path, "latin1").split("\n")) {
    if (line.startsWith(">")) {
      current = { id: line.slice(1).split(" ")[0], header: line.slice(1), sequence: "", maxLine: 0 };
      entries.push(current);
    } else if (line && current) {
      current.sequence += line;
      current.maxLine = Math.max(current.maxLine, line.length);
    }
  }
  return entries;
}

/** Rows of a TSV file with a header line, as objects. */
export function readTsv(path: string): Array<Record<string, string>> {
  const [header, ...lines] = readFileSync(path, "latin1").split("\n").filter((l) => l && !l.startsWith("!"));
  const columns = header.split("\t");
  return lines.map((line) => {
    const fields = line.split("\t");
    return Object.fromEntries(columns.map((c, i) => [c, fields[i]]));
  });
}

export type XmlNode =
  | { kind: "orthologGroup" | "paralogGroup"; id?: string; taxonId?: string; taxRange?: string; completeness?: number; children: XmlNode[] }
  | { kind: "geneRef"; ref: string };

export interface OrthoXml {
  /** gene id -> [species code, protein id] */
  genes: Map<string, { species: string; protId: string }>;
  speciesOrder: string[];
  /** taxonomy id -> name */
  taxa: Map<string, string>;
  groups: XmlNode[];
}

/** Line-based reader for the simulator's orthoXML (one element per line). */
export function readOrthoXml(path: string): OrthoXml {
  const genes = new Map<string, { species: string; protId: string }>();
  const speciesOrder: string[] = [];
  const taxa = new Map<string, string>();
  const groups: XmlNode[] = [];
  const stack: Array<Extract<XmlNode, { children: XmlNode[] }>> = [];
  let species = "";
  const attr = (line: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(line)?.[1];
  for (const raw of readFileSync(path, "latin1").split("\n")) {
    const line = raw.trim();
    if (line.startsWith("<species ")) {
      species = attr(line, "name")!;
      speciesOrder.push(species);
    } else if (line.startsWith("<gene ")) {
      genes.set(attr(line, "id")!, { species, protId: attr(line, "protId")! });
    } else if (line.startsWith("<taxon ")) {
      taxa.set(attr(line, "id")!, attr(line, "name")!);
    } else if (line.startsWith("<orthologGroup") || line.startsWith("<paralogGroup")) {
      const node: Extract<XmlNode, { children: XmlNode[] }> = {
        kind: line.startsWith("<orthologGroup") ? "orthologGroup" : "paralogGroup",
        id: attr(line, "id"),
        taxonId: attr(line, "taxonId"),
        children: [],
      };
      (stack.length ? stack[stack.length - 1].children : groups).push(node);
      stack.push(node);
    } else if (line.startsWith("</orthologGroup") || line.startsWith("</paralogGroup")) {
      stack.pop();
    } else if (line.startsWith("<geneRef ")) {
      stack[stack.length - 1].children.push({ kind: "geneRef", ref: attr(line, "id")! });
    } else if (line.startsWith("<score ")) {
      stack[stack.length - 1].completeness = Number(attr(line, "value"));
    } else if (line.startsWith('<property name="TaxRange"')) {
      stack[stack.length - 1].taxRange = attr(line, "value");
    }
  }
  return { genes, speciesOrder, taxa, groups };
}

/** Gene ids below a node. */
export function geneRefs(node: XmlNode): string[] {
  if (node.kind === "geneRef") return [node.ref];
  return node.children.flatMap(geneRefs);
}
