/**
 * hogs.orthoxml in the style of FastOMA's FastOMA_HOGs.orthoxml (orthoXML 0.5): species blocks
 * listing every gene (main isoforms), the taxonomy mirroring the species tree (preorder ids),
 * the CompletenessScore definition, then one top-level orthologGroup per family present in at
 * least two genomes.
 *
 * Group structure, from the family's pruned true gene tree:
 * - a speciation becomes an orthologGroup at its species-tree level (only levels where lineages
 *   with genes actually split are written, so a level whose other lineages lost the gene is
 *   skipped and the surviving group appears directly);
 * - a duplication becomes a paralogGroup; duplications directly below a duplication are merged,
 *   so a paralogGroup holds only geneRefs and orthologGroups;
 * - genes are geneRefs of the group directly above them (an orthologGroup, or a paralogGroup
 *   when the gene is one copy of a duplication, e.g. in-species paralogs);
 * - a polyploid genome's homoeologs (the split of its subgenomes' progenitors, evolve.ts) are
 *   an orthologGroup whose TaxRange is the genome's own species (a leaf of the taxonomy,
 *   CompletenessScore 1.0), standing where its single gene would otherwise be; it may hold
 *   paralogGroups (duplications inside a subgenome) and may itself be a child of a paralogGroup
 *   (duplications before the split);
 * - when a family's gene tree starts with a duplication, the top-level orthologGroup is written
 *   at the level above that duplication (the parent of the species node below it) and holds
 *   that single paralogGroup, as FastOMA does.
 *
 * Group ids (omitted with hogIds = false; a compiler can regenerate them from the structure):
 * - top-level groups are numbered 1.. in document order: `HOG:0000001`;
 * - an orthologGroup below an orthologGroup without a paralogGroup in between keeps its id;
 * - every paralogGroup whose nearest enclosing orthologGroup has id X takes the next number n
 *   of a counter kept per id X (1, 2, … in document order, shared by all orthologGroups with
 *   id X), and its k-th child (0-based, geneRefs included) is X.{n}{letters(k)}, with
 *   letters a..z, aa..az, ba.. — only orthologGroup children write that id (a geneRef child is
 *   a single-gene sub-HOG with that id, recorded in truth/hogs.tsv);
 * - the written attribute is `<id>_<taxonomy id of the group's level>`, e.g. `HOG:0000003.1a_11`.
 */
import { DUPLICATION, LEAF, type Family, type Gene, type GeneNode } from "./evolve.js";
import type { GenomeLayout } from "./layout.js";
import { FileSink } from "./sink.js";
import type { SpeciesNode, SpeciesTree } from "./species-tree.js";

/** Sub-HOG letters: a..z, aa..az, ba.. (spreadsheet-column style). */
export function hogLetters(index: number): string {
  let s = "";
  let i = index + 1;
  while (i > 0) {
    i--;
    s = String.fromCharCode(97 + (i % 26)) + s;
    i = Math.floor(i / 26);
  }
  return s;
}

function rootHogId(number: number): string {
  return `HOG:${String(number).padStart(7, "0")}`;
}

/** CompletenessScore as FastOMA prints it: 4 decimals, `1.0` for complete groups. */
function formatCompleteness(value: number): string {
  const rounded = Math.round(value * 10000) / 10000;
  return Number.isInteger(rounded) ? rounded.toFixed(1) : String(rounded);
}

function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * For each gene of a written family: the root HOG id and its deepest (sub-)HOG id: the id of the
 * orthologGroup directly above it, or, for a gene that is itself a child of a paralogGroup, the
 * id X.{n}{letter} its position implies (a single-gene sub-HOG).
 */
export interface GeneHog {
  gene: Gene;
  rootHog: string;
  hog: string;
}

export class OrthoXmlWriter {
  private readonly sink: FileSink;
  private hogCount = 0;
  private readonly padding: string[] = [];

  constructor(
    path: string,
    private readonly tree: SpeciesTree,
    private readonly hogIds: boolean,
  ) {
    this.sink = new FileSink(path);
  }

  private pad(indent: number): string {
    return (this.padding[indent] ??= " ".repeat(indent));
  }

  get familiesWritten(): number {
    return this.hogCount;
  }

  header(layouts: readonly GenomeLayout[], databaseVersion: string): void {
    const s = this.sink;
    s.write(`<?xml version='1.0' encoding='utf-8'?>\n`);
    s.write(`<orthoXML xmlns="http://orthoXML.org/2011/" origin="orth-edge release simulator" originVersion="1" version="0.5">\n`);
    for (const layout of layouts) {
      const leaf = this.tree.leaves[layout.genome];
      s.write(`  <species name="${escapeXml(layout.organism.code)}" taxonId="${leaf.taxonomyId}" NCBITaxId="${layout.organism.taxonId}">\n`);
      s.write(`    <database name="Simulated" version="${escapeXml(databaseVersion)}">\n      <genes>\n`);
      for (const gene of layout.genes) s.write(`        <gene id="${gene.xmlId}" protId="${gene.proteinId}" />\n`);
      s.write(`      </genes>\n    </database>\n  </species>\n`);
    }
    s.write(`  <taxonomy>\n`);
    const taxon = (node: SpeciesNode, indent: number): void => {
      const pad = this.pad(indent);
      if (node.children.length === 0) {
        s.write(`${pad}<taxon id="${node.taxonomyId}" name="${escapeXml(node.name)}" />\n`);
        return;
      }
      s.write(`${pad}<taxon id="${node.taxonomyId}" name="${escapeXml(node.name)}">\n`);
      for (const child of node.children) taxon(child, indent + 2);
      s.write(`${pad}</taxon>\n`);
    };
    taxon(this.tree.root, 4);
    s.write(`  </taxonomy>\n`);
    s.write(`  <scores>\n    <scoreDef id="CompletenessScore" desc="Fraction of expected species with genes in the (Sub)HOG" />\n  </scores>\n`);
    s.write(`  <groups>\n`);
  }

  /**
   * Writes a family when it has genes in at least two genomes; returns its genes' HOG ids
   * (in document order), or null when the family is not written.
   */
  family(family: Family): GeneHog[] | null {
    const root = family.tree;
    if (!root || family.genomeCount < 2) return null;
    const s = this.sink;
    const rootHog = rootHogId(++this.hogCount);
    const counters = new Map<string, number>();
    const genes: GeneHog[] = [];

    const genomeCount = (node: GeneNode): number => {
      const seen = new Set<number>();
      const visit = (n: GeneNode): void => {
        if (n.gene) seen.add(n.gene.genome);
        for (const c of n.children) visit(c);
      };
      visit(node);
      return seen.size;
    };

    const geneRef = (gene: Gene, hog: string, indent: number): void => {
      s.write(`${this.pad(indent)}<geneRef id="${gene.xmlId}" />\n`);
      genes.push({ gene, rootHog, hog });
    };

    const orthologGroup = (level: SpeciesNode, id: string, children: readonly GeneNode[], genomes: number, indent: number): void => {
      const pad = this.pad(indent);
      const inner = this.pad(indent + 2);
      s.write(
        this.hogIds
          ? `${pad}<orthologGroup id="${id}_${level.taxonomyId}" taxonId="${level.taxonomyId}">\n`
          : `${pad}<orthologGroup taxonId="${level.taxonomyId}">\n`,
      );
      s.write(`${inner}<score id="CompletenessScore" value="${formatCompleteness(genomes / level.leafCount)}" />\n`);
      s.write(`${inner}<property name="TaxRange" value="${escapeXml(level.name)}" />\n`);
      for (const child of children) emit(child, id, indent + 2);
      s.write(`${pad}</orthologGroup>\n`);
    };

    const emit = (node: GeneNode, id: string, indent: number): void => {
      if (node.kind === LEAF) {
        geneRef(node.gene!, id, indent);
      } else if (node.kind === DUPLICATION) {
        const n = (counters.get(id) ?? 0) + 1;
        counters.set(id, n);
        const pad = this.pad(indent);
        s.write(`${pad}<paralogGroup>\n`);
        node.children.forEach((child, k) => {
          const childId = `${id}.${n}${hogLetters(k)}`;
          if (child.kind === LEAF) geneRef(child.gene!, childId, indent + 2);
          else orthologGroup(child.species, childId, child.children, genomeCount(child), indent + 2);
        });
        s.write(`${pad}</paralogGroup>\n`);
      } else {
        orthologGroup(node.species, id, node.children, genomeCount(node), indent);
      }
    };

    if (root.kind === DUPLICATION) orthologGroup(root.species.parent!, rootHog, [root], family.genomeCount, 4);
    else emit(root, rootHog, 4);
    return genes;
  }

  close(): void {
    this.sink.write(`  </groups>\n</orthoXML>\n`);
    this.sink.close();
  }
}
