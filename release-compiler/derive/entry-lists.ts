/**
 * Lists of entry numbers in one array, with where each list begins: the orthologous groups
 * (ReleaseBuild `groups`) and the genes of isoforms (ProteinTable `genes`). An array a list
 * costs ~150 bytes beside its entries: at 1M the groups held 20.5 MiB as arrays, 2.5 so.
 */
import { GrowingInts } from "../write/growing.js";

export interface EntryLists {
  count: number;
  /** List k's members (k from 0) are `members[starts[k], starts[k + 1])`. */
  starts: Int32Array;
  members: Int32Array;
}

/** List k's members (k from 0), a view into the lists' array. */
export const listMembers = (t: EntryLists, k: number): Int32Array => t.members.subarray(t.starts[k], t.starts[k + 1]);

/** The lists, as they are added in order; `finish` gives them. */
export class EntryListsBuilder {
  private starts = new GrowingInts();
  private members = new GrowingInts();

  constructor() {
    this.starts.push(0);
  }

  /** Appends a list; its number (from 0). */
  add(list: ArrayLike<number>): number {
    this.members.append(list);
    this.starts.push(this.members.length);
    return this.starts.length - 2;
  }

  finish(): EntryLists {
    return { count: this.starts.length - 1, starts: this.starts.done(), members: this.members.done() };
  }
}

/** `lists` in one array, in order. */
export function entryLists(lists: Iterable<ArrayLike<number>>): EntryLists {
  const builder = new EntryListsBuilder();
  for (const list of lists) builder.add(list);
  return builder.finish();
}
