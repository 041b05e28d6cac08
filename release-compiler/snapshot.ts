/**
 * Snapshots of in-memory state, so that a finished task's outputs can be loaded by the tasks
 * after it, in this process, in a later one (a resumed compile) or on another machine (a
 * Snakemake job). Values are written with V8's own serializer (structured clone), not msgpack:
 * a snapshot is private to one build of the compiler and must give back exactly what was held
 * (Maps, typed arrays, array holes, -0, NaN, undefined), which is what the bytes of the release
 * rest on. V8's serializer holds a whole value in one buffer, so long arrays, big Maps and the
 * fields of plain objects are written as slices of SLICE elements, one frame each, and read
 * back frame by frame: neither side ever holds more than a slice's bytes at once.
 */
import { closeSync, openSync, readSync, writeSync } from "node:fs";
import { deserialize, serialize } from "node:v8";

/** Elements per frame of a long array or Map. */
const SLICE = 1 << 16;

type Header =
  | { kind: "value" }
  | { kind: "array"; length: number }
  | { kind: "map"; size: number }
  | { kind: "object"; keys: string[] };

/** Writes `value` to a new file at `path`. */
export function saveSnapshot(path: string, value: unknown): void {
  const fd = openSync(path, "w");
  const length = Buffer.alloc(4);
  const frame = (bytes: Buffer) => {
    length.writeUInt32LE(bytes.length);
    writeSync(fd, length);
    writeSync(fd, bytes);
  };
  const write = (v: unknown): void => {
    if (Array.isArray(v) && v.length > SLICE) {
      frame(serialize({ kind: "array", length: v.length } satisfies Header));
      for (let at = 0; at < v.length; at += SLICE) frame(serialize(v.slice(at, at + SLICE)));
    } else if (v instanceof Map && v.size > SLICE) {
      frame(serialize({ kind: "map", size: v.size } satisfies Header));
      let slice: unknown[] = [];
      for (const entry of v) {
        slice.push(entry);
        if (slice.length === SLICE) frame(serialize(slice.splice(0)));
      }
      if (slice.length) frame(serialize(slice));
    } else if (v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype) {
      const keys = Object.keys(v);
      frame(serialize({ kind: "object", keys } satisfies Header));
      for (const key of keys) write((v as Record<string, unknown>)[key]);
    } else {
      frame(serialize({ kind: "value" } satisfies Header));
      frame(serialize(v));
    }
  };
  try {
    write(value);
  } finally {
    closeSync(fd);
  }
}

/** Reads back what saveSnapshot wrote. */
export function loadSnapshot<T>(path: string): T {
  const fd = openSync(path, "r");
  const length = Buffer.alloc(4);
  let position = 0;
  const frame = (): unknown => {
    if (readSync(fd, length, 0, 4, position) !== 4) throw new Error(`snapshot ${path}: ends early, at byte ${position}`);
    const bytes = Buffer.alloc(length.readUInt32LE());
    if (readSync(fd, bytes, 0, bytes.length, position + 4) !== bytes.length) throw new Error(`snapshot ${path}: ends early, at byte ${position}`);
    position += 4 + bytes.length;
    return deserialize(bytes);
  };
  const read = (): unknown => {
    const header = frame() as Header;
    switch (header.kind) {
      case "value":
        return frame();
      case "array": {
        const out = new Array<unknown>(header.length);
        for (let at = 0; at < header.length; at += SLICE) {
          // A slice keeps its holes: copy index by index, skipping them.
          const slice = frame() as unknown[];
          for (let i = 0; i < slice.length; i++) if (i in slice) out[at + i] = slice[i];
        }
        return out;
      }
      case "map": {
        const out = new Map<unknown, unknown>();
        while (out.size < header.size) for (const [k, v] of frame() as Array<[unknown, unknown]>) out.set(k, v);
        return out;
      }
      case "object":
        return Object.fromEntries(header.keys.map((key) => [key, read()]));
    }
  };
  try {
    return read() as T;
  } finally {
    closeSync(fd);
  }
}
