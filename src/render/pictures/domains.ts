/**
 * A protein's domains drawn along its sequence (as UniProt's feature track): the sequence as a
 * ruler with ticks, each domain a box over its range (overlapping ones on lanes below each
 * other), coloured by domain id, named inside when the name fits, its source, id and range on hover.
 */
import { count, esc, fitText, px, svgFrame, textWidth } from "./svg.js";

export interface DomainMark {
  source: string;
  id: string;
  name: string;
  /** 1-based, inclusive. */
  start: number;
  end: number;
}

const WIDTH = 760;
const LEFT = 16;
const RIGHT = 24;
const LANE = 22;
const MAX_LANES = 8;

/** A tick step of 1, 2 or 5 times a power of ten giving about six ticks. */
function tickStep(length: number): number {
  const raw = length / 6;
  const power = 10 ** Math.floor(Math.log10(Math.max(1, raw)));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
}

/** A colour class per domain id, the same for the same id on every page. */
function colourOf(id: string): string {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return `d${h % 8}`;
}

export function domainTrackSvg(length: number, domains: readonly DomainMark[], title: string): string {
  const span = WIDTH - LEFT - RIGHT;
  const xOf = (position: number) => LEFT + ((position - 1) / Math.max(1, length)) * span;
  // Lanes: each domain on the first lane whose last domain ends before it starts.
  const sorted = [...domains].sort((a, b) => a.start - b.start || b.end - a.end);
  const laneEnds: number[] = [];
  const placed = sorted.map((d) => {
    let lane = laneEnds.findIndex((end) => end < d.start);
    if (lane < 0) lane = laneEnds.length < MAX_LANES ? laneEnds.length : MAX_LANES - 1;
    laneEnds[lane] = Math.max(laneEnds[lane] ?? 0, d.end);
    return { d, lane };
  });
  const lanes = Math.max(1, laneEnds.length);
  const rulerY = 18;
  const top = rulerY + 16;
  const height = top + lanes * LANE + 8;
  const out: string[] = [];
  // The ruler: the sequence as a bar, ticks and their positions.
  out.push(`<rect class="track" x="${LEFT}" y="${rulerY - 3}" width="${px(span)}" height="6" rx="3"/>`);
  const step = tickStep(length);
  for (let t = 0; t <= length; t += step) {
    const x = xOf(Math.max(1, t));
    out.push(`<line class="axis" x1="${px(x)}" x2="${px(x)}" y1="${rulerY + 3}" y2="${rulerY + 7}"/>`);
    if (length - t > step / 3 || t === 0) out.push(`<text class="tick" x="${px(x)}" y="${rulerY - 7}" text-anchor="middle">${count(Math.max(1, t))}</text>`);
  }
  out.push(`<text class="tick" x="${px(xOf(length))}" y="${rulerY - 7}" text-anchor="middle">${count(length)}</text>`);
  for (const { d, lane } of placed) {
    const x0 = xOf(Math.max(1, d.start));
    const x1 = xOf(Math.min(length, Math.max(d.start, d.end)) + 1);
    const w = Math.max(2, x1 - x0);
    const y = top + lane * LANE;
    const label = d.name && d.name !== "n/a" ? d.name : d.id;
    const tip = `${d.name || d.id} · ${d.source} ${d.id} · ${d.start}–${d.end}`;
    const inside = textWidth(label, 10.5) + 8 <= w ? `<text class="on" x="${px(x0 + w / 2)}" y="${y + 12}" text-anchor="middle">${esc(fitText(label, w - 6, 10.5))}</text>` : "";
    out.push(`<g><title>${esc(tip)}</title><rect class="domain ${colourOf(d.id)}" x="${px(x0)}" y="${y}" width="${px(w)}" height="16" rx="3" opacity=".85"/>${inside}</g>`);
  }
  return svgFrame({ width: WIDTH, height, title, kind: "domains", standalone: false }, out.join(""));
}
