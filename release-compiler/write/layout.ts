/**
 * Chunk sizes: a chunk is one range read, so its size trades the bytes a cold answer reads
 * against the entries of the directory pages (FORMAT.md, "Chunk sizes"). Rows are never split:
 * a row larger than its table's target is a chunk of its own.
 */
import { PAGE_ENTRIES, ROOT_ENTRIES } from "../../release-format/directory.js";

const KB = 1024;

export const LAYOUT = {
  proteinsChunkBytes: 16 * KB,
  sequencesChunkBytes: 16 * KB,
  groupsChunkBytes: 16 * KB,
  familiesChunkBytes: 16 * KB,
  familyMembersChunkBytes: 16 * KB,
  annotationsChunkBytes: 16 * KB,
  relationsChunkBytes: 16 * KB,
  pairsChunkBytes: 32 * KB,
  pairDirectoryChunkBytes: 16 * KB,
  hogListChunkBytes: 16 * KB,
  profilesChunkBytes: 16 * KB,
  familyGoChunkBytes: 16 * KB,
  peptidesChunkBytes: 16 * KB,
  geneTreesChunkBytes: 16 * KB,
  genomeDetailsChunkBytes: 16 * KB,
  leafBytes: 16 * KB,
  /** Entries of a directory page below the root, and of a root at most (release-format/directory.ts). */
  pageEntries: PAGE_ENTRIES,
  rootEntries: ROOT_ENTRIES,
  /**
   * A family of more members keeps their summaries in the `familyMembers` table, not in its row
   * (FamilyRow): ~110 bytes a summary, so an inline family fits its 16 kB chunk.
   */
  familyInlineMembers: 128,
};
