/**
 * A HOG's family drawn on the species tree, served alone as SVG for embedding
 * (`/api/hog/{id}/svg/`, `level` as the HOG endpoint takes it), and the same drawing the HOG
 * page shows inline. The HOG in focus is what `/api/hog/{id}/` answers for the request: the id
 * on its most ancient level without `level`, the root HOG with `level=root`, and on a level
 * every HOG there whose id is a prefix of the id or has it as prefix.
 */
import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { levelParam, onAliasLevel, type Level } from "./hogs.js";
import { linksOf, pathParam, releaseOf, type AppEnv } from "../context.js";
import { segment, type Links } from "../render/links.js";
import { hogTreeSvg, type HogTreePicture } from "../render/pictures/hog-tree.js";
import { svgHeaders } from "../render/pictures/svg.js";
import { orthid } from "../render/protein.js";
import { historyOf } from "../release/family-history.js";
import { isPrefixId, nodesWithId } from "../../release-format/hog-tree.js";
import type { Release } from "../release/release.js";
import { resolveHog } from "../release/resolve.js";
import { membersAt } from "../release/family-members.js";
import type { FamilyRow, ProteinSummary } from "../../release-format/format.js";

/** The level a HOG request is about and the ids of the HOGs on it in focus. */
export interface HogFocus {
  level: number;
  ids: string[];
}

export function hogFocus(release: Release, family: FamilyRow, hogId: string, level: Level): HogFocus {
  if (level?.root) return { level: family.nodes[0].levels[0], ids: [family.nodes[0].id] };
  if (!level) {
    const node = nodesWithId(family, hogId)[0] ?? 0;
    return { level: family.nodes[node].levels[0], ids: [family.nodes[node].id] };
  }
  const related = (id: string) => isPrefixId(id, hogId) || isPrefixId(hogId, id);
  const hogs = historyOf(family, release).hogsAt.get(level.level) ?? [];
  return { level: level.level, ids: hogs.filter((h) => related(h.id)).map((h) => h.id) };
}

/**
 * Draws with each member's label (`HUMAN00042 P12345`). A wide family's summaries are not in its
 * row: the drawing is made once to learn which members it names (a few per cell, never the
 * whole family), their summaries are read, and it is made again with them.
 */
async function withMemberLabels<T>(release: Release, family: FamilyRow, draw: (label: (m: number) => string) => T): Promise<T> {
  const name = (p: ProteinSummary) => `${orthid(release.genomeOfEntry(p.entry), p.entry)} ${p.canonicalId}`;
  const inline = family.members;
  if (inline) return draw((m) => name(inline[m]));
  const named = new Set<number>();
  draw((m) => (named.add(m), ""));
  const positions = [...named];
  const summaries = await membersAt(release, family, positions);
  const byPosition = new Map(positions.map((p, k) => [p, summaries[k]]));
  return draw((m) => name(byPosition.get(m)!));
}

/** The family of `focus` drawn on the species tree, its links on this request's origin. */
export function hogPicture(release: Release, links: Links, family: FamilyRow, focus: HogFocus, standalone: boolean): Promise<HogTreePicture> {
  const { taxonomy, genomes } = release.manifest;
  const levelName = taxonomy.names[focus.level];
  const shown = focus.ids.length === 1 ? focus.ids[0] : `${focus.ids.length} HOGs`;
  return withMemberLabels(release, family, (memberLabel) => hogTreeSvg({
    family,
    history: historyOf(family, release),
    taxonomy,
    genomes,
    level: focus.level,
    selected: focus.ids,
    memberLabel,
    links: {
      hog: (id, level) => links.api(`/hog/${segment(id)}/`, { level }),
      protein: (entry) => links.api(`/protein/${entry}/`),
      genome: (code) => links.api(`/genome/${segment(code)}/`),
    },
    standalone,
    title: `${shown} at ${levelName} · family ${family.rootId}${family.description ? ` · ${family.description}` : ""}`,
  }));
}

export function hogPictureRoutes(app: Hono<AppEnv>) {
  getEndpoint(
    app,
    "/api/hog/:hog_id/svg/",
    "HOG Drawing",
    "The HOG's family drawn on the species tree as SVG (its HOGs on every level, duplications, losses, genes per species), the HOG and level in focus highlighted.",
    async (c) => {
      const release = releaseOf(c);
      const asked = levelParam(c, release);
      const { hogId, family, level: alias } = await resolveHog(release, pathParam(c, "hog_id"));
      const focus = hogFocus(release, family, hogId, asked ?? onAliasLevel(alias));
      const picture = await hogPicture(release, linksOf(c), family, focus, true);
      return new Response(picture.svg, { headers: await svgHeaders() });
    },
  );
}
