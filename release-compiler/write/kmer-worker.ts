/** The worker side of writeSequenceIndex (sequence-index.ts): finds the k-mer postings of each task's proteins in its range of codes. */
import type { TaskServer } from "../workers.js";
import { kmerFinder, type KmerPostings, type KmerTask } from "./sequence-index.js";

export const serve: TaskServer<KmerTask, KmerPostings> = () => {
  const find = kmerFinder();
  return (task) => {
    const found = find(task);
    return { result: found, transfer: [found.codes.buffer as ArrayBuffer, found.entries.buffer as ArrayBuffer] };
  };
};
