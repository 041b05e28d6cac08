/**
 * Chunk sizes: a chunk is one range read, so its size trades the bytes a cold answer reads
 * against the entries of the directory pages (FORMAT.md, "Chunk sizes"). Rows are never split:
 * a row larger than its table's target is a chunk of its own.
 */
import { PAGE_ENTRIES, ROOT_ENTRIES, SLOTTED_ROOT_RUNS } from "../../release-format/directory.js";

const KB = 1024;

export const LAYOUT = {
  /**
   * The proteins are a slotted table (release-format/slots.ts) of this many rows a chunk: ~11 kB
   * at ~180 bytes a row, its `beside` pages included (a run's slots are as large as its largest).
   */
  proteinsChunkRows: 64,
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
  /** Mean bytes of a hash index's bucket; a run's slots are as large as its largest bucket (release-format/slots.ts). */
  bucketBytes: 12 * KB,
  /** Entries of a directory page below the root, and of a root at most (release-format/directory.ts). */
  pageEntries: PAGE_ENTRIES,
  rootEntries: ROOT_ENTRIES,
  /** Runs of a slotted tree's root at most (release-format/directory.ts). */
  slottedRootRuns: SLOTTED_ROOT_RUNS,
  /**
   * A family of more members keeps their summaries in the `familyMembers` table, not in its row
   * (FamilyRow): ~110 bytes a summary, so an inline family fits its 16 kB chunk.
   */
  familyInlineMembers: 128,
  /**
   * A family of more tree nodes has HOG cards (release-compiler/derive/hog-cards.ts): its row
   * costs ~40 bytes a node, so a HOG read of a family below this reads at most ~32 kB of tree.
   */
  hogCardsFromNodes: 800,
  hogCardsChunkBytes: 16 * KB,
};
