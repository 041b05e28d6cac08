/**
 * Group fingerprints: a 7-letter peptide per group that every member contains and no other
 * protein does (OMA's fingerprints, the groups' key for a peptide lookup).
 *
 * Two passes over the sequences, each spread over `jobs` worker threads (fingerprint-worker.ts)
 * when there are several: a group's candidates are the peptides common to all its members (a
 * task per batch of groups, its members' sequences sent with it), then every protein is
 * scanned for the candidates (a task per run of entries), each worker counting into one shared
 * table with atomic adds. Counts are sums, so the fingerprints are the same at any `jobs`.
 */
import { KMER_ALPHABET } from "../../release-format/format.js";
import { kmerCodes } from "../../release-format/kmers.js";
import { runTasksInOrder } from "../workers.js";
import { listMembers, type EntryLists } from "./entry-lists.js";

const FINGERPRINT_LENGTH = 7;
const CANDIDATES_PER_GROUP = 64;
/** Residues in code order: a 7-mer's code is its base-20 reading (below 2^31), X and odd letters never in one. */
const RESIDUES = KMER_ALPHABET;
/** Groups whose candidates one task finds. */
const GROUPS_PER_TASK = 2048;
/** Proteins one counting task scans. */
const ENTRIES_PER_TASK = 8192;
/**
 * The filter that skips the table lookup of peptides that are no candidate counted: bits per
 * counted candidate (1 in 16 of the other peptides gets past it), a power of two between these bounds.
 * Sized to the candidates, it stays in the core's cache where a fixed 8 MB did not.
 */
const FILTER_BITS_PER_CANDIDATE = 16;
const MIN_FILTER_BITS = 1 << 16;
const MAX_FILTER_BITS = 1 << 26;

/** The 7-mers of standard residues of one sequence at a time, by their rolling base-20 codes, in a buffer reused from sequence to sequence. */
class Peptides {
  codes = new Int32Array(4096);
  /** Reads a sequence's peptides into `codes`: returns how many. */
  read(sequence: string): number {
    if (this.codes.length < sequence.length) this.codes = new Int32Array(2 * sequence.length);
    return kmerCodes(sequence, this.codes, FINGERPRINT_LENGTH);
  }
}

function peptideOf(code: number): string {
  let s = "";
  for (let k = 0; k < FINGERPRINT_LENGTH; k++, code = Math.floor(code / 20)) s = RESIDUES[code % 20] + s;
  return s;
}

/** A batch of groups: each group's members' sequences, first member first. */
export interface CandidateTask {
  groups: string[][];
}

/** The candidates of a batch's groups: `counts[g]` codes each, one after another in `codes`. */
export interface Candidates {
  codes: Int32Array;
  counts: Int32Array;
}

/**
 * A group's candidates: the peptides of its first member's sequence, in order, that every
 * member contains (at most CANDIDATES_PER_GROUP).
 */
export function groupCandidates({ groups }: CandidateTask): Candidates {
  const codes: number[] = [];
  const counts = new Int32Array(groups.length);
  const first = new DistinctKmers();
  const peptides = new Peptides();
  groups.forEach((sequences, g) => {
    first.reset(sequences[0].length);
    for (let p = 0, n = peptides.read(sequences[0]); p < n; p++) first.add(peptides.codes[p]);
    // held[i] = m once members 1 … m (after the first) all hold peptide i; `common` counts those at the last member read.
    const held = new Int32Array(first.length);
    let members = 1;
    let common = first.length;
    for (; members < sequences.length && common > 0; members++) {
      let alive = 0;
      for (let p = 0, n = peptides.read(sequences[members]); p < n; p++) {
        const i = first.indexOf(peptides.codes[p]);
        if (i >= 0 && held[i] === members - 1) {
          held[i] = members;
          alive++;
        }
      }
      common = alive;
    }
    let kept = 0;
    for (let i = 0; common > 0 && i < first.length && kept < CANDIDATES_PER_GROUP; i++) {
      if (held[i] === members - 1) {
        codes.push(first.codes[i]);
        kept++;
      }
    }
    counts[g] = kept;
  });
  return { codes: Int32Array.from(codes), counts };
}

/**
 * The distinct peptides of one sequence at a time (a group's first member), in the order they
 * first occur, each with its index in that order: an open-addressing table of typed arrays
 * reused from group to group, each a new generation of stamps so nothing is cleared between
 * them. A Set a member cost several times as much in allocation and collection, and this loop
 * sees every peptide of every grouped protein.
 */
class DistinctKmers {
  /** The distinct codes of the current sequence, first occurrence first (`length` of them). */
  codes = new Int32Array(1024);
  length = 0;
  private keys = new Int32Array(2048);
  private index = new Int32Array(2048);
  private stamp = new Int32Array(2048);
  private generation = 0;

  /** Starts a sequence of at most `kmers` k-mers. */
  reset(kmers: number): void {
    if (kmers * 2 > this.keys.length) {
      let size = this.keys.length;
      while (size < kmers * 2) size *= 2;
      this.keys = new Int32Array(size);
      this.index = new Int32Array(size);
      this.stamp = new Int32Array(size);
      this.codes = new Int32Array(size / 2);
      this.generation = 0;
    }
    this.generation++;
    this.length = 0;
  }

  /** Adds a k-mer: false if the sequence had it already. */
  add(code: number): boolean {
    const slot = this.slotOf(code);
    if (this.stamp[slot] === this.generation) return false;
    this.stamp[slot] = this.generation;
    this.keys[slot] = code;
    this.index[slot] = this.length;
    this.codes[this.length++] = code;
    return true;
  }

  /** A k-mer's index among the sequence's distinct ones, or -1. */
  indexOf(code: number): number {
    const slot = this.slotOf(code);
    return this.stamp[slot] === this.generation ? this.index[slot] : -1;
  }

  private slotOf(code: number): number {
    const mask = this.keys.length - 1;
    let i = (Math.imul(code, 0x9e3779b1) >>> 0) & mask;
    while (this.stamp[i] === this.generation && this.keys[i] !== code) i = (i + 1) & mask;
    return i;
  }
}

/**
 * The candidates of one group each in an open-addressing table (typed arrays: a large release
 * has millions; Maps of them cost ten times as much), and the proteins counted for each; a
 * candidate of several groups is no group's fingerprint, so it is not counted at all. Its arrays
 * are SharedArrayBuffers, so every counting worker reads the one table and adds to its counts.
 */
export interface CandidateTable {
  /** Per slot: the candidate code, or -1 for an empty slot. */
  slots: Int32Array;
  /** Per slot: proteins holding the code. */
  counts: Int32Array;
  /** One bit per code modulo its bits (a power of two): set for the candidates' codes. */
  filter: Uint8Array;
}

function candidateTable(batches: Int32Array[]): CandidateTable {
  const all = new Int32Array(batches.reduce((n, codes) => n + codes.length, 0));
  let at = 0;
  for (const codes of batches) {
    all.set(codes, at);
    at += codes.length;
  }
  all.sort();
  // Only a candidate of one group can be unique to it: groups are disjoint, and every member of
  // a group holds its candidates, so a code two groups share is held beyond either.
  const single: number[] = [];
  for (let i = 0; i < all.length; ) {
    let j = i + 1;
    while (j < all.length && all[j] === all[i]) j++;
    if (j === i + 1) single.push(all[i]);
    i = j;
  }
  let size = 1024;
  while (size < single.length * 2) size *= 2;
  let filterBits = MIN_FILTER_BITS;
  while (filterBits < single.length * FILTER_BITS_PER_CANDIDATE && filterBits < MAX_FILTER_BITS) filterBits *= 2;
  const table: CandidateTable = {
    slots: new Int32Array(new SharedArrayBuffer(size * 4)).fill(-1),
    counts: new Int32Array(new SharedArrayBuffer(size * 4)),
    filter: new Uint8Array(new SharedArrayBuffer(filterBits / 8)),
  };
  const mask = filterBits - 1;
  for (const code of single) {
    table.slots[slotOf(table.slots, code)] = code;
    const bit = code & mask;
    table.filter[bit >> 3] |= 1 << (bit & 7);
  }
  return table;
}

/** The slot of a code (codes are below 20^7 < 2^31), or the empty slot where it would go. */
function slotOf(slots: Int32Array, code: number): number {
  const mask = slots.length - 1;
  let i = firstSlot(code, mask);
  while (slots[i] !== -1 && slots[i] !== code) i = (i + 1) & mask;
  return i;
}

const firstSlot = (code: number, mask: number) => Math.imul(code, 0x9e3779b1) & mask;

/** A run of proteins to scan: entries firstEntry, firstEntry + 1, … */
export interface CountTask {
  firstEntry: number;
  sequences: string[];
}

/**
 * A counting worker's own copy of the table's slots, each code beside the last protein counted
 * for it (`[code, last entry]` per slot), so that a hit costs one cache line of this copy and one
 * of the shared counts, not three arrays' worth.
 */
export function countingSlots(table: CandidateTable): Int32Array {
  const own = new Int32Array(table.slots.length * 2);
  for (let i = 0; i < table.slots.length; i++) own[2 * i] = table.slots[i];
  return own;
}

/**
 * Counts each protein of the task once for every candidate it holds, into the shared table.
 * `own` (countingSlots, kept by the caller across its tasks) remembers the last protein counted
 * per slot; tasks never share an entry, so a protein is counted once.
 */
export function countCandidates({ firstEntry, sequences }: CountTask, table: CandidateTable, own: Int32Array): void {
  const { counts, filter } = table;
  const mask = filter.length * 8 - 1;
  const slotMask = counts.length - 1;
  const peptides = new Peptides();
  sequences.forEach((sequence, i) => {
    const entry = firstEntry + i;
    for (let p = 0, n = peptides.read(sequence); p < n; p++) {
      const code = peptides.codes[p];
      const bit = code & mask;
      if (!(filter[bit >> 3] & (1 << (bit & 7)))) continue;
      let slot = firstSlot(code, slotMask);
      while (own[2 * slot] !== -1 && own[2 * slot] !== code) slot = (slot + 1) & slotMask;
      if (own[2 * slot] !== code || own[2 * slot + 1] === entry) continue;
      own[2 * slot + 1] = entry;
      Atomics.add(counts, slot, 1);
    }
  });
}

const WORKER = new URL("./fingerprint-worker.ts", import.meta.url);

/**
 * A 7-letter fingerprint per group: the first peptide of its first member's sequence that
 * every member contains and no other protein does. When none is unique, the first peptide
 * common to all members (which then resolves to several groups); "n/a" when there is none.
 * Peptides are base-20 codes.
 */
export async function fingerprintGroups(groups: EntryLists, sequenceOf: (entry: number) => string, entries: number, jobs = 1): Promise<string[]> {
  const candidates: Int32Array[] = [];
  const batches: Int32Array[] = [];
  function* candidateTasks(): Generator<CandidateTask> {
    for (let first = 0; first < groups.count; first += GROUPS_PER_TASK) {
      const batch = Array.from({ length: Math.min(GROUPS_PER_TASK, groups.count - first) }, (_, k) => listMembers(groups, first + k));
      yield { groups: batch.map((members) => Array.from(members, sequenceOf)) };
    }
  }
  await runTasksInOrder(
    candidateTasks(),
    ({ codes, counts }: Candidates) => {
      batches.push(codes);
      let at = 0;
      for (const n of counts) candidates.push(codes.subarray(at, (at += n)));
    },
    { module: WORKER, jobs, workerData: { kind: "candidates" } },
  );

  // How many proteins contain each candidate.
  const table = candidateTable(batches);
  function* countTasks(): Generator<CountTask> {
    for (let first = 1; first <= entries; first += ENTRIES_PER_TASK) {
      yield { firstEntry: first, sequences: Array.from({ length: Math.min(ENTRIES_PER_TASK, entries - first + 1) }, (_, i) => sequenceOf(first + i)) };
    }
  }
  await runTasksInOrder(countTasks(), () => {}, { module: WORKER, jobs, workerData: { kind: "counts", table } });

  const proteinsWith = (code: number) => {
    const slot = slotOf(table.slots, code);
    return table.slots[slot] === code ? table.counts[slot] : 0;
  };
  return Array.from({ length: groups.count }, (_, g) => {
    const list = candidates[g];
    const unique = list.find((code) => proteinsWith(code) === listMembers(groups, g).length);
    return unique !== undefined ? peptideOf(unique) : list.length ? peptideOf(list[0]) : "n/a";
  });
}
