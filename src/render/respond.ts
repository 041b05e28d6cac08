import type { Context } from "hono";
import { textStream } from "./text-stream.js";
import type { Release } from "../release/release.js";
import { fieldNamesOf, renameJsonKeys, type FieldNames } from "./field-names.js";

const JSON_TYPE = "application/json";

/** Fields the interface types as floats: written `105.0`, not `105`, even when whole. */
const FLOAT_FIELDS = ["distance", "score", "ic", "alignment_score", "completeness_score", "jaccard_similarity", "fraction"];
/**
 * A float field's whole value in JSON text: the key, then digits that end the value. Inside a
 * JSON string every quote is escaped, so `"score":` there is never preceded by a bare quote.
 */
const WHOLE_FLOAT = new RegExp(`"(${FLOAT_FIELDS.join("|")})":(-?[0-9]+)(?=[,}\\]])`, "g");

/**
 * JSON text of a response body, its keys named as the release's profile names them (bodies are
 * built with the orth names; see render/field-names.ts). JavaScript has one number type, so
 * whole values of float fields are given their `.0` in the text (clients in typed languages
 * read them as floats, as the reference's `105.0` shows). One plain JSON.stringify and one
 * pass over its text: a replacer function called on every value was 2.5 times as slow, and a
 * long list is thousands of such bodies.
 */
export function stringify(body: unknown, names: FieldNames = "orth"): string {
  return renameJsonKeys(JSON.stringify(body).replace(WHOLE_FLOAT, '"$1":$2.0'), names);
}

/** The naming profile of the release answering a request (`orth` before a release is opened). */
export const fieldNamesFor = (c: Context): FieldNames => fieldNamesOf((c.get("release") as Release | undefined)?.manifest);

export function json(c: Context, body: unknown, headers: Record<string, string> = {}, status: 200 | 404 = 200): Response {
  return new Response(stringify(body, fieldNamesFor(c)), { status, headers: { ...headers, "Content-Type": JSON_TYPE } });
}

/**
 * A JSON array streamed item by item (render/text-stream.ts), so a page of thousands of
 * proteins never sits in memory as one string. Keys are named as `names` (the release's
 * profile, `fieldNamesFor(c)`) names them.
 */
export function jsonArrayStream(items: AsyncIterable<unknown>, headers: Record<string, string> = {}, names: FieldNames = "orth"): Response {
  return streamedJson("[", items, "]", headers, names);
}

/**
 * A JSON object whose last field, `listKey`, is an array streamed item by item (the members of
 * a HOG of 50,000 genes): the text is that of `json`'s body for the same object.
 */
export function jsonObjectStream(
  head: Record<string, unknown>,
  listKey: string,
  items: AsyncIterable<unknown>,
  headers: Record<string, string> = {},
  names: FieldNames = "orth",
): Response {
  const whole = stringify({ ...head, [listKey]: [] }, names);
  return streamedJson(whole.slice(0, -"]}".length), items, "]}", headers, names);
}

/**
 * Items of a streamed list written by one JSON.stringify and one pass of `stringify`'s over their
 * text: a third less CPU than one item at a time over a page of 5,000 proteins, and a bounded
 * batch (rows of a page are a few hundred bytes to a few kB).
 */
const STREAM_BATCH = 128;

/** `open`, the items comma-separated, `close`: written as the client reads, a batch at a time. */
function streamedJson(open: string, items: AsyncIterable<unknown>, close: string, headers: Record<string, string>, names: FieldNames): Response {
  // A reader that goes away returns this generator, and `for await` returns the items' source.
  async function* pieces(): AsyncIterable<string> {
    let first = true;
    let batch: unknown[] = [];
    // The batch as an array's text without its brackets: the items, comma-separated.
    const written = (): string => {
      const text = stringify(batch, names).slice(1, -1);
      batch = [];
      const piece = (first ? open : ",") + text;
      first = false;
      return piece;
    };
    for await (const item of items) {
      batch.push(item);
      if (batch.length === STREAM_BATCH) yield written();
    }
    if (batch.length) yield written();
    yield first ? open + close : close;
  }
  return new Response(textStream(pieces(), "streamed list"), { headers: { ...headers, "Content-Type": JSON_TYPE } });
}
