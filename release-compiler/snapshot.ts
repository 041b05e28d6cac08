/**
 * Snapshots of in-memory state, so that a finished task's outputs can be loaded by the tasks
 * after it, in this process, in a later one (a resumed compile) or on another machine (a
 * Snakemake job). Values are written with V8's own serializer (structured clone), not msgpack:
 * a snapshot is private to one build of the compiler and must give back exactly what was held
 * (Maps, typed arrays, array holes, -0, NaN, undefined), which is what the bytes of the release
 * rest on. V8's serializer holds a whole value in one buffer, so long arrays, big Maps and the
 * fields of plain objects are written as slices of SLICE elements, one frame each, and read
 * back frame by frame: neither side ever holds more than a slice's bytes at once. Typed arrays
 * (a column a protein, a family table's) are written as their bytes in frames of BYTE_SLICE
 * and read straight into the array made for them: V8's serializer would hold a second copy of
 * each on both sides (at 20 M proteins, a column of 80 MB to 500 MB). Loading is lazy
 * (loadSnapshot): each task reads the fields it uses.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { deserialize, serialize } from "node:v8";
import { BigMap, type BigKey } from "./collections.js";
import { writeFully } from "./files.js";
import { IdIndex, StringColumn } from "./packed-strings.js";

/** Elements per frame of a long array or Map. */
const SLICE = 1 << 16;
/** Bytes per frame of a typed array or a packed column's arrays, written as they are held (not serialized). */
const BYTE_SLICE = 1 << 24;

/**
 * Classes held in typed arrays (packed-strings.ts), which V8's serializer would give back as
 * plain objects: each is written as its arrays' bytes and made again from them.
 */
const PACKED = { IdIndex, StringColumn } as const;
type PackedType = keyof typeof PACKED;
const ARRAYS = { Uint8Array, Int32Array, Uint32Array, Float64Array } as const;
type PackedArray = InstanceType<(typeof ARRAYS)[keyof typeof ARRAYS]>;
/** A packed value's arrays: name, array type, byte length, in the order written. */
type PackedParts = Array<[string, keyof typeof ARRAYS, number]>;

const packedType = (v: unknown): PackedType | undefined => (v instanceof IdIndex ? "IdIndex" : v instanceof StringColumn ? "StringColumn" : undefined);

/** The type of a typed array written as its bytes: one of ARRAYS itself (a Buffer, say, is left to V8's serializer). */
const typedType = (v: unknown): keyof typeof ARRAYS | undefined => {
  const name = ArrayBuffer.isView(v) ? v.constructor.name : "";
  return name in ARRAYS ? (name as keyof typeof ARRAYS) : undefined;
};

/** An array's bytes, as they are held (a view, not a copy). */
const bytesOf = (a: PackedArray): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

/** Its arrays' bytes, and the header that names them. */
function packedParts(type: PackedType, v: IdIndex | StringColumn): [Header, Buffer[]] {
  const arrays = Object.entries(v.parts() as unknown as Record<string, PackedArray>);
  const parts: PackedParts = arrays.map(([name, a]) => {
    const kind = a.constructor.name;
    if (!(kind in ARRAYS)) throw new Error(`snapshot: ${type}'s ${name} is a ${kind}, not one of ${Object.keys(ARRAYS).join(", ")}`);
    return [name, kind as keyof typeof ARRAYS, a.byteLength];
  });
  return [{ kind: "packed", type, parts }, arrays.map(([, a]) => bytesOf(a))];
}

type Header =
  | { kind: "value" }
  | { kind: "array"; length: number }
  | { kind: "map"; size: number }
  | { kind: "bigmap"; size: number }
  | { kind: "packed"; type: PackedType; parts: PackedParts }
  | { kind: "typed"; type: keyof typeof ARRAYS; bytes: number }
  | { kind: "object"; keys: string[] };

/** Writes `value` to a new file at `path`. */
export function saveSnapshot(path: string, value: unknown): void {
  const fd = openSync(path, "w");
  const length = Buffer.alloc(4);
  const frame = (bytes: Buffer) => {
    length.writeUInt32LE(bytes.length);
    writeFully(fd, length);
    writeFully(fd, bytes);
  };
  /** Bytes as they are, in frames of BYTE_SLICE. */
  const frames = (bytes: Buffer) => {
    for (let at = 0; at < bytes.length; at += BYTE_SLICE) frame(bytes.subarray(at, at + BYTE_SLICE));
  };
  const write = (v: unknown): void => {
    const packed = packedType(v);
    const typed = typedType(v);
    if (Array.isArray(v) && v.length > SLICE) {
      frame(serialize({ kind: "array", length: v.length } satisfies Header));
      for (let at = 0; at < v.length; at += SLICE) frame(serialize(v.slice(at, at + SLICE)));
    } else if ((v instanceof Map && v.size > SLICE) || v instanceof BigMap) {
      // A BigMap is read back as one (V8's serializer would give a plain object), at any size.
      frame(serialize(v instanceof BigMap ? ({ kind: "bigmap", size: v.size } satisfies Header) : ({ kind: "map", size: v.size } satisfies Header)));
      let slice: unknown[] = [];
      for (const entry of v) {
        slice.push(entry);
        if (slice.length === SLICE) frame(serialize(slice.splice(0)));
      }
      if (slice.length) frame(serialize(slice));
    } else if (packed) {
      // Its typed arrays' bytes as they are, in frames of BYTE_SLICE.
      const [header, arrays] = packedParts(packed, v as IdIndex | StringColumn);
      frame(serialize(header));
      arrays.forEach(frames);
    } else if (typed) {
      const bytes = bytesOf(v as PackedArray);
      frame(serialize({ kind: "typed", type: typed, bytes: bytes.length } satisfies Header));
      frames(bytes);
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

/** Where an item of a snapshot lies in its file, found by reading headers only. */
type Item =
  | { kind: "value"; at: number }
  | { kind: "array"; at: number; length: number }
  | { kind: "map" | "bigmap"; at: number; size: number }
  | { kind: "packed"; at: number; type: PackedType; parts: PackedParts }
  | { kind: "typed"; at: number; type: keyof typeof ARRAYS; bytes: number }
  | { kind: "object"; fields: Array<[string, Item]> };

/**
 * Reads back what saveSnapshot wrote, lazily: a plain object's fields, at any depth, are read
 * from the file when first used (a getter that then becomes the value), so a task that uses a
 * few columns of the derived release reads those and skips the rest. Spreading an object (or
 * listing its values) reads every field.
 */
export function loadSnapshot<T>(path: string): T {
  const fd = openSync(path, "r");
  try {
    const frames = frameReader(path, fd);
    /** The item at `position` and where the next begins: its header is read, its data frames skipped. */
    const locate = (position: number): [Item, number] => {
      const [header, first] = frames.valueAt(position) as [Header, number];
      let at = first;
      const skip = (count: number) => {
        for (let i = 0; i < count; i++) at += 4 + frames.lengthAt(at);
        return first;
      };
      switch (header.kind) {
        case "value":
          return [{ kind: "value", at: skip(1) }, at];
        case "array":
          return [{ kind: "array", at: skip(Math.ceil(header.length / SLICE)), length: header.length }, at];
        case "map":
        case "bigmap":
          return [{ kind: header.kind, at: skip(Math.ceil(header.size / SLICE)), size: header.size }, at];
        case "packed":
          return [{ ...header, at: skip(header.parts.reduce((n, [, , bytes]) => n + Math.ceil(bytes / BYTE_SLICE), 0)) }, at];
        case "typed":
          return [{ ...header, at: skip(Math.ceil(header.bytes / BYTE_SLICE)) }, at];
        case "object": {
          const fields: Array<[string, Item]> = [];
          for (const key of header.keys) {
            const [item, next] = locate(at);
            fields.push([key, item]);
            at = next;
          }
          return [{ kind: "object", fields }, at];
        }
      }
    };
    return materialize(path, locate(0)[0]) as T;
  } finally {
    closeSync(fd);
  }
}

/** The frames of a snapshot file: a frame's length, and its value with where the next frame begins. */
function frameReader(path: string, fd: number) {
  const length = Buffer.alloc(4);
  const lengthAt = (position: number): number => {
    if (readSync(fd, length, 0, 4, position) !== 4) throw new Error(`snapshot ${path}: ends early, at byte ${position}`);
    return length.readUInt32LE();
  };
  /** Reads the body of the frame at `position` into `into`, as long as it; where the next frame begins. */
  const readInto = (position: number, into: Uint8Array): number => {
    if (readSync(fd, into, 0, into.length, position + 4) !== into.length) throw new Error(`snapshot ${path}: ends early, at byte ${position}`);
    return position + 4 + into.length;
  };
  return {
    lengthAt,
    valueAt(position: number): [unknown, number] {
      const bytes = Buffer.alloc(lengthAt(position));
      const next = readInto(position, bytes);
      return [deserialize(bytes), next];
    },
    /** Reads the frame at `position`, which must be `into`'s length, into it; where the next frame begins. */
    bytesAt(position: number, into: Uint8Array): number {
      const length = lengthAt(position);
      if (length !== into.length) throw new Error(`snapshot ${path}: a frame of ${length} bytes at byte ${position} where ${into.length} were written`);
      return readInto(position, into);
    },
  };
}

/** Makes `object[key]` a getter that computes `read()` on first use and then becomes that value (or whatever is assigned first). */
export function lazyField(object: object, key: string, read: () => unknown): void {
  const become = (value: unknown) => Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  Object.defineProperty(object, key, { enumerable: true, configurable: true, get: () => (become(read()) as Record<string, unknown>)[key], set: become });
}

/** The value of an item: a plain object's fields as getters, read when first used; anything else read now. */
function materialize(path: string, item: Item): unknown {
  if (item.kind === "object") {
    const out = {};
    for (const [key, field] of item.fields) lazyField(out, key, () => materialize(path, field));
    return out;
  }
  const fd = openSync(path, "r");
  try {
    const frames = frameReader(path, fd);
    let position = item.at;
    const frame = (): unknown => {
      const [value, next] = frames.valueAt(position);
      position = next;
      return value;
    };
    /** An array of `type` read from the frames of its `length` bytes. */
    const array = (type: keyof typeof ARRAYS, length: number): PackedArray => {
      const bytes = new Uint8Array(length);
      for (let at = 0; at < length; at += BYTE_SLICE) position = frames.bytesAt(position, bytes.subarray(at, at + BYTE_SLICE));
      return new ARRAYS[type](bytes.buffer);
    };
    switch (item.kind) {
      case "value":
        return frame();
      case "array": {
        const out = new Array<unknown>(item.length);
        for (let at = 0; at < item.length; at += SLICE) {
          // A slice keeps its holes: copy index by index, skipping them.
          const slice = frame() as unknown[];
          for (let i = 0; i < slice.length; i++) if (i in slice) out[at + i] = slice[i];
        }
        return out;
      }
      case "map":
      case "bigmap": {
        const out = item.kind === "map" ? new Map<BigKey, unknown>() : new BigMap<BigKey, unknown>();
        for (let at = 0; at < item.size; at += SLICE) for (const [k, v] of frame() as Array<[BigKey, unknown]>) out.set(k, v);
        return out;
      }
      case "packed": {
        const parts: Record<string, PackedArray> = {};
        for (const [name, type, length] of item.parts) parts[name] = array(type, length);
        return PACKED[item.type].from(parts as never);
      }
      case "typed":
        return array(item.type, item.bytes);
    }
  } finally {
    closeSync(fd);
  }
}
