/** The JSON writer: float fields stay floats when whole, nothing else changes. */
import { describe, expect, it } from "vitest";
import { stringify } from "../../src/render/respond.js";

describe("stringify", () => {
  it("writes whole values of float fields with .0, at any depth", () => {
    const body = [{ score: 105, distance: 5, ic: 0, entry_nr: 42, nested: { completeness_score: 1, fraction: -2 } }];
    expect(stringify(body)).toBe('[{"score":105.0,"distance":5.0,"ic":0.0,"entry_nr":42,"nested":{"completeness_score":1.0,"fraction":-2.0}}]');
    expect(JSON.parse(stringify(body))).toEqual(body);
  });

  it("leaves fractions, nulls, other fields and look-alike strings alone", () => {
    const body = { score: 0.25, distance: null, hits: 3, ic: 1.5e-7, description: "score: 5", name: "\u0001float:7x" };
    expect(stringify(body)).toBe(JSON.stringify(body));
  });
});
