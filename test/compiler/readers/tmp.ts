/** Small broken inputs for the reader tests, written to a fresh temporary folder. */
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { Problems } from "../../../release-compiler/problems.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "readers-test-"));
let counter = 0;

/** Writes `content` to a new temp file and returns its path. */
export function tempFile(name: string, content: string | Buffer, options: { gzip?: boolean } = {}): string {
  const file = path.join(dir, `${++counter}-${name}`);
  writeFileSync(file, options.gzip ? gzipSync(content) : content);
  return file;
}

/** A temp folder shared by one test file. */
export function tempDir(): string {
  return mkdtempSync(path.join(dir, "d-"));
}

/** `line: message` of every problem, for compact exact assertions. */
export function messages(problems: Problems): string[] {
  return problems.list.map((p) => `${p.line}: ${p.message}`);
}

export async function collect<T>(gen: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of gen) out.push(x);
  return out;
}

export { Problems };
