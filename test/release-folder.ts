/**
 * Reading a compiled test release from its folder, as the worker reads it (manifest, header,
 * chunks checked against their hashes): for tests that compare answers with the release's own
 * rows, without a server in between.
 */
import { openReleaseFolder } from "../release-compiler/local/folder-storage.js";
import type { Manifest, TableRef } from "../release-format/format.js";

/** The opened manifest (manifest file and header) of a compiled release folder. */
export async function openedManifest(dir: string): Promise<Manifest> {
  return (await openReleaseFolder(dir)).manifest;
}

/** Every row of one table of a compiled release folder, in row order. */
export async function allRows<Row>(dir: string, table: (manifest: Manifest) => TableRef<Row> | undefined): Promise<Row[]> {
  const release = await openReleaseFolder(dir);
  const ref = table(release.manifest);
  if (!ref) return [];
  const out: Row[] = [];
  for await (const row of await release.rows(ref, 0, ref.rows)) out.push(row);
  return out;
}
