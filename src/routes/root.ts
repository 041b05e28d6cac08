import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { linksOf, type AppEnv } from "../context.js";
import { json } from "../render/respond.js";

/** The resources `GET /api/` lists, each with its list URL. */
const RESOURCES = ["protein", "group", "version", "xref", "genome", "hog", "taxonomy", "synteny"];

export function rootRoutes(app: Hono<AppEnv>) {
  getEndpoint(app, "/api/", "Api Root", "The resources of the interface and their list URLs.", (c) => {
    const links = linksOf(c);
    return json(c, Object.fromEntries(RESOURCES.map((name) => [name, links.api(`/${name}/`)])));
  });
}
