/**
 * Path segments of links (src/render/links.ts `segment`): an id that is its own segment is
 * returned as it is, any other escaped as encodeURIComponent escapes it but for `:` and `|`;
 * checked against that definition over ids of every kind, generated.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { linksFor, segment } from "../../src/render/links.js";

/** The definition: escaped, then `:` and `|` given back. */
const escaped = (id: string | number) => encodeURIComponent(String(id)).replace(/%3A/gi, ":").replace(/%7C/gi, "|");

describe("link segments", () => {
  it("are the id itself where it needs no escaping, and escaped as defined otherwise", () => {
    for (const id of [42, "HOG:E0000003.1a.2b", "P12345", "sp|P12345|ABC_HUMAN", "GO:0005737", "a/b", "a b", "50%3A", "?#", "é", "x\u{1F600}y", ""]) {
      expect(segment(id), String(id)).toBe(escaped(id));
    }
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "grapheme" }), fc.stringMatching(/^[A-Za-z0-9:|._%-]{0,20}$/), fc.integer()), (id) => segment(id) === escaped(id)),
      { seed: 56, numRuns: 5_000 },
    );
    expect(segment("HOG:E0000003")).toBe("HOG:E0000003");
  });

  it("carry each query as URLSearchParams writes it, however often the same query recurs in a request", () => {
    const links = linksFor(new Request("https://orth.example/api/hog/?level=Homo%20sapiens"), "");
    const queries: Array<Record<string, string | undefined>> = [
      { level: "Homo sapiens" },
      { level: "Homo sapiens" },
      { level: "a&b=c", other: undefined },
      { a: "1", b: "2" },
      { "a1:": "2" },
      { a: "1:2" },
      { level: "é/?#" },
      {},
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...queries)), fc.dictionary(fc.string(), fc.string()), (list, extra) => {
        for (const query of [...list, extra, extra]) {
          const expected = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => e[1] !== undefined)).toString();
          expect(links.api("/hog/HOG:E1/", query)).toBe(`https://orth.example/api/hog/HOG:E1/${expected ? `?${expected}` : ""}`);
        }
      }),
      { seed: 56, numRuns: 300 },
    );
  });
});
