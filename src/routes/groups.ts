import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { pathParam, linksOf, releaseOf, type AppEnv } from "../context.js";
import { segment } from "../render/links.js";
import { paginate } from "../render/pagination.js";
import { proteinSummary } from "../render/protein.js";
import { fieldNamesFor, json, jsonArrayStream } from "../render/respond.js";
import { resolveGroup } from "../release/resolve.js";

export function groupRoutes(app: Hono<AppEnv>) {
  getEndpoint(app, "/api/group/", "Group List", "All orthologous groups, by group number.", (c) => {
    const links = linksOf(c);
    const page = paginate(links, releaseOf(c).manifest.counts.groups);
    // Made as the client reads: a page of every group holds no more than the item being sent.
    async function* items() {
      for (let nr = page.from + 1; nr <= page.to; nr++) yield { orth_group: nr, group_url: links.api(`/group/${nr}/`) };
    }
    return jsonArrayStream(items(), page.headers, fieldNamesFor(c));
  });

  getEndpoint(
    app,
    "/api/group/:group_id/",
    "Orthologous Group",
    "A group by number, fingerprint, or the entry id of a member.",
    async (c) => {
      const release = releaseOf(c);
      const links = linksOf(c);
      const group = await resolveGroup(release, pathParam(c, "group_id"));
      if (!group) return json(c, {});
      return json(c, {
        group_nr: group.nr,
        fingerprint: group.fingerprint,
        description: group.description,
        related_groups: links.api(`/group/${segment(group.nr)}/close_groups/`),
        members: group.members.map((m) => proteinSummary(release, links, m)),
      });
    },
  );

  getEndpoint(
    app,
    "/api/group/:group_id/close_groups/",
    "Close Groups",
    "Groups that the members' pairwise orthologs fall into, by number of ortholog pairs (hits).",
    async (c) => {
      const links = linksOf(c);
      const group = await resolveGroup(releaseOf(c), pathParam(c, "group_id"));
      if (!group) return json(c, []);
      const page = paginate(links, group.closeGroups.length);
      return json(
        c,
        group.closeGroups.slice(page.from, page.to).map(([nr, hits]) => ({ orth_group: nr, group_url: links.api(`/group/${nr}/`), hits })),
        page.headers,
      );
    },
  );
}
