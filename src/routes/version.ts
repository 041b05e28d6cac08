import type { Hono } from "hono";
import { API_VERSIONS } from "../render/accept.js";
import { getEndpoint } from "./endpoint.js";
import { releaseOf, type AppEnv } from "../context.js";
import { json } from "../render/respond.js";

export function versionRoutes(app: Hono<AppEnv>) {
  getEndpoint(app, "/api/version/", "Version", "The release served and the interface version.", (c) =>
    json(c, { orth_version: releaseOf(c).manifest.name, api_version: API_VERSIONS[API_VERSIONS.length - 1] }),
  );
}
