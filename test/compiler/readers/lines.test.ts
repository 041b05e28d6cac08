import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readLineBatches, readLines } from "../../../release-compiler/readers/lines.js";
import { collect, messages, Problems, tempFile } from "./tmp.js";

describe("readLines", () => {
  it("streams lines with 1-based numbers and strips \\r", async () => {
    const file = tempFile("a.txt", "one\r\ntwo\n\nfour");
    expect(await collect(readLines(file))).toEqual([
      { text: "one", lineNo: 1 },
      { text: "two", lineNo: 2 },
      { text: "", lineNo: 3 },
      { text: "four", lineNo: 4 },
    ]);
  });

  it("cuts lines as node:readline does, wherever the chunks of the stream end", async () => {
    const { createInterface } = await import("node:readline");
    const { Readable } = await import("node:stream");
    const texts = ["a\r\nb\rc\n\r\n\n", "\r", "\n", "x\r", "\r\r\n\n", "é\n€\r\nlast", "", "no terminator", "\n\n"];
    // A file is read in chunks of 64 KiB: texts whose first chunk ends inside \r\n, after a lone \r, and inside lines.
    const chunk = 64 * 1024;
    texts.push(`${"x".repeat(chunk - 1)}\r\ny\n`, `${"x".repeat(chunk - 1)}\rz\n`, `${"x".repeat(chunk - 1)}\r\r\n`);
    texts.push(Array.from({ length: 40_000 }, (_, i) => `line ${i}${["\n", "\r\n", "\r"][i % 3]}`).join(""));
    for (const text of texts) {
      const lines = (await collect(readLines(tempFile("cut.txt", text)))).map((l) => l.text);
      const byReadline: string[] = [];
      for await (const line of createInterface({ input: Readable.from([text]), crlfDelay: Infinity })) byReadline.push(line);
      expect(lines, JSON.stringify(text.slice(0, 40))).toEqual(byReadline);
    }
  });

  it("gives the same lines a chunk at a time (readLineBatches), numbered on from batch to batch", async () => {
    const file = tempFile("many.txt", Array.from({ length: 40_000 }, (_, i) => `line ${i}${["\n", "\r\n", "\r"][i % 3]}`).join("") + "last");
    const batches = await collect(readLineBatches(file));
    expect(batches.length, "more than one chunk").toBeGreaterThan(1);
    const numbered = batches.flatMap(({ lines, firstLineNo }) => lines.map((text, i) => ({ text, lineNo: firstLineNo + i })));
    expect(numbered).toEqual(await collect(readLines(file)));
    expect(numbered.at(-1)).toEqual({ text: "last", lineNo: 40_001 });
  });

  it("tells a bar the bytes of the file read, up to its size, compressed for a gzip file", async () => {
    const text = Array.from({ length: 40_000 }, (_, i) => `P${i}\tQ${i}`).join("\n");
    for (const gzip of [false, true]) {
      const file = tempFile("pairs.tsv", text, { gzip });
      const seen: number[] = [];
      expect(await collect(readLines(file, undefined, undefined, (bytes) => seen.push(bytes)))).toHaveLength(40_000);
      expect(seen.length, "after each chunk").toBeGreaterThan(1);
      expect(seen, "growing").toEqual([...seen].sort((a, b) => a - b));
      expect(seen.at(-1), gzip ? "gzip" : "plain").toBe(statSync(file).size);
    }
  });

  it("gunzips by content, whatever the extension", async () => {
    const file = tempFile("looks-plain.txt", "alpha\nbeta\n", { gzip: true });
    expect((await collect(readLines(file))).map((l) => l.text)).toEqual(["alpha", "beta"]);
  });

  it("throws on a missing file without a collector, reports it with one", async () => {
    await expect(collect(readLines("/nonexistent/x.txt"))).rejects.toThrow(/ENOENT/);
    const problems = new Problems();
    expect(await collect(readLines("/nonexistent/x.txt", problems))).toEqual([]);
    expect(problems.list).toEqual([{ file: "/nonexistent/x.txt", line: 0, message: "file not found" }]);
  });

  it("reports a truncated gzip file after the last good line", async () => {
    const full = tempFile("full.gz", "x\n".repeat(50_000), { gzip: true });
    const { readFileSync } = await import("node:fs");
    const bytes = readFileSync(full);
    const cut = tempFile("cut.gz", bytes.subarray(0, Math.floor(bytes.length / 2)));
    const problems = new Problems();
    const lines = await collect(readLines(cut, problems));
    expect(lines.length).toBeLessThan(50_000);
    expect(messages(problems)).toHaveLength(1);
    expect(problems.list[0].line).toBe(lines.length + 1);
    expect(problems.list[0].message).toMatch(/^gzip data is truncated or corrupt/);
  });

  it("reports a binary file (NUL bytes) once, for the whole file, before any line", async () => {
    const file = tempFile("image.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]));
    const problems = new Problems();
    expect(await collect(readLines(file, problems))).toEqual([]);
    expect(messages(problems)).toEqual(["0: binary file (it contains NUL bytes), expected text"]);
    await expect(collect(readLines(file))).rejects.toThrow(/binary file/);
  });

  it("tells whether the last line lacks its terminator", async () => {
    for (const [text, unterminated] of [["a\nb\n", false], ["a\nb", true], ["a\r\n", false], ["", false]] as const) {
      const end = { unterminated: !unterminated };
      await collect(readLines(tempFile("t.txt", text, { gzip: text === "a\nb" }), new Problems(), end));
      expect(end.unterminated, JSON.stringify(text)).toBe(unterminated);
    }
  });
});
