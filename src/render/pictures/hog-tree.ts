/**
 * A HOG family drawn on the species tree (after OMA's iHam). One row per level of the family's
 * clade, as an indented tree: on each row the HOGs of the family on that level (each a link to
 * its HOG page there), the duplications and losses on the branch leading to it, and the
 * family's genes below it. To the right, the HOGs of the level in focus as columns and the
 * genes of each species in each of them (small cells: one square per gene, each a link to the
 * protein). The HOG in focus, its lineage on the other levels and its column are highlighted.
 *
 * Bounded whatever the family: at most `HOG_TREE_LIMITS.rows` rows (clades folded, the way to
 * the focus kept open), `columns` columns (the rest summed in one), `hogsPerLevel` squares a
 * row, and genes drawn one by one only while the drawn genes are few.
 */
import type { FamilyRow, GenomeInfo, Taxonomy } from "../../../release-format/format.js";
import { isAncestorOrSelf } from "../../../release-format/taxonomy.js";
import { eachMember, hogFirst, hogHas, hogSize, type FamilyHistory, type LevelHogOf } from "../../release/family-history.js";
import { count, esc, fitText, px, svgFrame, textWidth } from "./svg.js";
import { genomesBelow, outlineRows, type OutlineRow } from "./tree-layout.js";

export const HOG_TREE_LIMITS = { rows: 60, columns: 30, cells: 700, tips: 300, hogsPerLevel: 6, geneSquares: 600, genesPerCell: 4 };

export interface HogTreeLinks {
  /** The HOG page of a HOG id on a level (by name). */
  hog(id: string, level: string): string;
  protein(entry: number): string;
  genome(code: string): string;
}

export interface HogTreeInput {
  family: FamilyRow;
  history: FamilyHistory;
  taxonomy: Taxonomy;
  genomes: GenomeInfo[];
  /** The level in focus: its HOGs are the columns. */
  level: number;
  /** Ids of the HOGs in focus on that level. */
  selected: readonly string[];
  /** Label of a member (its orthid), by position in the family. */
  memberLabel(position: number): string;
  links: HogTreeLinks;
  /** A document of its own (for `/svg/`), with a heading; else inline in a page. */
  standalone: boolean;
  /** The heading of a standalone drawing, and the picture's accessible title. */
  title: string;
}

export interface HogTreePicture {
  svg: string;
  /** Genes of the HOGs in focus (what their members answer holds). */
  genes: number;
  rows: number;
  columns: number;
}

const ROW = 22;
const INDENT = 14;
const LEFT = 12;
const SQUARE = 10;
const SQUARE_STEP = 13;
const COLUMN = 22;
const LABEL_MAX = 230;
const LABEL_SIZE = 12;

interface Column {
  hog?: LevelHogOf;
  /** HOGs summed in the last column when they do not all fit. */
  rest?: LevelHogOf[];
  mine: boolean;
  /** Genes by row. */
  cells: Map<number, number[]>;
}

export function hogTreeSvg(input: HogTreeInput): HogTreePicture {
  const { family, history, taxonomy, level: focus } = input;
  const names = taxonomy.names;
  const onFocus = history.hogsAt.get(focus) ?? [];
  const selected = new Set(input.selected);
  const focusHogs = onFocus.filter((h) => selected.has(h.id));
  const mine = new Uint8Array(family.entries.length);
  for (const h of focusHogs) eachMember(h, (m) => (mine[m] = 1));
  const firsts = focusHogs.map(hogFirst);
  const genes = focusHogs.reduce((n, h) => n + hogSize(h), 0);

  /** A HOG on the lineage of the HOGs in focus: containing one (above the focus) or inside one (below). */
  const inLineage = (hog: LevelHogOf): boolean => {
    if (hog.level === focus) return selected.has(hog.id);
    if (isAncestorOrSelf(taxonomy, hog.level, focus)) return firsts.some((f) => hogHas(hog, f));
    if (isAncestorOrSelf(taxonomy, focus, hog.level)) return mine[hogFirst(hog)] === 1;
    return false;
  };

  const below = genomesBelow(taxonomy);
  const rows = outlineRows(taxonomy, history.root, {
    maxRows: HOG_TREE_LIMITS.rows,
    focus: [focus],
    weight: (l) => history.genesBelow[l] * 1e6 + below[l],
  });

  // The row each species' genes are drawn on: its own, its folded clade's, or its parent's "more" row.
  const rowOfLevel = new Map<number, number>();
  const moreRowOf = new Map<number, number>();
  rows.forEach((r, i) => (r.more ? moreRowOf : rowOfLevel).set(r.level, i));
  const speciesRow = new Map<number, number>();
  const rowOfSpecies = (species: number): number => {
    let row = speciesRow.get(species);
    if (row !== undefined) return row;
    row = -1;
    for (let l = species; l >= 0; l = taxonomy.parents[l]) {
      const at = rowOfLevel.get(l);
      if (at === undefined) continue;
      row = l === species || rows[at].folded ? at : (moreRowOf.get(l) ?? at);
      break;
    }
    speciesRow.set(species, row);
    return row;
  };
  // Cells are drawn on the rows inside the focus level's clade (a "more" row: its parent's).
  const inFocusClade = (r: OutlineRow) => isAncestorOrSelf(taxonomy, focus, r.level);

  // Columns: the HOGs on the focus level, those in focus always kept, the rest summed past the limit.
  // As many as fit `cells` cells on the rows that have cells (never fewer than 8).
  const cellRows = rows.filter((r) => !r.open && inFocusClade(r)).length;
  const maxColumns = Math.max(8, Math.min(HOG_TREE_LIMITS.columns, Math.floor(HOG_TREE_LIMITS.cells / Math.max(1, cellRows))));
  let shownHogs = onFocus;
  let rest: LevelHogOf[] = [];
  if (onFocus.length > maxColumns) {
    const mineKept = focusHogs.slice(0, maxColumns - 1);
    const others = onFocus.filter((h) => !selected.has(h.id));
    const kept = new Set([...mineKept, ...others.slice(0, maxColumns - 1 - mineKept.length)]);
    shownHogs = onFocus.filter((h) => kept.has(h));
    rest = onFocus.filter((h) => !kept.has(h));
  }
  const cellsOf = (hogs: LevelHogOf[]) => {
    const cells = new Map<number, number[]>();
    for (const h of hogs) {
      eachMember(h, (m) => {
        const row = rowOfSpecies(history.speciesOf[m]);
        let list = cells.get(row);
        if (!list) cells.set(row, (list = []));
        list.push(m);
      });
    }
    return cells;
  };
  const columns: Column[] = shownHogs.map((h) => ({ hog: h, mine: selected.has(h.id), cells: cellsOf([h]) }));
  // The summed column is in focus when every HOG it sums is (the id stands for more HOGs there than fit).
  if (rest.length) columns.push({ rest, mine: rest.every((h) => selected.has(h.id)), cells: cellsOf(rest) });
  const drawnGenes = columns.reduce((n, c) => n + (c.hog ? hogSize(c.hog) : 0), 0);
  const geneSquares = drawnGenes <= HOG_TREE_LIMITS.geneSquares;
  const cellTips = cellRows * columns.length <= HOG_TREE_LIMITS.tips;

  // Labels and widths.
  const labels = rows.map((r) => rowLabel(r, input));
  /** A row's label is bold on the level in focus. */
  function labelWidth(r: OutlineRow, text: string): number {
    return textWidth(text, LABEL_SIZE) * (r.level === focus && !r.more ? 1.12 : 1);
  }
  const namesWidth = Math.max(
    150,
    ...rows.map((r, i) => r.depth * INDENT + 18 + labelWidth(r, labels[i].text) + (labels[i].code ? 6 + textWidth(labels[i].code!, 10.5) : 0)),
  );
  const hogsPerRow = rows.map((r) => (r.more ? [] : (history.hogsAt.get(r.level) ?? [])));
  // HOG squares named on hover while they are few (their links say where they lead).
  const squareTips = hogsPerRow.reduce((n, h) => n + Math.min(h.length, HOG_TREE_LIMITS.hogsPerLevel), 0) <= HOG_TREE_LIMITS.tips;
  const hogsWidth = Math.max(44, ...hogsPerRow.map((h) => squaresWidth(h.length)));
  const suffixes = columns.map((c) => columnLabel(c, family.rootId));
  const longest = Math.max(0, ...suffixes.map((s) => textWidth(s, 10.5)));

  const x = { names: LEFT, hogs: 0, events: 0, genes: 0, matrix: 0 };
  x.hogs = LEFT + namesWidth + 14;
  x.events = x.hogs + hogsWidth + 14;
  x.genes = x.events + 64;
  x.matrix = x.genes + 50;
  const matrixWidth = columns.length * COLUMN;
  const titleHeight = input.standalone ? 30 : 0;
  const headerHeight = titleHeight + 34 + Math.ceil(Math.min(140, longest) * 0.82);
  const top = headerHeight;
  const bottom = top + rows.length * ROW;
  const heading = columns.length ? `GENES PER SPECIES IN THE HOGS AT ${names[focus].toUpperCase()}` : "";
  // Headings are bold, spaced capitals: a fifth wider than text.
  const width = Math.max(x.matrix + matrixWidth + 24, x.matrix + textWidth(heading, 10.5) * 1.2 + 16, 640);
  const rowY = (i: number) => top + i * ROW + ROW / 2;
  const glyphX = (depth: number) => LEFT + 5 + depth * INDENT;

  const out: string[] = [];
  if (input.standalone) out.push(`<text class="title" x="${LEFT}" y="20">${esc(fitText(input.title, width - 2 * LEFT, 14))}</text>`);

  // Backgrounds: stripes, the focus level's row, the columns in focus.
  rows.forEach((_, i) => i % 2 === 1 && out.push(`<rect class="stripe" x="0" y="${top + i * ROW}" width="${width}" height="${ROW}"/>`));
  const focusRow = rowOfLevel.get(focus);
  if (focusRow !== undefined) out.push(`<rect class="band" x="0" y="${top + focusRow * ROW}" width="${width}" height="${ROW}"/>`);
  columns.forEach((c, j) => {
    if (c.mine) out.push(`<rect class="band" x="${x.matrix + j * COLUMN}" y="${top - 4}" width="${COLUMN}" height="${bottom - top + 4}"/>`);
  });

  // Headings.
  const headY = headerHeight - 8;
  out.push(`<text class="head" x="${LEFT}" y="${headY}">TAXONOMY</text>`);
  out.push(`<text class="head" x="${x.hogs}" y="${headY}">HOGS</text>`);
  out.push(`<text class="head" x="${x.events}" y="${headY}">EVENTS</text>`);
  out.push(`<text class="head" x="${x.genes + 36}" y="${headY}" text-anchor="end">GENES</text>`);
  if (heading) out.push(`<text class="head" x="${x.matrix}" y="${headY}">${esc(heading)}</text>`);
  columns.forEach((c, j) => {
    const cx = x.matrix + j * COLUMN + COLUMN / 2 + 3;
    const label = `<text class="mono${c.mine ? " focus" : ""}" transform="translate(${px(cx)} ${headY - 16}) rotate(-55)">${esc(suffixes[j])}</text>`;
    const id = c.hog ? c.hog.id : family.rootId;
    const tip = c.hog ? `${c.hog.id} at ${names[focus]}: ${count(hogSize(c.hog))} genes` : `${rest.length} more HOGs at ${names[focus]}`;
    out.push(`<a class="hog-link" href="${esc(input.links.hog(id, names[focus]))}"><title>${esc(tip)}</title>${label}</a>`);
  });

  // The tree: connectors, then glyphs and labels.
  const tree: string[] = [];
  rows.forEach((r, i) => {
    if (r.parent < 0) return;
    const gone = !r.more && !history.genesBelow[r.level];
    const px0 = glyphX(rows[r.parent].depth);
    const y0 = rowY(r.parent) + 5;
    tree.push(`<path class="branch${gone ? " gone" : ""}" d="M${px0} ${i === r.parent + 1 ? y0 : rowY(previousSibling(rows, i))}V${rowY(i)}H${glyphX(r.depth) - 5}"/>`);
  });
  out.push(`<g>${tree.join("")}</g>`);

  rows.forEach((r, i) => {
    const y = rowY(i);
    const gx = glyphX(r.depth);
    const hogs = hogsPerRow[i];
    const genesHere = r.more ? moreGenes(rows, i, history) : history.genesBelow[r.level];
    const leaf = !r.open && !r.folded && !r.more;
    // Glyph.
    if (r.more) out.push(`<text class="muted" x="${gx - 4}" y="${y + 4}">⋯</text>`);
    else if (r.folded) out.push(`<path class="node${hogs.length ? " has" : ""}" d="M${gx - 5} ${y - 5.5}L${gx + 5} ${y}L${gx - 5} ${y + 5.5}Z"/>`);
    else if (leaf) out.push(`<rect class="node leaf${hogs.length ? " has" : ""}" x="${gx - 4}" y="${y - 4}" width="8" height="8" rx="1.5"/>`);
    else out.push(`<circle class="node${hogs.length ? " has" : ""}" cx="${gx}" cy="${y}" r="4.5"/>`);
    if (r.level === focus && !r.more) out.push(`<circle class="ring" cx="${gx}" cy="${y}" r="8"/>`);

    // Label.
    const label = labels[i];
    const lx = gx + 10;
    const kind = r.level === focus && !r.more ? `${label.kind} focus` : label.kind;
    const text = `<text class="${kind}" x="${lx}" y="${y + 4}">${esc(label.text)}</text>${label.code ? `<text class="code" x="${px(lx + labelWidth(r, label.text) + 6)}" y="${y + 4}">${esc(label.code)}</text>` : ""}`;
    const tip = rowTip(r, input, hogs.length, genesHere);
    const href = label.href ?? (hogs.length === 1 ? input.links.hog(hogs[0].id, names[r.level]) : hogs.length ? input.links.hog(family.rootId, names[r.level]) : undefined);
    const linkClass = label.href ? "" : ' class="hog-link"';
    out.push(href ? `<a${linkClass} href="${esc(href)}"><title>${esc(tip)}</title>${text}</a>` : `<g><title>${esc(tip)}</title>${text}</g>`);

    // The HOGs on the level.
    if (!r.more) out.push(hogSquares(hogs, r.level, x.hogs, y, input, family.rootId, inLineage, squareTips));

    // Events on the branch leading here.
    if (r.parent >= 0 && !r.more) out.push(eventMarks(history.duplications[r.level], history.losses[r.level], x.events, y));

    // Genes below.
    out.push(`<text class="${r.open ? "muted" : ""}" x="${x.genes + 36}" y="${y + 4}" text-anchor="end">${genesHere ? count(genesHere) : "–"}</text>`);

    // Cells.
    if (!columns.length || r.open || !inFocusClade(r)) return;
    columns.forEach((c, j) => {
      const members = c.cells.get(i) ?? [];
      out.push(cell(members, x.matrix + j * COLUMN, y, c.mine, geneSquares && !!c.hog, cellTips, input));
    });
  });

  out.push(legend(x.names, bottom + 22, width - 2 * LEFT));
  const height = bottom + 22 + 44;
  const svg = svgFrame(
    { width, height, title: input.title, kind: "hog-tree", standalone: input.standalone, attributes: ` data-genes="${genes}" data-level="${esc(names[focus])}"` },
    out.join(""),
  );
  return { svg, genes, rows: rows.length, columns: columns.length };
}

interface RowLabel {
  text: string;
  code?: string;
  kind: string;
  /** A link other than the level's HOGs (a genome's page). */
  href?: string;
}

function rowLabel(r: OutlineRow, input: HogTreeInput): RowLabel {
  const { taxonomy } = input;
  if (r.more) return { text: `${r.more} more clade${r.more === 1 ? "" : "s"}`, kind: "muted" };
  const name = fitText(taxonomy.names[r.level], LABEL_MAX, LABEL_SIZE);
  const genome = taxonomy.genomes[r.level];
  if (genome >= 0 && !r.open && !r.folded) {
    const code = input.genomes[genome].code;
    return { text: name, code, kind: "sp", href: input.links.genome(code) };
  }
  if (r.folded) return { text: name, code: `${count(genomesBelow(taxonomy)[r.level])} genomes`, kind: "" };
  return { text: name, kind: "" };
}

function rowTip(r: OutlineRow, input: HogTreeInput, hogs: number, genes: number): string {
  const { history, taxonomy } = input;
  const name = taxonomy.names[r.level];
  const parts = [`${name}: ${hogs} HOG${hogs === 1 ? "" : "s"} of the family`, `${count(genes)} gene${genes === 1 ? "" : "s"}`];
  if (r.parent >= 0) {
    const dups = history.duplications[r.level];
    const lost = history.losses[r.level];
    parts.push(`since ${taxonomy.names[taxonomy.parents[r.level]]}: ${dups} duplication${dups === 1 ? "" : "s"}, ${lost} loss${lost === 1 ? "" : "es"}`);
  }
  if (r.folded) parts.push(`${count(genomesBelow(taxonomy)[r.level])} genomes folded`);
  return parts.join(" · ");
}

const squaresWidth = (n: number): number => (n <= HOG_TREE_LIMITS.hogsPerLevel ? n : HOG_TREE_LIMITS.hogsPerLevel - 1) * SQUARE_STEP + (n > HOG_TREE_LIMITS.hogsPerLevel ? 30 : 0);

/** The HOGs of a level as squares (links), the last standing for the rest past the limit. */
function hogSquares(hogs: LevelHogOf[], level: number, x0: number, y: number, input: HogTreeInput, rootId: string, inLineage: (h: LevelHogOf) => boolean, tips: boolean): string {
  const names = input.taxonomy.names;
  const limit = HOG_TREE_LIMITS.hogsPerLevel;
  // Past the limit: the lineage's HOGs, then the first others, in tree order; a `+n` for the rest.
  let shown = hogs;
  if (hogs.length > limit) {
    const lineage = hogs.filter(inLineage).slice(0, limit - 1);
    const others = hogs.filter((h) => !lineage.includes(h)).slice(0, limit - 1 - lineage.length);
    const kept = new Set([...lineage, ...others]);
    shown = hogs.filter((h) => kept.has(h));
  }
  const out = shown.map((h, k) => {
    const size = hogSize(h);
    const tip = tips ? `<title>${esc(`${h.id} at ${names[level]}: ${count(size)} gene${size === 1 ? "" : "s"}`)}</title>` : "";
    return `<a class="hog-link" href="${esc(input.links.hog(h.id, names[level]))}"><rect class="hog${inLineage(h) ? " mine" : ""}" x="${x0 + k * SQUARE_STEP}" y="${y - SQUARE / 2}" width="${SQUARE}" height="${SQUARE}" rx="2">${tip}</rect></a>`;
  });
  if (hogs.length > limit) {
    const more = hogs.length - shown.length;
    const mx = x0 + shown.length * SQUARE_STEP;
    out.push(
      `<a class="hog-link" href="${esc(input.links.hog(rootId, names[level]))}"><title>${esc(`all ${hogs.length} HOGs of the family at ${names[level]}`)}</title><rect class="more" x="${mx}" y="${y - 7}" width="28" height="14" rx="3"/><text class="genes-n" x="${mx + 14}" y="${y + 3.5}">+${more}</text></a>`,
    );
  }
  return out.join("");
}

/** Duplications (a badge with their number) and losses (a cross with theirs) on the branch to a row. */
function eventMarks(dups: number, losses: number, x0: number, y: number): string {
  let out = "";
  let at = x0;
  if (dups) {
    const w = 10 + String(dups).length * 6;
    out += `<g><title>${dups} duplication${dups === 1 ? "" : "s"} on the branch</title><rect class="dup" x="${at}" y="${y - 7}" width="${w}" height="14" rx="3"/><text class="dup-n" x="${at + w / 2}" y="${y + 3.5}">${dups}</text></g>`;
    at += w + 6;
  }
  if (losses) {
    out += `<g><title>${losses} HOG${losses === 1 ? "" : "s"} lost on the branch</title><path class="loss" d="M${at} ${y - 4}l8 8M${at + 8} ${y - 4}l-8 8"/><text class="loss-n" x="${at + 11}" y="${y + 4}">${losses}</text></g>`;
  }
  return out;
}

/** One cell: nothing (a dot), a square per gene (links), or a box with the number of genes. */
function cell(members: number[], x0: number, y: number, isMine: boolean, squares: boolean, tips: boolean, input: HogTreeInput): string {
  const cx = x0 + COLUMN / 2;
  const n = members.length;
  const cls = `cell${isMine ? " mine" : ""}`;
  if (!n) return `<circle class="absent ${cls}" data-n="0" cx="${cx}" cy="${y}" r="1.6"/>`;
  if (squares && n <= HOG_TREE_LIMITS.genesPerCell) {
    const size = n === 1 ? 9 : 7;
    const spots = n === 1 ? [[0, 0]] : n === 2 ? [[-4.5, 0], [4.5, 0]] : [[-4.5, -4.5], [4.5, -4.5], [-4.5, 4.5], [4.5, 4.5]].slice(0, n);
    const genes = members.map((m, k) => {
      const [dx, dy] = spots[k];
      const entry = input.family.entries[m];
      return `<a href="${esc(input.links.protein(entry))}"><rect class="gene" x="${px(cx + dx - size / 2)}" y="${px(y + dy - size / 2)}" width="${size}" height="${size}" rx="1.5"><title>${esc(input.memberLabel(m))}</title></rect></a>`;
    });
    return `<g class="${cls}" data-n="${n}">${genes.join("")}</g>`;
  }
  // A box with the number; its genes named on hover while the cells are few.
  const shown = tips ? members.slice(0, 6).map((m) => input.memberLabel(m)) : [];
  const tip = tips ? `<title>${esc(`${n} genes: ${shown.join(", ")}${n > shown.length ? ", …" : ""}`)}</title>` : "";
  const box = `<rect class="genes ${cls}" data-n="${n}" x="${cx - 9.5}" y="${y - 8}" width="19" height="16" rx="3">${tip}</rect>`;
  return `${box}<text class="genes-n" x="${cx}" y="${y + 3.5}">${n > 999 ? "1k+" : n}</text>`;
}

/** The row above `i` under the same parent (for the connector's start). */
function previousSibling(rows: OutlineRow[], i: number): number {
  for (let k = i - 1; k > rows[i].parent; k--) if (rows[k].parent === rows[i].parent) return k;
  return rows[i].parent;
}

/** Genes of the hidden siblings a "more" row stands for. */
function moreGenes(rows: OutlineRow[], i: number, history: FamilyHistory): number {
  const parent = rows[rows[i].parent];
  let shown = 0;
  for (const r of rows) if (r.parent === rows[i].parent && !r.more) shown += history.genesBelow[r.level];
  return Math.max(0, history.genesBelow[parent.level] - history.genesOwn[parent.level] - shown);
}

function columnLabel(c: Column, rootId: string): string {
  if (!c.hog) return `+${c.rest!.length} more`;
  const id = c.hog.id;
  const suffix = id === rootId ? "root" : id.startsWith(`${rootId}.`) ? id.slice(rootId.length) : id;
  return fitText(suffix, 140, 10.5);
}

/** What the marks mean, in one or two lines. */
function legend(x0: number, y: number, width: number): string {
  const items: Array<[string, string]> = [
    [`<rect class="hog" x="0" y="-5" width="10" height="10" rx="2"/>`, "HOG on a level"],
    [`<rect class="hog mine" x="0" y="-5" width="10" height="10" rx="2"/>`, "this HOG and its lineage"],
    [`<rect class="dup" x="0" y="-7" width="16" height="14" rx="3"/><text class="dup-n" x="8" y="3.5">n</text>`, "duplications on the branch"],
    [`<path class="loss" d="M0 -4l8 8M8 -4l-8 8"/>`, "HOGs lost on the branch"],
    [`<rect class="gene" x="0" y="-4.5" width="9" height="9" rx="1.5"/>`, "a gene"],
    [`<rect class="genes" x="0" y="-8" width="19" height="16" rx="3"/><text class="genes-n" x="9.5" y="3.5">n</text>`, "n genes"],
    [`<path class="branch gone" d="M0 0H18"/>`, "no gene of the family"],
  ];
  let cx = 0;
  let line = 0;
  const out: string[] = [];
  for (const [mark, text] of items) {
    const w = 26 + textWidth(text, 11) + 18;
    if (cx + w > width && cx > 0) {
      cx = 0;
      line++;
    }
    out.push(`<g transform="translate(${px(x0 + cx)} ${y + line * 22})">${mark}<text class="muted" x="26" y="4">${esc(text)}</text></g>`);
    cx += w;
  }
  return `<g class="legend">${out.join("")}</g>`;
}
