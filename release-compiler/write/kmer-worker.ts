/** The worker side of writeSequenceIndex (sequence-index.ts): finds the k-mer postings of each task's proteins. */
import type { TaskServer } from "../workers.js";
import { KMER_CODES, kmerPostings, type KmerPostings, type KmerTask } from "./sequence-index.js";

export const serve: TaskServer<KmerTask, KmerPostings> = () => {
  const lastEntry = new Int32Array(KMER_CODES);
  return (task) => {
    const found = kmerPostings(task, lastEntry);
    return { result: found, transfer: [found.codes.buffer as ArrayBuffer, found.entries.buffer as ArrayBuffer] };
  };
};
