import type { Hono } from "hono";
import { API_VERSIONS } from "../render/accept.js";
import { getEndpoint } from "./endpoint.js";
import { releaseOf, type AppEnv } from "../context.js";
import { fieldNamesOf } from "../render/field-names.js";
import { json } from "../render/respond.js";

export function versionRoutes(app: Hono<AppEnv>) {
  getEndpoint(app, "/api/version/", "Version", "The release served, the interface version and the naming profile of its fields.", (c) => {
    const { manifest } = releaseOf(c);
    return json(c, { orth_version: manifest.name, api_version: API_VERSIONS[API_VERSIONS.length - 1], field_names: fieldNamesOf(manifest) });
  });
}
