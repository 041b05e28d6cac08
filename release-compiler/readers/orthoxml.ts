/**
 * orthoXML 0.3–0.5, streamed with sax: the header (species, genes, taxonomy) is kept, the
 * families under `<groups>` are handed to `onFamily` one at a time as soon as each closes, so
 * the caller never holds every HOG at once. Elements are matched by local name (a default
 * namespace or an `ox:` prefix both work). No DTD or entity is processed beyond the XML
 * builtins (`strictEntities`), and sax never fetches anything.
 *
 * With `groupsApart`, the reader stops at `<groups>` and hands the text after it to the caller
 * (readers/orthoxml-runs.ts cuts it into runs of families that worker threads parse with
 * `parseOrthoXmlRun`, knowing the header's ids).
 */
import sax from "sax";
import { BigMap } from "../collections.js";
import type { HogXmlGroup, HogXmlNode, OrthoXmlGene, OrthoXmlSpecies, OrthoXmlTaxon } from "../inputs.js";
import type { Problems } from "../problems.js";
import { fileLabel, ioMessage, openText } from "./lines.js";

export interface OrthoXmlHeader {
  species: OrthoXmlSpecies[];
  taxonomy: OrthoXmlTaxon[];
  /** `version` attribute of the root element. */
  version?: string;
  /** The root element's name as written (`orthoXML`, `ox:orthoXML`). */
  rootName?: string;
  /** `<ncbitaxonomy>` (0.4): group taxonIds are NCBI ids, not ids of `<taxon>` elements. */
  externalTaxonomy?: boolean;
}

/** What a run of families parsed apart from its document knows of the document's header. */
export interface KnownHeader {
  genes: { has(id: string): boolean };
  taxa: ReadonlySet<string>;
  externalTaxonomy: boolean;
}

type OnFamily = (root: HogXmlNode, index: number) => void | Promise<void>;
type OnHeader = (header: OrthoXmlHeader) => void | Promise<void>;

type Frame =
  | { role: "root" | "taxonomy" | "groups" | "other" }
  /** An element whose content is irrelevant here (notes, scores of a geneRef, …). */
  | { role: "ignore" }
  | { role: "species"; species: OrthoXmlSpecies }
  | { role: "taxon"; taxon: OrthoXmlTaxon }
  | { role: "group"; node: HogXmlGroup; genes: number; topLevel: boolean };

const localName = (name: string) => name.slice(name.indexOf(":") + 1);

export async function readOrthoXml(
  path: string,
  problems: Problems,
  onFamily: OnFamily,
  /**
   * Called once with the complete header (species, genes, taxonomy) when `<groups>` opens, so
   * before the first family; at the end of the document when there is no `<groups>`.
   */
  onHeader?: OnHeader,
  /**
   * Read the groups apart: the reader stops at `<groups>` (after onHeader) and hands this the
   * text after the tag, the rest of that chunk and the chunks after it; the families are its own.
   */
  groupsApart?: (rest: AsyncIterable<string>) => Promise<void>,
): Promise<OrthoXmlHeader> {
  let stream: Awaited<ReturnType<typeof openText>>;
  try {
    stream = await openText(path);
  } catch (err) {
    problems.report(fileLabel(path), 0, ioMessage(err));
    return { species: [], taxonomy: [] };
  }
  try {
    return await parseOrthoXml(stream, fileLabel(path), problems, onFamily, onHeader, { groupsApart });
  } finally {
    stream.destroy();
  }
}

/**
 * One run of top-level groups cut from a document's `<groups>` (on a worker thread), parsed as
 * the document's reader parses them, given the header's gene and taxon ids. What it returns as
 * its header is what the run declared itself (nothing, in a run of a well-made file).
 */
export function parseOrthoXmlRun(run: string, file: string, known: KnownHeader, problems: Problems, onFamily: OnFamily): Promise<OrthoXmlHeader> {
  return parseOrthoXml([`<orthoXML><groups>${run}</groups></orthoXML>`], file, problems, onFamily, undefined, { known });
}

async function parseOrthoXml(
  source: AsyncIterable<string> | Iterable<string>,
  file: string,
  problems: Problems,
  onFamily: OnFamily,
  onHeader: OnHeader | undefined,
  options: { known?: KnownHeader; groupsApart?: (rest: AsyncIterable<string>) => Promise<void> },
): Promise<OrthoXmlHeader> {
  const header: OrthoXmlHeader = { species: [], taxonomy: [] };
  // A gene (and a reference to one) a protein: more than a Map holds in a public release (collections.ts).
  const geneLine = new BigMap<string, number>();
  const refLine = new BigMap<string, number>();
  const taxonLine = new Map<string, number>();
  /** `<ncbitaxonomy>` (0.4): group taxonIds are NCBI ids, not ids of `<taxon>` elements. */
  let externalTaxonomy = options.known?.externalTaxonomy ?? false;
  const knownGene = (id: string) => geneLine.has(id) || options.known?.genes.has(id) === true;
  /** Taxon ids a group's taxonId may name: the header's, or of the document a run was cut from. */
  const taxa: ReadonlySet<string> | ReadonlyMap<string, number> = options.known?.taxa ?? taxonLine;
  /** With groupsApart: where the text after `<groups>` starts (characters from the start); the parser is done then. */
  let apartAt = -1;
  const stack: Frame[] = [];
  /** Families closed (and the header, once) waiting to be handed over, in document order. */
  const ready: Array<[HogXmlNode, number] | "header"> = [];
  let headerQueued = false;
  let familyIndex = 0;
  let tagLine = 1;
  let sawRoot = false;
  let failed = false;

  const report = (line: number, message: string) => problems.report(file, line, message);
  const parser = sax.parser(true, { xmlns: false, position: true, strictEntities: true } as sax.SAXOptions);

  parser.onerror = (err) => {
    if (apartAt >= 0) return; // the rest of the chunk after <groups> is the caller's to read
    if (!failed) {
      const first = err.message.split("\n")[0];
      report(parser.line + 1, `not well-formed XML: ${first} (column ${parser.column})`);
    }
    failed = true;
  };
  parser.onopentagstart = () => {
    tagLine = parser.line + 1;
  };

  parser.onopentag = (tag) => {
    if (failed || apartAt >= 0) return;
    const t = tag as sax.Tag;
    const name = localName(t.name);
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(t.attributes)) attrs[localName(k)] = v;
    const line = tagLine;
    const parent = stack[stack.length - 1];

    if (!parent) {
      sawRoot = true;
      if (name !== "orthoXML") {
        report(line, `root element is <${t.name}>, expected <orthoXML>`);
        failed = true;
        return;
      }
      if (attrs.version !== undefined) header.version = attrs.version;
      header.rootName = t.name;
      stack.push({ role: "root" });
      return;
    }
    if (parent.role === "ignore") {
      stack.push({ role: "ignore" });
      return;
    }

    switch (name) {
      case "species": {
        const species: OrthoXmlSpecies = { name: attrs.name ?? "", genes: [], line };
        if (attrs.taxonId !== undefined) species.taxonId = attrs.taxonId;
        if (attrs.NCBITaxId !== undefined) species.ncbiTaxId = attrs.NCBITaxId;
        if (!attrs.name) report(line, "<species> without a name attribute");
        header.species.push(species);
        stack.push({ role: "species", species });
        return;
      }
      case "gene": {
        const species = [...stack].reverse().find((f) => f.role === "species");
        if (!species || species.role !== "species") {
          report(line, "<gene> outside a <species>");
          stack.push({ role: "ignore" });
          return;
        }
        stack.push({ role: "ignore" });
        const id = attrs.id;
        if (!id) {
          report(line, "<gene> without an id attribute");
          return;
        }
        const first = geneLine.get(id);
        if (first !== undefined) {
          report(line, `duplicate gene id ${id} (first on line ${first})`);
          return;
        }
        geneLine.set(id, line);
        // Some 0.4 files give only geneId; the protein id then falls back to it.
        const protId = attrs.protId || attrs.geneId || attrs.transcriptId;
        if (!protId) {
          report(line, `gene ${id} has neither protId nor geneId`);
          return;
        }
        const gene: OrthoXmlGene = { id, protId, line };
        if (attrs.geneId !== undefined) gene.geneId = attrs.geneId;
        species.species.genes.push(gene);
        return;
      }
      case "taxonomy":
        stack.push({ role: "taxonomy" });
        return;
      case "ncbitaxonomy":
        externalTaxonomy = true;
        header.externalTaxonomy = true;
        stack.push({ role: "ignore" });
        return;
      case "taxon": {
        if (parent.role !== "taxonomy" && parent.role !== "taxon") {
          stack.push({ role: "ignore" });
          return;
        }
        const taxon: OrthoXmlTaxon = { id: attrs.id ?? "", name: attrs.name ?? "", children: [], line };
        if (!attrs.id) report(line, "<taxon> without an id attribute");
        else {
          const first = taxonLine.get(attrs.id);
          if (first !== undefined) report(line, `duplicate taxon id ${attrs.id} (first on line ${first})`);
          else taxonLine.set(attrs.id, line);
        }
        if (parent.role === "taxon") parent.taxon.children.push(taxon);
        else header.taxonomy.push(taxon);
        stack.push({ role: "taxon", taxon });
        return;
      }
      case "groups":
        if (!headerQueued) ready.push("header");
        headerQueued = true;
        stack.push({ role: "groups" });
        if (options.groupsApart && !t.isSelfClosing) apartAt = parser.position;
        return;
      case "orthologGroup":
      case "paralogGroup": {
        if (parent.role !== "groups" && parent.role !== "group") {
          report(line, `<${name}> outside <groups>`);
          stack.push({ role: "ignore" });
          return;
        }
        const node: HogXmlGroup = { kind: name, children: [], line };
        if (attrs.id !== undefined) node.id = attrs.id;
        if (attrs.taxonId !== undefined) {
          node.taxonId = attrs.taxonId;
          if (taxa.size > 0 && !externalTaxonomy && !taxa.has(attrs.taxonId)) {
            report(line, `taxonId ${attrs.taxonId} of <${name}> is not a taxon id of <taxonomy>`);
          }
        }
        if (parent.role === "group") parent.node.children.push(node);
        stack.push({ role: "group", node, genes: 0, topLevel: parent.role === "groups" });
        return;
      }
      case "geneRef": {
        stack.push({ role: "ignore" }); // a geneRef may carry its own scores and notes
        if (parent.role !== "group") {
          report(line, "<geneRef> outside an orthologGroup or paralogGroup");
          return;
        }
        const ref = attrs.id;
        if (!ref) {
          report(line, "<geneRef> without an id attribute");
          return;
        }
        if (!knownGene(ref)) {
          report(line, `unknown geneRef id ${ref}`);
          return;
        }
        const first = refLine.get(ref);
        if (first !== undefined) {
          report(line, `gene ${ref} is referenced twice (first on line ${first})`);
          return;
        }
        refLine.set(ref, line);
        parent.node.children.push({ kind: "geneRef", ref, line });
        parent.genes++;
        return;
      }
      case "score":
        if (parent.role === "group" && attrs.id === "CompletenessScore") {
          const value = Number(attrs.value);
          if (attrs.value === undefined || attrs.value.trim() === "" || !Number.isFinite(value)) {
            report(line, `CompletenessScore value "${attrs.value ?? ""}" is not a number`);
          } else parent.node.completeness = value;
        }
        stack.push({ role: "ignore" });
        return;
      case "property":
        if (parent.role === "group" && attrs.name === "TaxRange" && attrs.value !== undefined) {
          parent.node.taxRange = attrs.value;
        }
        stack.push({ role: "ignore" });
        return;
      default:
        // Containers of the header (database, genes) are walked; other elements inside groups
        // (notes, …) cannot contain anything of ours.
        stack.push({ role: parent.role === "group" || parent.role === "groups" ? "ignore" : "other" });
    }
  };

  parser.onclosetag = () => {
    if (failed || apartAt >= 0) return;
    const frame = stack.pop();
    if (!frame || frame.role !== "group") return;
    const parent = stack[stack.length - 1];
    if (frame.genes === 0) {
      report(frame.node.line, `empty ${frame.node.kind}: no geneRef below it`);
      if (parent?.role === "group") parent.node.children.pop(); // it is the last child
    } else if (parent?.role === "group") {
      parent.genes += frame.genes;
    }
    if (frame.topLevel) {
      if (frame.genes > 0) ready.push([frame.node, familyIndex]);
      familyIndex++;
    }
  };

  // Feed sax chunk by chunk; between chunks deliver (and await) the families that closed, in order.
  // The next chunk is not read before they are delivered: that is the backpressure.
  const deliver = async () => {
    for (const item of ready.splice(0)) {
      try {
        if (item === "header") await onHeader?.(header);
        else await onFamily(item[0], item[1]);
      } catch (err) {
        throw new CallbackError(err);
      }
    }
  };
  const chunks = (Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]()) as AsyncIterator<string>;
  /** Characters written to the parser before the current chunk. */
  let fed = 0;
  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
      const chunk = next.value;
      parser.write(chunk);
      if (failed) break;
      await deliver();
      if (apartAt >= 0) {
        const from = apartAt - fed;
        const rest = async function* (): AsyncGenerator<string> {
          yield chunk.slice(from);
          for (let more = await chunks.next(); !more.done; more = await chunks.next()) yield more.value;
        };
        await options.groupsApart!(rest());
        return header;
      }
      fed += chunk.length;
    }
    if (!failed) {
      parser.close();
      if (!failed && !headerQueued && sawRoot) ready.push("header");
      await deliver();
    }
  } catch (err) {
    // Errors of onFamily are the caller's: rethrow them as they were. I/O errors (truncated gzip, …) are input problems.
    if (err instanceof CallbackError) throw err.error;
    if (!isIoError(err)) throw err;
    report(parser.line + 1, ioMessage(err));
    failed = true;
  }
  if (!sawRoot && !failed) report(0, "empty file: no <orthoXML> root element");
  return header;
}

class CallbackError {
  constructor(readonly error: unknown) {}
}

function isIoError(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return typeof code === "string" && (code.startsWith("Z_") || code.startsWith("E"));
}
