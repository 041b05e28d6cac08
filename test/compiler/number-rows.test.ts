/**
 * Rows of numbers encoded by hand (release-compiler/write/number-rows.ts) are the bytes msgpackr
 * gives the same shards (packChunk), number for number: every width and sign of integer, the
 * values msgpackr treats apart with records on (0x40–0x7f), -0, fractions, integers beyond 32
 * bits, NaN as nil; and they are cut into the chunks chunkCutter cuts with the same estimates.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HEADER_BYTES, NUMBER_BYTES, NumberRowChunks, NumberWriter } from "../../release-compiler/write/number-rows.js";
import { packChunk } from "../../release-compiler/write/packs.js";
import { chunkCutter } from "../../release-compiler/write/tables.js";

const EDGES = [0, -0, 1, 0x1f, 0x20, 0x3f, 0x40, 0x7f, 0x80, 0xff, 0x100, 0xffff, 0x10000, 2 ** 31 - 1, 2 ** 32 - 1, 2 ** 32, 2 ** 53, -1, -0x20, -0x21, -0x80, -0x81, -0x8000, -0x8001, -(2 ** 31), -(2 ** 31) - 1, 0.5, -2.75, 1e-300, 1e300, Number.MAX_VALUE, Infinity, -Infinity, NaN];

const number = fc.oneof(fc.constantFrom(...EDGES), fc.integer(), fc.integer({ min: -300, max: 300 }), fc.double());
const asPacked = (value: number) => (Number.isNaN(value) ? null : value);

describe("number rows", () => {
  it("encode each number as msgpackr does, NaN as nil", () => {
    for (const value of EDGES) {
      const out = new NumberWriter();
      out.reserve(HEADER_BYTES + NUMBER_BYTES);
      out.array(1);
      out.numberOrNull(value);
      expect([...out.values.subarray(0, out.length)], String(value)).toEqual([...packChunk([asPacked(value)])]);
    }
    fc.assert(
      fc.property(fc.array(number, { maxLength: 40 }), (values) => {
        const out = new NumberWriter();
        out.reserve(HEADER_BYTES + values.length * NUMBER_BYTES);
        out.array(values.length);
        for (const value of values) out.numberOrNull(value);
        expect(Buffer.from(out.values.subarray(0, out.length))).toEqual(Buffer.from(packChunk(values.map(asPacked))));
      }),
    );
  });

  it("write the chunks packChunk writes, cut where chunkCutter cuts with the same estimates", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.array(number, { minLength: 1, maxLength: 5 }), { maxLength: 20 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 3_000_000 }),
        fc.integer({ min: 1, max: 400 }),
        (rows, firstRow, chunkBytes) => {
          const estimate = (row: unknown[]) => 2 + row.length * 10;
          const expected: Array<[number, Uint8Array]> = [];
          const cutter = chunkCutter<Array<Array<number | null>>>((shard) => expected.push([shard.firstRow, packChunk(shard).slice()]), chunkBytes, estimate, undefined, firstRow);
          const found: Array<[number, Uint8Array]> = [];
          const chunks = new NumberRowChunks((first, bytes) => found.push([first, bytes]), chunkBytes, firstRow);
          for (const row of rows) {
            cutter.push(row.map((items) => items.map(asPacked)));
            const most = HEADER_BYTES + row.reduce((n, items) => n + HEADER_BYTES + items.length * NUMBER_BYTES, 0);
            const out = chunks.begin(estimate(row), most);
            out.array(row.length);
            for (const items of row) {
              out.array(items.length);
              for (const value of items) out.numberOrNull(value);
            }
            chunks.end();
          }
          cutter.flush();
          chunks.flush();
          expect(found.map(([first, bytes]) => [first, Buffer.from(bytes)])).toEqual(expected.map(([first, bytes]) => [first, Buffer.from(bytes)]));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("grow past their first buffer and keep every byte", () => {
    const values = Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? i * 1.5 : i * 977));
    const out = new NumberWriter();
    out.array(values.length);
    for (const [i, value] of values.entries()) {
      if (i % 100 === 0) out.reserve(100 * NUMBER_BYTES);
      out.numberOrNull(value);
    }
    expect(Buffer.from(out.values.subarray(0, out.length))).toEqual(Buffer.from(packChunk(values)));
  });

  it("refuse a row that writes past the bytes it reserved", () => {
    const chunks = new NumberRowChunks(() => {}, 1000, 0);
    const out = chunks.begin(10, HEADER_BYTES + NUMBER_BYTES);
    out.array(2);
    out.numberOrNull(0.5);
    out.numberOrNull(0.25);
    expect(() => chunks.end()).toThrow(/wrote 19 bytes, more than the 14 it reserved/);
  });
});
