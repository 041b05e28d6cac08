/**
 * The browsable API: a browser (an `Accept` header that prefers `text/html`) gets any JSON
 * answer, errors and streamed lists included, as an HTML page with the same status and
 * headers. API clients (`*\/*`, `application/json`, no `Accept`) and `format=json` get the
 * JSON untouched; non-JSON answers (redirects, CSV, XML, pages) pass through.
 */
import type { MiddlewareHandler } from "hono";
import { replaceResponse, type AppEnv } from "../context.js";
import { prefersHtml } from "../render/accept.js";
import { readCapped } from "../render/capped-body.js";
import { browsablePage, htmlHeaders, statusText, type ShownBody } from "../render/html.js";
import { linksFor } from "../render/links.js";

/** JSON larger than this is not rendered (a page of it would be several times larger). */
export const MAX_RENDERED_JSON = 2 * 1024 * 1024;

/** Headers of the JSON answer that do not describe the HTML page. */
const DROPPED = ["content-type", "content-length", "content-encoding", "content-disposition", "etag"];

const isJson = (type: string | null): boolean => !!type && /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type);

/**
 * The body as the page shows it: parsed JSON, or a notice when it is over the cap (the stream
 * is cancelled there) or cannot be read or parsed.
 */
export async function readShownBody(body: ReadableStream<Uint8Array> | null, declaredLength: string | null, cap = MAX_RENDERED_JSON): Promise<ShownBody> {
  if (!body) return { kind: "text", text: "", note: "The response has no body." };
  if (declaredLength !== null && Number(declaredLength) > cap) {
    await body.cancel().catch(() => {});
    return { kind: "too-large", bytes: Number(declaredLength), cap };
  }
  const read = await readCapped(body, cap);
  if (read.kind === "over") return { kind: "too-large", bytes: read.size, cap };
  const text = new TextDecoder().decode(read.bytes);
  if (read.kind === "broken") return { kind: "text", text, note: "The response was cut short; this is what arrived." };
  try {
    return { kind: "json", value: JSON.parse(text) };
  } catch {
    return { kind: "text", text, note: "The response is not valid JSON." };
  }
}

/** The middleware: registered around every route and error, so the page shows the headers an API client would get. */
export function browsable(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (!isJson(res.headers.get("Content-Type"))) return;
    if (!prefersHtml(c.req.header("Accept")) || c.req.query("format") === "json") return;

    const links = linksFor(c.req.raw, c.var.scope.prefix);
    // HEAD: Hono answers it by running GET and dropping the body; the page need not be built.
    const page =
      c.req.method === "HEAD"
        ? null
        : browsablePage({
            method: c.req.method,
            url: links.self,
            base: links.base,
            status: res.status,
            statusText: res.statusText || statusText(res.status),
            headers: res.headers,
            body: await readShownBody(res.body, res.headers.get("Content-Length")),
          });
    const headers = new Headers(res.headers);
    for (const name of DROPPED) headers.delete(name);
    for (const [name, value] of Object.entries(await htmlHeaders())) headers.set(name, value);
    replaceResponse(c, new Response(page, { status: res.status, headers }));
  };
}
