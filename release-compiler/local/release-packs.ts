/**
 * The packs a compiled release consists of, found by walking its trees from the manifest (so a
 * pack missing from the folder is noticed here, before anything is uploaded): what a loader or
 * publisher must put in the store before the manifest.
 */
import { Unpackr } from "msgpackr";
import { releaseTrees, walkTree } from "../../release-format/directory.js";
import { packKey, type ChunkRef, type DirectoryPage, type ManifestFile } from "../../release-format/format.js";
import { openedHeader } from "../../release-format/header.js";
import type { ReleaseFiles } from "./r2-loader.js";

const unpackr = new Unpackr({ useRecords: true });

export interface ReleasePacks {
  manifestText: string;
  manifest: ManifestFile;
  /** Every pack name, each once: the header's first. */
  packs: string[];
  /** The header chunk's bytes, as read to walk the trees (the current-release pointer carries them). */
  headerBytes: Uint8Array;
}

export async function releasePacks(files: ReleaseFiles): Promise<ReleasePacks> {
  const manifestText = await files.text("manifest.json");
  const manifest = JSON.parse(manifestText) as ManifestFile;
  const held = new Map<string, Uint8Array>();
  const bytesOf = async ([pack, offset, length]: ChunkRef): Promise<Uint8Array> => {
    let bytes = held.get(pack);
    if (!bytes) held.set(pack, (bytes = await files.bytes(packKey(pack))));
    return bytes.subarray(offset, offset + length);
  };
  const read = async (ref: ChunkRef): Promise<unknown> => unpackr.unpack(await bytesOf(ref));
  const packs = new Set<string>([manifest.header[0]]);
  const headerBytes = await bytesOf(manifest.header);
  const header = openedHeader(unpackr.unpack(headerBytes), (what) => new Error(`The release is corrupt: ${what}.`));
  for (const [, tree] of releaseTrees(header)) {
    for (const pack of tree.root.packs) packs.add(pack);
    await walkTree(tree, (ref) => read(ref) as Promise<DirectoryPage>, ([pack]) => packs.add(pack));
    // Page packs are small and data packs are read only for their pages: let them go.
    held.clear();
  }
  return { manifestText, manifest, packs: [...packs], headerBytes };
}
