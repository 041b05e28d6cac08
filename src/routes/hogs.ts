import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { pathParam, linksOf, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { badRequest, notFound } from "../errors.js";
import { segment, type Links } from "../render/links.js";
import { proteinSummary } from "../render/protein.js";
import { paginate } from "../render/pagination.js";
import { fieldNamesFor, json, jsonArrayStream, jsonObjectStream } from "../render/respond.js";
import { MEMBER_SLICE, type FamilyRow, type HogCard, type HogCardRows, type HogListRow } from "../../release-format/format.js";
import { isAncestorOrSelf as isAncestorLevel } from "../../release-format/taxonomy.js";
import { mostAncientFirst } from "../../release-format/hog-levels.js";
import { hogRecordData, impliedHog, isPrefixId, levelsOfId, nodeOnLevel, nodesWithId, relatedOnLevel, type HogRecordData } from "../../release-format/hog-tree.js";
import { memberSlicesByEntry, membersAt } from "../release/family-members.js";
import type { Release } from "../release/release.js";
import { familyOf, findHog, resolveHog } from "../release/resolve.js";

const UNKNOWN_LEVEL = "Invalid or unknown level parameter for this HOG";
const UNKNOWN_LIST_LEVEL = "Invalid or unknown level parameter: give a level name of the taxonomy or a species code.";
const UNKNOWN_COMPARE_WITH = "Invalid or unknown compare_with parameter: give a level name of the taxonomy.";
const NOT_UNIQUE = "hog_id / level combination does not identify a unique HOG.";

export type Level = { root: true } | { root: false; level: number } | undefined;

/** The `level` parameter: absent, `root` (any case), or a level name or species code. */
export function levelParam(c: AppContext, release: Release, unknown = UNKNOWN_LEVEL): Level {
  const raw = c.req.query("level");
  if (raw === undefined) return undefined;
  if (raw.toLowerCase() === "root") return { root: true };
  const level = release.levelByName.get(raw);
  if (level === undefined) throw notFound(unknown);
  return { root: false, level };
}

/** Without a `level` parameter, another tool's HOG id (resolveHog) stands for its HOG on its own level. */
export const onAliasLevel = (level: number | undefined): Level => (level === undefined ? undefined : { root: false, level });

/**
 * A HOG on one level: a node of the family, or an implied HOG (release-format/hog-levels.ts),
 * with its members as positions in the family's member list.
 */
export interface HogAt {
  id: string;
  onLevel: number;
  node: number;
  members: number[];
}

function nodeHog(family: FamilyRow, node: number, onLevel: number): HogAt {
  const { id, lo, hi } = family.nodes[node];
  return { id, onLevel, node, members: Array.from({ length: hi - lo }, (_, k) => lo + k) };
}

/**
 * The HOG a HOG id stands for on a level: its own deepest node without a level, the root
 * with `root`, else its node on that level, on a more ancient level the ancestral HOG
 * containing it, and on a level below its nodes (down to the species) its implied HOG there.
 */
export function hogOnLevel(release: Release, family: FamilyRow, hogId: string, level: Level): HogAt {
  const top = nodesWithId(family, hogId)[0];
  if (!level) return nodeHog(family, top, family.nodes[top].levels[0]);
  if (level.root) return nodeHog(family, 0, family.nodes[0].levels[0]);
  const onLevel = level.level;
  const node = nodesWithId(family, hogId).find((i) => family.nodes[i].levels.includes(onLevel)) ?? nodeOnLevel(family, top, onLevel);
  if (node !== undefined) return nodeHog(family, node, onLevel);
  const implied = impliedHog(family, release, hogId, onLevel);
  if (!implied) throw notFound(NOT_UNIQUE);
  return { id: implied.id, onLevel, node: implied.node, members: implied.members };
}

/** What every record of a family's HOGs says of the family, and the levels of any of its HOG ids. */
interface RecordFamily {
  rootId: string;
  rootHog: number;
  description: string;
  levelsOf(id: string): number[];
}

const familyOfRow = (release: Release, f: FamilyRow): RecordFamily => ({
  rootId: f.rootId,
  rootHog: f.rootHog,
  description: f.description,
  levelsOf: (id) => levelsOfId(f, id, release.manifest.taxonomy),
});

/**
 * The card a request on `level` reads: the id's on its deepest level, the root's for `root`,
 * else the id's level card; from the chunk the HOG id index named for it, where it did.
 */
function cardFor(release: Release, cards: HogCardRows, level: Level): Promise<HogCard> {
  const { tables } = release.manifest;
  if (level?.root) return release.rowIn(tables.hogCards, cards.root, cards.chunks?.root);
  if (level) return release.rowIn(tables.hogLevelCards, cards.card, cards.chunks?.level);
  return release.rowIn(tables.hogCards, cards.card, cards.chunks?.card);
}

/** A HOG card's family, and its records as the tree queries give them (they made the card). */
function cardRecords(card: HogCard): { family: RecordFamily; records: HogRecordData[] } {
  const levels = new Map(card.ids.map(([id, of]) => [id, of]));
  const family = { rootId: card.rootId, rootHog: card.rootHog, description: card.description, levelsOf: (id: string) => levels.get(id) ?? [] };
  const records = card.records.map(([id, level, completeness, parents, children]) => ({
    id: card.ids[id][0],
    level,
    completeness,
    parents: parents.map((k) => card.ids[k][0]),
    children: children.map((k) => card.ids[k][0]),
  }));
  return { family, records };
}

/**
 * The members of a HOG of a family with cards and members in `familyMembers` (hogOnLevel's HOG:
 * on its deepest level, the root's, or a level it has a HOG on), by entry number, read as its
 * run of member rows with no tree. Undefined on another level, or for a HOG of more than
 * MEMBER_SLICE members, which streams from the tree in slices (its answer outweighs the tree).
 */
async function membersFromCards(release: Release, cards: HogCardRows, hogId: string, level: Level) {
  const card = await cardFor(release, cards, level);
  const record = !level || level.root ? card.records[0] : card.records.find(([id, l]) => l === level.level && card.ids[id][0] === hogId);
  if (!record || card.firstMember < 0) return undefined;
  const runs = record[5];
  const positions: number[] = [];
  for (let k = 0; k < runs.length && positions.length <= MEMBER_SLICE; k += 2) for (let p = runs[k]; p < runs[k + 1]; p++) positions.push(p);
  if (positions.length > MEMBER_SLICE) return undefined;
  // From the member chunks the card names (those of its records of up to MEMBER_SLICE members).
  const members = await membersAt(release, { family: card.family, members: null, firstMember: card.firstMember, memberChunks: card.memberChunks }, positions);
  return { id: card.ids[record[0]][0], level: record[1], members: members.sort((a, b) => a.entry - b.entry) };
}

/** The HOG record of one node seen on one level, or of an implied HOG (release-format/hog-tree.ts, hogRecordData). */
function hogRecord(release: Release, links: Links, f: RecordFamily, r: HogRecordData) {
  const names = release.manifest.taxonomy.names;
  const levelName = names[r.level];
  const others = f.levelsOf(r.id).filter((l) => l !== r.level).map((l) => names[l]);
  // A parent or child: its id, level-less URLs and every level of the id.
  const related = (id: string) => ({
    hog_id: id,
    levels_url: links.api(`/hog/${segment(id)}/`),
    members_url: links.api(`/hog/${segment(id)}/members/`),
    alternative_levels: f.levelsOf(id).map((l) => names[l]),
  });
  return {
    hog_id: r.id,
    level: levelName,
    levels_url: links.api(`/hog/${segment(r.id)}/`, { level: levelName }),
    members_url: links.api(`/hog/${segment(r.id)}/members/`, { level: levelName }),
    ...(others.length ? { alternative_levels: others } : {}),
    roothog_id: f.rootHog,
    completeness_score: r.completeness,
    description: f.description,
    similar_profile_hogs: links.api(`/hog/${segment(f.rootId)}/similar_profile_hogs/`),
    parent_hogs: r.parents.map(related),
    children_hogs: r.children.map(related),
  };
}

/**
 * A HOG read from the HOG's cards, in a family that has them: on its deepest level or the
 * root's, or on a level it stands on (its level card lists every HOG the query does). On a
 * level above its own, the level card of the nearest id it extends that stands there: that
 * card lists every HOG on the level related to the ancestor, among them all those related to
 * the id asked, in tree order; the ones related to the id are kept. Undefined for another level
 * (the family's tree answers).
 */
async function fromCards(release: Release, cards: HogCardRows, hogId: string, level: Level) {
  const card = await cardFor(release, cards, level);
  const { family, records } = cardRecords(card);
  if (!level || level.root) return { family, records };
  const onLevel = records.filter((r) => r.level === level.level);
  if (onLevel.length) return { family, records: onLevel };
  let ancestor: HogCard["ids"][number] | undefined;
  for (const named of card.ids) {
    const [id, levels] = named;
    if (id !== hogId && isPrefixId(id, hogId) && levels.includes(level.level) && (!ancestor || id.length > ancestor[0].length)) ancestor = named;
  }
  if (!ancestor) return undefined;
  // The ancestor's level card: in the chunk the card names for it, else in the card's own chunk.
  const [, , row, chunk] = ancestor;
  const above = cardRecords(await release.rowIn(release.manifest.tables.hogLevelCards, row, chunk ?? cards.chunks?.level));
  const related = above.records.filter((r) => r.level === level.level && (isPrefixId(r.id, hogId) || isPrefixId(hogId, r.id)));
  return related.length ? { family: above.family, records: related } : undefined;
}

/**
 * What happened to a HOG of level `level` since the more ancient level `since`: its id
 * already stood there (retained), an ancestor HOG did, across a duplication (duplicated),
 * or its family did not reach that far back (gained).
 */
export function eventSince(release: Release, row: HogListRow, since: number): string {
  const [, , , , , idTop, familyTop] = row;
  if (isAncestorOrSelf(release, idTop, since)) return "retained";
  if (isAncestorOrSelf(release, familyTop, since)) return "duplicated";
  return "gained";
}

function isAncestorOrSelf(release: Release, ancestor: number, level: number): boolean {
  return isAncestorLevel(release.manifest.taxonomy, ancestor, level);
}

export function hogRoutes(app: Hono<AppEnv>) {
  getEndpoint(
    app,
    "/api/hog/",
    "HOG List",
    "Every root HOG, or with level every HOG on that level (compare_with: what happened since a more ancient level).",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const { names } = release.manifest.taxonomy;
      const level = levelParam(c, release, UNKNOWN_LIST_LEVEL);
      const onLevel = level && !level.root ? level.level : undefined;
      const compareWith = c.req.query("compare_with");
      let since: number | undefined;
      if (compareWith !== undefined) {
        if (onLevel === undefined) throw badRequest("compare_with needs a level parameter naming a level of the taxonomy.");
        since = release.levelByName.get(compareWith);
        if (since === undefined) throw notFound(UNKNOWN_COMPARE_WITH);
        if (since === onLevel || !isAncestorOrSelf(release, since, onLevel)) {
          throw badRequest(`compare_with must be a level more ancient than ${names[onLevel]}.`);
        }
      }
      const [first, count] = onLevel === undefined ? release.manifest.hogLists.roots : release.manifest.hogLists.levels[onLevel];
      const page = paginate(links, count);
      const rows = await release.rows(release.manifest.tables.hogList, first + page.from, first + page.to);
      const levelName = onLevel === undefined ? "root" : names[onLevel];
      async function* items() {
        for await (const row of rows) {
          const [id, rootHog, description, completeness, genes] = row;
          yield {
            hog_id: id,
            level: levelName,
            levels_url: links.api(`/hog/${segment(id)}/`, { level: levelName }),
            members_url: links.api(`/hog/${segment(id)}/members/`, { level: levelName }),
            roothog_id: rootHog,
            description,
            similar_profile_hogs: links.api(`/hog/${segment(rootIdOf(id))}/similar_profile_hogs/`),
            ...(onLevel === undefined ? {} : { completeness_score: completeness, nr_genes: genes }),
            ...(since === undefined ? {} : { event: eventSince(release, row, since) }),
          };
        }
      }
      return jsonArrayStream(items(), page.headers, fieldNamesFor(c));
    },
  );

  getEndpoint(
    app,
    "/api/hog/:hog_id/",
    "HOG",
    "A HOG on its deepest level, on the root level, or every related HOG on a given level.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const asked = levelParam(c, release);
      const hog = await findHog(release, pathParam(c, "hog_id"));
      const level = asked ?? onAliasLevel(hog.level);
      const carded = hog.cards && (await fromCards(release, hog.cards, hog.hogId, level));
      if (carded) return json(c, carded.records.map((r) => hogRecord(release, links, carded.family, r)));
      const family = await familyOf(release, hog);
      const f = familyOfRow(release, family);
      if (!level || level.root) {
        const node = level ? 0 : nodesWithId(family, hog.hogId)[0];
        return json(c, [hogRecord(release, links, f, hogRecordData(family, node, family.nodes[node].levels[0]))]);
      }
      return json(c, relatedOnLevel(family, release, hog.hogId, level.level).map((h) => hogRecord(release, links, f, hogRecordData(family, h.node, level.level, h.implied))));
    },
  );

  getEndpoint(
    app,
    "/api/hog/:hog_id/members/",
    "HOG Members",
    "The member proteins of a HOG on a level (by default its deepest level).",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const asked = levelParam(c, release);
      const found = await findHog(release, pathParam(c, "hog_id"));
      const level = asked ?? onAliasLevel(found.level);
      const names = release.manifest.taxonomy.names;
      const carded = found.cards && (await membersFromCards(release, found.cards, found.hogId, level));
      if (carded) {
        const head = { hog_id: carded.id, level: names[carded.level] };
        const items = (async function* () {
          for (const m of carded.members) yield proteinSummary(release, links, m);
        })();
        return jsonObjectStream(head, "members", items, {}, fieldNamesFor(c));
      }
      const family = await familyOf(release, found);
      const hog = hogOnLevel(release, family, found.hogId, level);
      const slices = await memberSlicesByEntry(release, family, hog.members);
      async function* members() {
        for await (const slice of slices) for (const m of slice) yield proteinSummary(release, links, m);
      }
      const head = { hog_id: hog.id, level: names[hog.onLevel] };
      return jsonObjectStream(head, "members", members(), {}, fieldNamesFor(c));
    },
  );

  getEndpoint(
    app,
    "/api/hog/:hog_id/gene_ontology/",
    "HOG Gene Ontology",
    "GO terms of a HOG's members on a level, each with the share of members annotated with it (score).",
    async (c) => {
      const release = releaseOf(c);
      const asked = levelParam(c, release);
      const { hogId, family, level: aliasLevel } = await resolveHog(release, pathParam(c, "hog_id"));
      const level = asked ?? onAliasLevel(aliasLevel);
      const hog = hogOnLevel(release, family, hogId, level);
      const go = await release.row(release.manifest.tables.familyGo, family.family - 1);
      const counts = new Map<number, number>();
      for (const m of hog.members) for (const t of go.members[m]) counts.set(t, (counts.get(t) ?? 0) + 1);
      const size = Math.max(1, hog.members.length);
      const rows = [...counts].map(([t, k]) => {
        const [term, name, aspect, ic] = go.terms[t];
        return { id: hog.id, GO_term: term, name, aspect: ASPECTS[aspect], ic, score: Math.round((k / size) * 1e4) / 1e4 };
      });
      rows.sort((a, b) => (a.aspect < b.aspect ? -1 : a.aspect > b.aspect ? 1 : b.score - a.score || b.ic - a.ic || (a.GO_term < b.GO_term ? -1 : 1)));
      return json(c, rows);
    },
  );

  getEndpoint(
    app,
    "/api/hog/:hog_id/similar_profile_hogs/",
    "Similar Profile HOGs",
    "Root HOGs whose sets of genomes are most like this HOG family's (Jaccard index); max_results 1 to 50, default 10.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const raw = c.req.query("max_results") ?? "10";
      const max = /^[0-9]{1,3}$/.test(raw) ? Number(raw) : 0;
      if (max < 1 || max > 50) throw badRequest("max_results must be positive value <= 50");
      const { family } = await resolveHog(release, pathParam(c, "hog_id"));
      const profile = await release.row(release.manifest.tables.profiles, family.family - 1);
      const { names } = release.manifest.taxonomy;
      const codes = (genomes: number[]) => genomes.map((g) => release.manifest.genomes[g].code);
      const id = family.rootId;
      // The HOG list item of the family's root, whose similar_profile_hogs link becomes the list itself.
      return json(c, {
        hog_id: id,
        level: "root",
        levels_url: links.api(`/hog/${segment(id)}/`, { level: "root" }),
        members_url: links.api(`/hog/${segment(id)}/members/`, { level: "root" }),
        roothog_id: family.rootHog,
        description: family.description,
        in_species: codes(profile.genomes),
        similar_profile_hogs: profile.similar.slice(0, max).map(([, other, jaccard, genomes, levels]) => ({
          hog_id: other,
          levels_url: links.api(`/hog/${segment(other)}/`),
          members_url: links.api(`/hog/${segment(other)}/members/`),
          alternative_levels: mostAncientFirst(levels, release.manifest.taxonomy).map((l) => names[l]),
          in_species: codes(genomes),
          jaccard_similarity: jaccard,
        })),
      });
    },
  );
}

const ASPECTS = { P: "biological_process", F: "molecular_function", C: "cellular_component" } as const;

/** The root HOG id of any HOG id: the id without its sub-HOG suffixes. */
function rootIdOf(id: string): string {
  const dot = id.indexOf(".");
  return dot < 0 ? id : id.slice(0, dot);
}
