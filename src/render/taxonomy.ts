import type { TaxonNode } from "../release/taxonomy.js";
import type { Release } from "../release/release.js";
import { XML_DECLARATION, xmlEscape } from "./xml.js";

export type LeafLabel = "sciname" | "species_code";
export type InternalLabel = "sciname" | "taxid" | "none";

/** The name of a served node: the level's name, or for a genome's extra leaf `<name> (disambiguate <CODE>)`. */
function nameOf(release: Release, node: TaxonNode): string {
  const name = release.manifest.taxonomy.names[node.level];
  return node.disambiguates ? `${name} (disambiguate ${release.manifest.genomes[node.genome].code})` : name;
}

function codeOf(release: Release, node: TaxonNode): string | undefined {
  return node.genome >= 0 && (node.disambiguates || node.children.length === 0) ? release.manifest.genomes[node.genome].code : undefined;
}

/** `{"name", "taxon_id"}` of the served tree's root. */
export function rootTaxon(release: Release, root: TaxonNode) {
  return { name: nameOf(release, root), taxon_id: release.manifest.taxonomy.taxonIds[root.level] };
}

/** Nested `{"name", "id", "children"}`; leaves carry `code` (genomes) and no `children`. */
export function taxonomyDictionary(release: Release, node: TaxonNode): Record<string, unknown> {
  const out: Record<string, unknown> = { name: nameOf(release, node), id: release.manifest.taxonomy.taxonIds[node.level] };
  const code = codeOf(release, node);
  if (code !== undefined) out.code = code;
  if (node.children.length) out.children = node.children.map((c) => taxonomyDictionary(release, c));
  return out;
}

/** Characters that end or structure an unquoted Newick label. */
const NEWICK_SPECIAL = /[()[\]':;,\s]/;

/**
 * A Newick label. Quoted (`'…'`, quotes doubled) when asked, or when the name holds characters
 * an unquoted label cannot carry (parentheses, commas, …); otherwise spaces become `_`.
 */
function newickLabel(text: string, quote: boolean): string {
  if (quote || NEWICK_SPECIAL.test(text.replaceAll(" ", "_"))) return `'${text.replaceAll("'", "''")}'`;
  return text.replaceAll(" ", "_");
}

interface NewickOptions {
  leafLabel: LeafLabel;
  internalLabel: InternalLabel;
  quote: boolean;
}

export function taxonomyNewick(release: Release, root: TaxonNode, options: NewickOptions): string {
  const { taxonIds } = release.manifest.taxonomy;
  const write = (node: TaxonNode): string => {
    if (node.children.length === 0) {
      const code = codeOf(release, node);
      return newickLabel(options.leafLabel === "species_code" && code !== undefined ? code : nameOf(release, node), options.quote);
    }
    const inner = `(${node.children.map(write).join(",")})`;
    if (options.internalLabel === "none") return inner;
    if (options.internalLabel === "taxid") return `${inner}${newickLabel(String(taxonIds[node.level]), options.quote)}`;
    return `${inner}${newickLabel(nameOf(release, node), options.quote)}`;
  };
  return `${write(root)};`;
}

/**
 * PhyloXML 1.10: one rooted phylogeny, a clade per node with its name and a taxonomy element
 * (the taxon id with provider `ncbi` when it is one, i.e. positive; the species code; the
 * scientific name).
 */
export function taxonomyPhyloXml(release: Release, root: TaxonNode): string {
  const { taxonIds, names } = release.manifest.taxonomy;
  const lines: string[] = [];
  const write = (node: TaxonNode, indent: string): void => {
    const id = taxonIds[node.level];
    const code = codeOf(release, node);
    lines.push(`${indent}<clade>`);
    lines.push(`${indent}  <name>${xmlEscape(nameOf(release, node))}</name>`);
    lines.push(
      `${indent}  <taxonomy>` +
        (id > 0 ? `<id provider="ncbi">${id}</id>` : "") +
        (code !== undefined ? `<code>${xmlEscape(code)}</code>` : "") +
        `<scientific_name>${xmlEscape(names[node.level])}</scientific_name></taxonomy>`,
    );
    for (const child of node.children) write(child, `${indent}  `);
    lines.push(`${indent}</clade>`);
  };
  write(root, "    ");
  return (
    XML_DECLARATION +
    '<phyloxml xmlns="http://www.phyloxml.org" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
    'xsi:schemaLocation="http://www.phyloxml.org http://www.phyloxml.org/1.10/phyloxml.xsd">\n' +
    '  <phylogeny rooted="true">\n' +
    `${lines.join("\n")}\n` +
    "  </phylogeny>\n" +
    "</phyloxml>\n"
  );
}
