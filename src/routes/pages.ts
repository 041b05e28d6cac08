/**
 * Pages for people (middleware/pages.ts), one per resource a browser opens: what each reads of
 * the release, handed to its renderer in render/pages/. Each runs after its JSON route has
 * answered 200 for the same request, so ids and parameters are known good; the reads repeat
 * the route's, from the isolate's chunk cache.
 */
import type { Hono } from "hono";
import { eventSince, hogOnLevel, levelParam, onAliasLevel, type HogAt } from "./hogs.js";
import { genesOnPage } from "./genomes.js";
import { hogFocus, hogPicture } from "./hog-pictures.js";
import { relationsOf } from "./relations.js";
import { linksOf, pathParam, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { page } from "../middleware/pages.js";
import { genomeListPage, genomePage, genomeProteinsPage, groupPage } from "../render/pages/genome-pages.js";
import { hogListPage, hogMembersPage, hogPage, type HogRecordLine } from "../render/pages/hog-pages.js";
import { personPage } from "../render/pages/layout.js";
import { proteinCardPage } from "../render/pages/protein-card.js";
import { speciesTreePage } from "../render/pages/species-tree-page.js";
import type { ProteinLine } from "../render/pages/tables.js";
import { paginate } from "../render/pagination.js";
import { speciesTreeSvg } from "../render/pictures/species-tree.js";
import { goItems } from "../render/protein-details.js";
import { lineageNames, orthid } from "../render/protein.js";
import { taxonomyNewick } from "../render/taxonomy.js";
import { segment } from "../render/links.js";
import { annotationRow, proteinGoTerms } from "../release/annotations.js";
import { membersByEntry } from "../release/family-members.js";
import { historyOf, hogSize } from "../release/family-history.js";
import { childIds, levelsOfId, parentIds } from "../../release-format/hog-tree.js";
import type { Release } from "../release/release.js";
import { entryNumber, proteinRow, resolveGenome, resolveGroup, resolveHog } from "../release/resolve.js";
import { resolveTaxonMembers, resolveTaxonRoot, rootLevel, taxonomyTree } from "../release/taxonomy.js";
import { isOrthologType, REL_TYPES, type ProteinSummary } from "../../release-format/format.js";
import { lineage } from "../../release-format/taxonomy.js";
import { xrefsOf } from "../../release-format/xrefs.js";

/** Rows a list page draws; a longer page of the list is cut there with a notice (its JSON has them all). */
const MAX_TABLE_ROWS = 2000;

function proteinLine(release: Release, p: ProteinSummary): ProteinLine {
  const genome = release.genomeOfEntry(p.entry);
  return {
    entry: p.entry,
    orthid: orthid(genome, p.entry),
    canonicalId: p.canonicalId,
    species: genome.species,
    code: genome.code,
    chromosome: p.chromosome,
    locus: p.locus,
    length: p.length,
    hog: p.hog,
    group: p.group,
    isMain: p.isMain,
  };
}

/** The paging headers of the JSON answer the page replaces. */
const answerHeadersOf = (c: AppContext): Headers => c.res.headers;

async function genomeList(c: AppContext): Promise<string> {
  const release = releaseOf(c);
  const links = linksOf(c);
  const pageOf = paginate(links, release.manifest.genomes.length);
  return genomeListPage(links, links.self, release.manifest.genomes.slice(pageOf.from, pageOf.to), answerHeadersOf(c));
}

async function genome(c: AppContext): Promise<string> {
  const release = releaseOf(c);
  const links = linksOf(c);
  const g = resolveGenome(release, pathParam(c, "genome_id"));
  const detail = await release.genomeDetail(g);
  const chromosomes = detail.chromosomes.map((chr) => ({
    id: chr.id,
    proteins: chr.entryRanges.reduce((n, [lo, hi]) => n + hi - lo + 1, 0),
    first: chr.entryRanges[0]?.[0] ?? g.firstEntry,
  }));
  return genomePage(links, links.self, { genome: g, lineage: lineageNames(release, g.level), chromosomes });
}

async function genomeProteins(c: AppContext, genes: boolean): Promise<string> {
  const release = releaseOf(c);
  const links = linksOf(c);
  const g = resolveGenome(release, pathParam(c, "genome_id"));
  const pageOf = paginate(links, genes ? g.nrGenes : g.nrEntries);
  const to = Math.min(pageOf.to, pageOf.from + MAX_TABLE_ROWS);
  let entries: number[];
  if (genes) entries = to > pageOf.from ? genesOnPage(await release.genomeDetail(g), pageOf.from, to) : [];
  else entries = Array.from({ length: to - pageOf.from }, (_, k) => g.firstEntry + pageOf.from + k);
  const lines: ProteinLine[] = [];
  if (entries.length) {
    const wanted = new Set(entries);
    for await (const row of await release.rows(release.manifest.tables.proteins, entries[0] - 1, entries[entries.length - 1])) {
      if (wanted.has(row.entry)) lines.push(proteinLine(release, row));
    }
  }
  const cut = pageOf.to - pageOf.from > MAX_TABLE_ROWS ? pageOf.to - pageOf.from : undefined;
  return genomeProteinsPage(links, links.self, g, genes, lines, answerHeadersOf(c), cut);
}

async function proteinCard(c: AppContext): Promise<string> {
  const release = releaseOf(c);
  const links = linksOf(c);
  const entry = await entryNumber(release, pathParam(c, "entry_id"));
  const [row, sequence, annotations] = await Promise.all([
    proteinRow(release, entry),
    release.rowBeside("sequences", entry, entry - 1),
    annotationRow(release, entry),
    // Read beside the others: relationsOf, below, finds it read.
    release.rowBeside("relations", entry, entry - 1),
  ]);
  const [family, orthologs, terms] = await Promise.all([
    row.family ? release.rowBeside("families", entry, row.family - 1) : undefined,
    relationsOf(release, row, ([, type]) => isOrthologType(type)),
    proteinGoTerms(release, entry),
  ]);
  const genome = release.genomeOfEntry(entry);
  const own = (name: string) => links.api(`/protein/${entry}/${name}/`);
  return proteinCardPage(links, links.self, {
    protein: proteinLine(release, row),
    taxonId: genome.taxonId,
    description: row.description,
    md5: row.md5,
    hogLevels: row.hog ? lineageNames(release, genome.level, row.hogLevelCount).reverse() : [],
    rootHog: family?.rootId ?? "",
    sequence: sequence.sequence,
    cdna: sequence.cdna,
    domains: annotations.domains.map(([source, id, name, start, end]) => ({ source, id, name, start, end })),
    go: goItems(release, row, annotations, terms).map((g) => ({ id: g.GO_term, name: g.name, aspect: g.aspect, evidence: g.evidence, reference: g.reference })),
    orthologs: orthologs.map(({ relation: [, type, distance, score], partner }) => ({ ...proteinLine(release, partner), relType: REL_TYPES[type], distance, score })),
    isoforms: row.isoforms.filter((e) => e !== entry).map((e) => ({ entry: e, orthid: orthid(release.genomeOfEntry(e), e) })),
    xrefs: xrefsOf(row, annotations).map((x) => [x.source, x.id]),
    json: [
      ["protein", links.api(`/protein/${entry}/`)],
      ["orthologs", own("orthologs")],
      ["HOG-derived orthologs", own("hog_derived_orthologs")],
      ["domains", own("domains")],
      ["GO annotations", own("gene_ontology")],
      ["cross-references", own("xref")],
      ["isoforms", own("isoforms")],
    ],
  });
}

async function group(c: AppContext): Promise<string> {
  const release = releaseOf(c);
  const links = linksOf(c);
  const found = await resolveGroup(release, pathParam(c, "group_id"));
  if (!found) {
    return personPage({
      base: links.base,
      url: links.self,
      title: "No orthologous group",
      crumbs: [["Groups", links.api("/group/")], [pathParam(c, "group_id")]],
      heading: "No orthologous group",
      body: `<p class="empty">This protein is in no orthologous group.</p>`,
    });
  }
  return groupPage(links, links.self, {
    nr: found.nr,
    fingerprint: found.fingerprint,
    description: found.description,
    members: found.members.map((m) => proteinLine(release, m)),
  });
}

async function hog(c: AppContext): Promise<string> {
  const release = releaseOf(c);
  const links = linksOf(c);
  const { taxonomy } = release.manifest;
  const asked = levelParam(c, release);
  const id = pathParam(c, "hog_id");
  const { hogId, family, level: alias } = await resolveHog(release, id);
  const level = asked ?? onAliasLevel(alias);
  const focus = hogFocus(release, family, hogId, level);
  const levelName = taxonomy.names[focus.level];
  const picture = await hogPicture(release, links, family, focus, false);
  const onLevel = historyOf(family, release).hogsAt.get(focus.level) ?? [];
  const records: HogRecordLine[] = focus.ids.map((hogIdOn) => {
    const h = onLevel.find((x) => x.id === hogIdOn)!;
    const node = family.nodes[h.node];
    const implied = h.list !== undefined;
    return {
      id: h.id,
      level: levelName,
      genes: hogSize(h),
      completeness: h.completeness ?? node.completeness,
      parents: parentIds(family, h.node),
      children: implied ? [] : childIds(family, h.node),
      otherLevels: levelsOfId(family, h.id, taxonomy).filter((l) => l !== focus.level).map((l) => taxonomy.names[l]),
    };
  });
  let at: HogAt | undefined;
  try {
    at = hogOnLevel(release, family, hogId, level);
  } catch {
    at = undefined; // several HOGs of the id on the level: the records table lists them
  }
  const members = at && (await membersByEntry(release, family, at.members, MAX_TABLE_ROWS)).map((m) => proteinLine(release, m));
  const levelQuery = { level: c.req.query("level") };
  return hogPage(links, links.self, {
    asked: hogId,
    level: levelName,
    rootId: family.rootId,
    description: family.description,
    records,
    picture: picture.svg,
    pictureUrl: links.api(`/hog/${segment(id)}/svg/`, levelQuery),
    members,
    memberCount: at?.members.length,
    json: [
      ["HOG", links.api(`/hog/${segment(id)}/`, levelQuery)],
      ["members", links.api(`/hog/${segment(id)}/members/`, levelQuery)],
      ["GO annotations", links.api(`/hog/${segment(id)}/gene_ontology/`, levelQuery)],
      ["similar profiles", links.api(`/hog/${segment(id)}/similar_profile_hogs/`)],
      ["OrthoXML", links.api(`/hog/${segment(id)}/orthoxml/`)],
      ["drawing (SVG)", links.api(`/hog/${segment(id)}/svg/`, levelQuery)],
    ],
  });
}

async function hogMembers(c: AppContext): Promise<string> {
  const release = releaseOf(c);
  const links = linksOf(c);
  const id = pathParam(c, "hog_id");
  const { hogId, family, level: alias } = await resolveHog(release, id);
  const at = hogOnLevel(release, family, hogId, levelParam(c, release) ?? onAliasLevel(alias));
  const levelName = release.manifest.taxonomy.names[at.onLevel];
  return hogMembersPage(links, links.self, {
    id: at.id,
    level: levelName,
    rootId: family.rootId,
    members: (await membersByEntry(release, family, at.members, MAX_TABLE_ROWS)).map((m) => proteinLine(release, m)),
    memberCount: at.members.length,
    hogUrl: links.api(`/hog/${segment(at.id)}/`, { level: levelName }),
  });
}

async function hogList(c: AppContext): Promise<string> {
  const release = releaseOf(c);
  const links = linksOf(c);
  const { names } = release.manifest.taxonomy;
  const level = levelParam(c, release);
  const onLevel = level && !level.root ? level.level : undefined;
  const compareWith = c.req.query("compare_with");
  const since = compareWith === undefined ? undefined : release.levelByName.get(compareWith);
  const [first, total] = onLevel === undefined ? release.manifest.hogLists.roots : release.manifest.hogLists.levels[onLevel];
  const pageOf = paginate(links, total);
  const to = Math.min(pageOf.to, pageOf.from + MAX_TABLE_ROWS);
  const hogs = [];
  for await (const row of await release.rows(release.manifest.tables.hogList, first + pageOf.from, first + to)) {
    const [id, , description, completeness, genes] = row;
    hogs.push({ id, description, genes, completeness, event: since === undefined ? undefined : eventSince(release, row, since) });
  }
  return hogListPage(links, links.self, { level: onLevel === undefined ? undefined : names[onLevel], compareWith, hogs, headers: answerHeadersOf(c) });
}

async function speciesTree(c: AppContext): Promise<string> {
  const release = releaseOf(c);
  const links = linksOf(c);
  const { taxonomy, genomes, hogLists } = release.manifest;
  const rootId = c.req.param("root_id");
  const root = rootId === undefined ? rootLevel(release) : resolveTaxonRoot(release, rootId);
  const members = resolveTaxonMembers(release, c.req.queries("members") ?? []);
  const tree = taxonomyTree(release, root, members.length ? members : undefined, true);
  const picture = speciesTreeSvg({
    taxonomy,
    genomes,
    root,
    focus: members,
    hogsOn: (l) => hogLists.levels[l]?.[1] ?? 0,
    links: {
      hogs: (level) => links.api("/hog/", { level }),
      genome: (code) => links.api(`/genome/${segment(code)}/`),
      subtree: (level) => links.api(`/taxonomy/${segment(level)}/`),
    },
    title: `The species tree below ${taxonomy.names[root]}`,
  });
  const below = taxonomy.genomes.filter((g, l) => g >= 0 && lineage(taxonomy, l).includes(root)).length;
  return speciesTreePage(links, links.self, {
    rootName: taxonomy.names[root],
    whole: rootId === undefined,
    genomes: below,
    picture: picture.svg,
    newick: taxonomyNewick(release, tree, { leafLabel: "sciname", internalLabel: "sciname", quote: false }),
    above: lineage(taxonomy, root).slice(1).reverse().map((l) => taxonomy.names[l]),
  });
}

/** Registers the pages; before the routes, after the release is opened (src/app.ts). */
export function pageRoutes(app: Hono<AppEnv>) {
  app.use("/api/genome/", page(genomeList));
  app.use("/api/genome/:genome_id/", page(genome));
  app.use("/api/genome/:genome_id/proteins/", page((c) => genomeProteins(c, false)));
  app.use("/api/genome/:genome_id/genes/", page((c) => genomeProteins(c, true)));
  app.use("/api/protein/:entry_id/", page(proteinCard));
  app.use("/api/group/:group_id/", page(group));
  app.use("/api/hog/", page(hogList));
  app.use("/api/hog/:hog_id/", page(hog));
  app.use("/api/hog/:hog_id/members/", page(hogMembers));
  app.use("/api/taxonomy/", page(speciesTree));
  app.use("/api/taxonomy/:root_id/", page(speciesTree));
}
