/**
 * How a route registers itself: its method, an `OPTIONS` answer describing it (which CORS
 * preflights read), and 405 with `Allow` for every other method.
 */
import type { Handler, Hono } from "hono";
import type { AppEnv } from "../context.js";
import { ApiError } from "../errors.js";

export const GET_ALLOW = "GET, HEAD, OPTIONS";
export const POST_ALLOW = "POST, OPTIONS";
/** Paths of each app that allow other methods than GET_ALLOW (POST endpoints, SOAP). */
const allows = new WeakMap<Hono<AppEnv>, Map<string, string>>();

/** Declares the methods a path allows: its answers, errors included, say so in `Allow`. */
export function declareAllow(app: Hono<AppEnv>, path: string, allow: string): void {
  let paths = allows.get(app);
  if (!paths) allows.set(app, (paths = new Map()));
  paths.set(path, allow);
}

/** The methods a path of this app allows (the `Allow` of an answer that does not set its own). */
export const allowedMethods =
  (app: Hono<AppEnv>) =>
  (path: string): string =>
    allows.get(app)?.get(path) ?? GET_ALLOW;

const describe = (name: string, description: string) => ({ name, description, renders: ["application/json", "text/html"], parses: ["application/json"] });

/** A read endpoint: GET (HEAD follows from it), OPTIONS describing it, 405 for the rest. */
export function getEndpoint(app: Hono<AppEnv>, path: string, name: string, description: string, handler: Handler<AppEnv>) {
  app.get(path, handler);
  app.options(path, (c) => c.json(describe(name, description), 200, { Allow: GET_ALLOW }));
  app.on(["POST", "PUT", "PATCH", "DELETE"], path, (c) => {
    throw new ApiError(405, `Method "${c.req.method}" not allowed.`);
  });
}

/**
 * An endpoint that takes a POST body (at each of `paths`): POST, OPTIONS describing it, and
 * 405 for the read methods and the others; every answer carries `Allow: POST, OPTIONS`.
 */
export function postEndpoint(app: Hono<AppEnv>, paths: string[], name: string, description: string, handler: Handler<AppEnv>) {
  for (const path of paths) {
    declareAllow(app, path, POST_ALLOW);
    app.post(path, handler);
    app.options(path, (c) => c.json(describe(name, description), 200, { Allow: POST_ALLOW }));
    app.on(["GET", "PUT", "PATCH", "DELETE"], path, (c) => {
      throw new ApiError(405, `Method "${c.req.method}" not allowed.`);
    });
  }
}
