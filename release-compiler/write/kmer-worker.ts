/** A worker thread of writeSequenceIndex (sequence-index.ts): finds the k-mer postings of each task's proteins. */
import { serveTasks } from "../workers.js";
import { KMER_CODES, kmerPostings, type KmerPostings, type KmerTask } from "./sequence-index.js";

const lastEntry = new Int32Array(KMER_CODES);

serveTasks<KmerTask, KmerPostings>((task) => {
  const found = kmerPostings(task, lastEntry);
  return { result: found, transfer: [found.codes.buffer as ArrayBuffer, found.entries.buffer as ArrayBuffer] };
});
