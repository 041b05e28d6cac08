/**
 * The release header as stored, and as opened. Stored, it is a msgpack map of two fields:
 * `text`, the header as JSON with each tree's root page replaced by its index in `roots`; and
 * `roots`, each root page packed on its own (a msgpack bin, as a chunk of its own would be). Opened,
 * the text is parsed and each root decoded the first time something reads that tree's `root`.
 *
 * Why: a fresh isolate opens the header before its first answer. Decoded whole by msgpackr, in
 * code that has not run yet, the serve benchmark's header (469 kB, 25 genomes) took 3.7–7.2 ms
 * and the 2,500-genome release's (705 kB) 10–15 ms: its roots, and the taxonomy's level names and
 * the genome records, read by msgpackr's JavaScript string and record decoding. Stored this way,
 * 0.65 ms and 4.2–4.6 ms (V8's native JSON.parse; build/tmp measurements, four runs each), and a
 * request decodes the roots of the trees it reads (a protein by entry number: one, ~0.2 ms).
 * The header's hash still covers every byte, roots included: they are checked when it is read.
 */
import { Unpackr } from "msgpackr";
import { releaseTrees } from "./directory.js";
import type { DirectoryPage, ReleaseHeader } from "./format.js";

/** Chunks' decoder (release-compiler/write/packs.ts packs them with the same records option). */
const unpackr = new Unpackr({ useRecords: true });

/** The header as stored: JSON text naming roots by index, and the roots packed. */
interface StoredHeader {
  text: string;
  roots: Uint8Array[];
}

/**
 * The header to store: the JSON text of `header` with its trees' roots packed apart by `pack`
 * (the compiler's chunk encoder). Throws on a value outside the roots that JSON would not give
 * back (bytes, a non-finite number).
 */
export function storedHeader(header: ReleaseHeader, pack: (value: unknown) => Uint8Array): StoredHeader {
  const roots: Uint8Array[] = [];
  const named = new Map<unknown, number>();
  for (const [, tree] of releaseTrees(header)) {
    named.set(tree.root, roots.length);
    roots.push(pack(tree.root));
  }
  // The value as the header holds it (`this[key]`): a Buffer reaches a replacer already turned into an object by its toJSON.
  const text = JSON.stringify(header, function (this: Record<string, unknown>, key, value: unknown) {
    const held = this[key];
    if (key === "root" && named.has(held)) return named.get(held);
    if (ArrayBuffer.isView(held) || (typeof held === "number" && !Number.isFinite(held))) throw new Error(`release header: "${key}" holds ${String(held)}, which JSON does not keep`);
    return value;
  });
  return { text, roots };
}

/**
 * A stored header, decoded (its hash checked), as the header it was made from: each tree's root
 * decoded at its first read. A header that is not text and roots, or a root that is not a packed
 * page, is reported by `corrupt` (the worker's 503) at open; a root that does not decode, at
 * that read.
 */
export function openedHeader(stored: unknown, corrupt: (what: string) => Error): ReleaseHeader {
  const { text, roots } = (stored ?? {}) as Partial<StoredHeader>;
  if (typeof text !== "string" || !Array.isArray(roots)) throw corrupt("the release header is not JSON text and packed roots");
  let header: ReleaseHeader;
  let trees: ReturnType<typeof releaseTrees>;
  try {
    header = JSON.parse(text) as ReleaseHeader;
    trees = releaseTrees(header);
  } catch {
    throw corrupt("the release header's text does not name its tables and indexes");
  }
  for (const [name, tree] of trees) {
    const packed: unknown = roots[tree?.root as unknown as number];
    if (!(packed instanceof Uint8Array)) throw corrupt(`the root of ${name} in the release header is not a packed page`);
    Object.defineProperty(tree, "root", {
      configurable: true,
      enumerable: true,
      get() {
        let page: DirectoryPage;
        try {
          page = unpackr.unpack(packed) as DirectoryPage;
        } catch {
          throw corrupt(`the root of ${name} in the release header does not decode`);
        }
        if (typeof page !== "object" || page === null || !Array.isArray(page.starts)) throw corrupt(`the root of ${name} in the release header is not a directory page`);
        Object.defineProperty(tree, "root", { value: page, enumerable: true, writable: true, configurable: true });
        return page;
      },
    });
  }
  return header;
}
