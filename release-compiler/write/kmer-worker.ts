/** The worker side of writeSequenceIndex (sequence-index.ts): counts the k-mers of each task's proteins into the shared counts, and finds their postings in its range of codes. */
import type { TaskServer } from "../workers.js";
import { kmerFinder, type KmerPoolData, type KmerPostings, type KmerTask } from "./sequence-index.js";

export const serve: TaskServer<KmerTask, KmerPostings, KmerPoolData> = (data) => {
  const find = kmerFinder(data);
  return (task) => {
    const found = find(task);
    return { result: found, transfer: [found.packed.buffer as ArrayBuffer] };
  };
};
