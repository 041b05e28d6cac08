import { SPECIATION, type FamilyRow, type GenomeInfo, type ProteinRow } from "../../release-format/format.js";
import { nodesWithId } from "../../release-format/hog-tree.js";
import type { Release } from "../release/release.js";
import { fieldNamesOf, nameIn } from "./field-names.js";
import { orthid } from "./protein.js";
import { XML_DECLARATION, xmlEscape } from "./xml.js";

/** The origin named in exported documents (as the release's naming profile names it). */
const ORIGIN = "orth";

/** A group or a gene of the document being written. */
type Item = { gene: number } | Group;

interface Group {
  tag: "orthologGroup" | "paralogGroup";
  id?: string;
  completeness?: number;
  properties: Array<[string, string]>;
  children: Item[];
}

/** A number as an `xs:decimal` (no exponent). */
function decimal(value: number): string {
  const s = String(value);
  return /e/i.test(s) ? value.toFixed(20).replace(/0+$/, "").replace(/\.$/, "") : s;
}

/** The HOG tree of a family as orthoXML groups (see familyOrthoXml). */
function familyGroups(release: Release, f: FamilyRow, augmented: boolean): Item[] {
  const { names } = release.manifest.taxonomy;
  const kids: number[][] = f.nodes.map(() => []);
  f.nodes.forEach((n, i) => n.parent >= 0 && kids[n.parent].push(i));

  const render = (i: number): Item[] => {
    const n = f.nodes[i];
    const children: Item[] = [];
    let at = n.lo;
    for (const k of kids[i]) {
      for (; at < f.nodes[k].lo; at++) children.push({ gene: f.entries[at] });
      children.push(...render(k));
      at = Math.max(at, f.nodes[k].hi);
    }
    for (; at < n.hi; at++) children.push({ gene: f.entries[at] });

    let group: Group;
    if (n.kind === SPECIATION) {
      const properties: Array<[string, string]> = [];
      if (n.level >= 0) properties.push(["TaxRange", names[n.level]]);
      if (augmented) properties.push(["HOGid", n.id]);
      group = {
        tag: "orthologGroup",
        id: nodesWithId(f, n.id)[0] === i ? n.id : undefined,
        completeness: n.completeness >= 0 ? n.completeness : undefined,
        properties,
        children,
      };
    } else group = { tag: "paralogGroup", properties: [], children };
    if (children.length !== 1) return children.length ? [group] : [];
    const only = children[0];
    if ("tag" in only && only.id === undefined) only.id = group.id;
    if ("tag" in only && only.tag === "paralogGroup" && group.tag === "orthologGroup" && only.properties.length === 0) {
      // The HOG that duplicated: its level and score go to the duplication that stands for it.
      only.completeness = group.completeness;
      only.properties = group.properties;
    }
    return [only];
  };

  let top = render(0);
  // A family of one gene: the schema has no valid form for it; its one group is kept.
  if (top.length === 1 && "gene" in top[0]) top = [{ tag: "orthologGroup", id: f.rootId, properties: [], children: top }];
  return top;
}

/**
 * The OrthoXML 0.5 document (namespace `http://orthoXML.org/2011/`) of one family (root HOG),
 * valid against orthoxml-0.5.xsd:
 * - one `<species name="{scientific name}" NCBITaxId="{taxon id}">` per genome with members, in
 *   release order, its genes as `<gene id="{entry_nr}" protId="{orthid}"/>` by entry number;
 * - `<groups>`: the HOG tree, an `<orthologGroup>` per speciation node with
 *   `<score id="CompletenessScore">` (when known) and `<property name="TaxRange">` (its level),
 *   a `<paralogGroup>` per duplication, `<geneRef>`s where the members hang.
 *
 * Ids: the node where a HOG id begins (the root, or the first node below a duplication) carries
 * `id="{hog_id}"`, once per id as the schema wants group ids unique; the nodes that continue an
 * id on less ancient levels carry none. `augmented` also names the HOG on every orthologGroup,
 * those continuations included, with `<property name="HOGid" value="{hog_id}"/>`.
 *
 * The schema wants two or more children in every group, so a node with a single child is
 * written as that child: a gene alone below a duplication (which the release models as a
 * one-gene sub-HOG) is a plain `<geneRef>`, as in the orthoXML inputs, and an orthologGroup
 * whose only child is a duplication (a root HOG that duplicated, as the compiler models a
 * top-level paralogGroup or two overlapping orthologGroups) is written as that
 * `<paralogGroup>`, which takes over the HOG's id, score and TaxRange.
 */
export function familyOrthoXml(release: Release, f: FamilyRow, augmented: boolean): string {
  const top = familyGroups(release, f, augmented);
  const out: string[] = [documentHead(release)];
  // Entries are numbered genome by genome in release order: by entry, the genomes come in order.
  const byGenome = new Map<GenomeInfo, number[]>();
  for (const entry of [...f.entries].sort((a, b) => a - b)) {
    const genome = release.genomeOfEntry(entry);
    const list = byGenome.get(genome);
    if (list) list.push(entry);
    else byGenome.set(genome, [entry]);
  }
  for (const [genome, entries] of byGenome) out.push(speciesBlock(release, genome, entries));
  const scored = (item: Item): boolean => "tag" in item && (item.completeness !== undefined || item.children.some(scored));
  if (top.some(scored)) out.push(SCORE_DEFINITIONS);
  out.push("  <groups>\n");
  out.push(groupsXml(top));
  out.push(DOCUMENT_TAIL);
  return out.join("");
}

/**
 * The whole release's HOGs as one orthoXML document, in pieces to stream: every genome's genes
 * that are in a family (read genome by genome), then every family's groups (read family by
 * family). Memory stays that of one genome's gene list or one family at a time.
 */
export async function* releaseOrthoXml(release: Release): AsyncIterable<string> {
  const { genomes, tables, counts } = release.manifest;
  yield documentHead(release);
  for (const genome of genomes) {
    const entries: number[] = [];
    for await (const p of await release.rows<ProteinRow>(tables.proteins, genome.firstEntry - 1, genome.firstEntry - 1 + genome.nrEntries)) {
      if (p.family) entries.push(p.entry);
    }
    if (entries.length) yield speciesBlock(release, genome, entries);
  }
  yield SCORE_DEFINITIONS;
  yield "  <groups>\n";
  for await (const f of await release.rows<FamilyRow>(tables.families, 0, counts.families)) yield groupsXml(familyGroups(release, f, false));
  yield DOCUMENT_TAIL;
}

function documentHead(release: Release): string {
  const version = xmlEscape(release.manifest.name);
  const origin = nameIn(fieldNamesOf(release.manifest), "value", ORIGIN);
  return `${XML_DECLARATION.trimEnd()}\n<orthoXML xmlns="http://orthoXML.org/2011/" version="0.5" origin="${origin}" originVersion="${version}">\n`;
}

function speciesBlock(release: Release, genome: GenomeInfo, entries: number[]): string {
  const version = xmlEscape(release.manifest.name);
  const origin = nameIn(fieldNamesOf(release.manifest), "value", ORIGIN);
  const out = [`  <species name="${xmlEscape(genome.species)}" NCBITaxId="${genome.taxonId}">`, `    <database name="${origin}" version="${version}">`, "      <genes>"];
  for (const entry of entries) out.push(`        <gene id="${entry}" protId="${xmlEscape(orthid(genome, entry))}"/>`);
  out.push("      </genes>", "    </database>", "  </species>");
  return `${out.join("\n")}\n`;
}

const SCORE_DEFINITIONS =
  '  <scores>\n    <scoreDef id="CompletenessScore" desc="Fraction of the genomes of the level with a member in the (sub-)HOG"/>\n  </scores>\n';
const DOCUMENT_TAIL = "  </groups>\n</orthoXML>\n";

/** Groups as orthoXML elements inside `<groups>`, one line each. */
function groupsXml(items: Item[]): string {
  const out: string[] = [];
  const write = (item: Item, indent: string): void => {
    if ("gene" in item) {
      out.push(`${indent}<geneRef id="${item.gene}"/>`);
      return;
    }
    out.push(`${indent}<${item.tag}${item.id !== undefined ? ` id="${xmlEscape(item.id)}"` : ""}>`);
    if (item.completeness !== undefined) out.push(`${indent}  <score id="CompletenessScore" value="${decimal(item.completeness)}"/>`);
    for (const [name, value] of item.properties) out.push(`${indent}  <property name="${name}" value="${xmlEscape(value)}"/>`);
    for (const child of item.children) write(child, `${indent}  `);
    out.push(`${indent}</${item.tag}>`);
  };
  for (const item of items) write(item, "    ");
  return out.length ? `${out.join("\n")}\n` : "";
}
