/**
 * Streamed JSON (src/render/respond.ts): a list written a batch of items at a time gives the
 * bytes `json` gives for the whole value, on each side of the batch's size, with float fields
 * given their `.0` and keys named by either profile. The orthologs of a gene with more than 512
 * partners, and every list page, are answered this way.
 */
import { describe, expect, it } from "vitest";
import { jsonArrayStream, jsonObjectStream, stringify } from "../../src/render/respond.js";
import { FIELD_NAMES } from "../../release-format/format.js";

/** Items like an ortholog answer's: nested objects, a whole and a fractional float, a null. */
const items = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ entry_nr: i + 1, orthid: `HUMAN${String(i + 1).padStart(5, "0")}`, species: { code: "HUMAN", taxon_id: 9606 }, rel_type: "1:1", distance: i % 3 ? i / 7 : 5, score: i % 2 ? null : 100 }));

async function* each<T>(values: T[]) {
  for (const v of values) yield v;
}

describe("streamed JSON", () => {
  it("gives the whole value's bytes, for lists on each side of a batch", async () => {
    for (const names of FIELD_NAMES) {
      for (const n of [0, 1, 127, 128, 129, 256, 300]) {
        const list = items(n);
        expect(await jsonArrayStream(each(list), {}, names).text(), `${names}, ${n} items`).toBe(stringify(list, names));
        const head = { count: n, entry_nr: 7 };
        expect(await jsonObjectStream(head, "members", each(list), {}, names).text(), `${names}, ${n} members`).toBe(stringify({ ...head, members: list }, names));
      }
    }
  });
});
