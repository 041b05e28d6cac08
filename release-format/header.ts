/**
 * The release header as stored, and as opened: every tree's root page is packed on its own, a
 * msgpack bin inside the header, and decoded the first time something reads that tree's `root`.
 *
 * Why: a fresh isolate opens the header before its first answer, and decoding it whole was most
 * of that cost (a 469 kB header of ~20 root pages took 4–7 ms to decode in cold code, against
 * ~1 ms with its roots left packed; the roots grow to ~120 kB each at 20 M proteins). A request
 * decodes the roots of the trees it reads, a protein by entry number one (~0.2 ms). The header's
 * hash still covers every byte, roots included: they are checked when it is read, as before.
 */
import { Unpackr } from "msgpackr";
import { releaseTrees } from "./directory.js";
import type { DirectoryPage, ReleaseHeader } from "./format.js";

/** Chunks' decoder (release-compiler/write/packs.ts packs them with the same records option). */
const unpackr = new Unpackr({ useRecords: true });

/** The header to store: a copy of `header` whose trees' roots are packed by `pack` (the compiler's chunk encoder). */
export function storedHeader(header: ReleaseHeader, pack: (value: unknown) => Uint8Array): unknown {
  const stored = structuredClone(header);
  for (const [, tree] of releaseTrees(stored)) (tree as { root: unknown }).root = pack(tree.root);
  return stored;
}

/**
 * A stored header, decoded (its hash checked), as the header it was made from: each tree's root
 * decoded at its first read. A root that is not a packed page, or does not decode, is reported by
 * `corrupt` (the worker's 503): at open for the first, at that read for the second.
 */
export function openedHeader(stored: unknown, corrupt: (what: string) => Error): ReleaseHeader {
  const header = stored as ReleaseHeader;
  let trees: ReturnType<typeof releaseTrees>;
  try {
    trees = releaseTrees(header);
  } catch {
    throw corrupt("the release header lacks its tables and indexes");
  }
  for (const [name, tree] of trees) {
    const packed: unknown = tree?.root;
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
