/**
 * The species tree of a release (or of one clade) drawn as an indented tree: every level a row
 * with its genomes, its HOGs (a link to the HOGs on it) and, for a genome, its proteins as a
 * bar. Past `SPECIES_TREE_LIMITS.rows` rows clades are folded (a link to their own tree) and
 * the largest kept open; levels with more children than fit show the largest and one more row.
 */
import type { GenomeInfo, Taxonomy } from "../../../release-format/format.js";
import { count, esc, fitText, px, svgFrame, textWidth } from "./svg.js";
import { genomesBelow, outlineRows, type OutlineRow } from "./tree-layout.js";

export const SPECIES_TREE_LIMITS = { rows: 250 };

export interface SpeciesTreeLinks {
  /** The HOGs on a level (by name). */
  hogs(level: string): string;
  genome(code: string): string;
  /** The tree below a level. */
  subtree(level: string): string;
}

export interface SpeciesTreeInput {
  taxonomy: Taxonomy;
  genomes: GenomeInfo[];
  root: number;
  /** Levels to keep open the way to. */
  focus?: number[];
  /** Number of HOGs on a level. */
  hogsOn(level: number): number;
  links: SpeciesTreeLinks;
  title: string;
}

const ROW = 22;
const INDENT = 16;
const LEFT = 12;
const LABEL_MAX = 260;
const BAR = 140;

export function speciesTreeSvg(input: SpeciesTreeInput): { svg: string; rows: number } {
  const { taxonomy, genomes } = input;
  const below = genomesBelow(taxonomy);
  const proteinsBelow = new Float64Array(taxonomy.parents.length);
  taxonomy.genomes.forEach((g, level) => {
    if (g >= 0) for (let l = level; l >= 0; l = taxonomy.parents[l]) proteinsBelow[l] += genomes[g].nrEntries;
  });
  const rows = outlineRows(taxonomy, input.root, { maxRows: SPECIES_TREE_LIMITS.rows, focus: input.focus, weight: (l) => below[l] });
  const maxProteins = Math.max(1, ...genomes.map((g) => g.nrEntries));

  const labelOf = (r: OutlineRow): { text: string; code?: string; sp: boolean } => {
    if (r.more) return { text: `${r.more} more clade${r.more === 1 ? "" : "s"}`, sp: false };
    const name = fitText(taxonomy.names[r.level], LABEL_MAX, 12);
    const g = taxonomy.genomes[r.level];
    if (g >= 0 && !r.open && !r.folded) return { text: name, code: genomes[g].code, sp: true };
    return { text: name, code: r.folded ? `${count(below[r.level])} genomes` : undefined, sp: false };
  };
  const labels = rows.map(labelOf);
  const namesWidth = Math.max(200, ...rows.map((r, i) => r.depth * INDENT + 20 + textWidth(labels[i].text, 12) + (labels[i].code ? 8 + textWidth(labels[i].code!, 10.5) : 0)));
  const x = { genomes: LEFT + namesWidth + 16, hogs: 0, proteins: 0 };
  x.hogs = x.genomes + 70;
  x.proteins = x.hogs + 90;
  const width = x.proteins + 70 + BAR + 20;
  const top = 30;
  const rowY = (i: number) => top + i * ROW + ROW / 2;
  const glyphX = (depth: number) => LEFT + 5 + depth * INDENT;

  const out: string[] = [];
  rows.forEach((_, i) => i % 2 === 1 && out.push(`<rect class="stripe" x="0" y="${top + i * ROW}" width="${width}" height="${ROW}"/>`));
  const headY = top - 10;
  out.push(`<text class="head" x="${LEFT}" y="${headY}">TAXONOMY</text>`);
  out.push(`<text class="head" x="${x.genomes + 50}" y="${headY}" text-anchor="end">GENOMES</text>`);
  out.push(`<text class="head" x="${x.hogs + 70}" y="${headY}" text-anchor="end">HOGS</text>`);
  out.push(`<text class="head" x="${x.proteins + 60}" y="${headY}" text-anchor="end">PROTEINS</text>`);

  const tree: string[] = [];
  rows.forEach((r, i) => {
    if (r.parent < 0) return;
    let from = r.parent;
    for (let k = i - 1; k > r.parent; k--) if (rows[k].parent === r.parent) { from = k; break; }
    const y0 = from === r.parent ? rowY(r.parent) + 5 : rowY(from);
    tree.push(`<path class="branch" d="M${glyphX(rows[r.parent].depth)} ${y0}V${rowY(i)}H${glyphX(r.depth) - 5}"/>`);
  });
  out.push(`<g>${tree.join("")}</g>`);

  rows.forEach((r, i) => {
    const y = rowY(i);
    const gx = glyphX(r.depth);
    const label = labels[i];
    const name = taxonomy.names[r.level];
    const leaf = !r.open && !r.folded && !r.more;
    if (r.more) out.push(`<text class="muted" x="${gx - 4}" y="${y + 4}">⋯</text>`);
    else if (r.folded) out.push(`<path class="node has" d="M${gx - 5} ${y - 5.5}L${gx + 5} ${y}L${gx - 5} ${y + 5.5}Z"/>`);
    else if (leaf) out.push(`<rect class="node leaf has" x="${gx - 4}" y="${y - 4}" width="8" height="8" rx="1.5"/>`);
    else out.push(`<circle class="node has" cx="${gx}" cy="${y}" r="4.5"/>`);

    const lx = gx + 10;
    const text = `<text class="${label.sp ? "sp" : ""}" x="${lx}" y="${y + 4}">${esc(label.text)}</text>`;
    const code = label.code ? `<text class="code" x="${px(lx + textWidth(label.text, 12) + 8)}" y="${y + 4}">${esc(label.code)}</text>` : "";
    const g = taxonomy.genomes[r.level];
    const href = r.more ? input.links.subtree(name) : leaf && g >= 0 ? input.links.genome(genomes[g].code) : r.folded ? input.links.subtree(name) : input.links.hogs(name);
    const tip = r.more ? `${r.more} more clades below ${name}` : leaf ? `${name} (${genomes[g]?.code ?? ""})` : `${name}: ${count(below[r.level])} genomes${r.folded ? " (folded: open its tree)" : " (its HOGs)"}`;
    out.push(`<a class="${leaf ? "genome-link" : "level-link"}" href="${esc(href)}"><title>${esc(tip)}</title>${text}</a>${code}`);
    if (r.more) return;

    out.push(`<text class="${leaf ? "muted" : ""}" x="${x.genomes + 50}" y="${y + 4}" text-anchor="end">${count(below[r.level])}</text>`);
    const hogs = input.hogsOn(r.level);
    out.push(
      hogs
        ? `<a class="hog-list-link" href="${esc(input.links.hogs(name))}"><title>${esc(`the ${count(hogs)} HOGs at ${name}`)}</title><text x="${x.hogs + 70}" y="${y + 4}" text-anchor="end">${count(hogs)}</text></a>`
        : `<text class="muted" x="${x.hogs + 70}" y="${y + 4}" text-anchor="end">–</text>`,
    );
    out.push(`<text class="${leaf ? "" : "muted"}" x="${x.proteins + 60}" y="${y + 4}" text-anchor="end">${count(proteinsBelow[r.level])}</text>`);
    if (leaf && g >= 0) {
      const w = Math.max(1, (genomes[g].nrEntries / maxProteins) * BAR);
      out.push(`<rect class="genes" x="${x.proteins + 70}" y="${y - 5}" width="${px(w)}" height="10" rx="2"/>`);
    }
  });
  const height = top + rows.length * ROW + 12;
  return { svg: svgFrame({ width, height, title: input.title, kind: "species-tree", standalone: false }, out.join("")), rows: rows.length };
}
