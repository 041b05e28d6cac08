/**
 * The orthologous groups in one array (release-compiler/derive/entry-lists.ts, groups.ts): each
 * group read back as given, in order, and each protein's group number from them.
 */
import { describe, expect, it } from "vitest";
import { entryLists, listMembers } from "../../release-compiler/derive/entry-lists.js";
import { groupOfEntries } from "../../release-compiler/derive/groups.js";

describe("the group table", () => {
  const lists = [[1, 4, 9], [2, 3], [], [5, 6, 7, 8, 10]];
  const table = entryLists(lists);

  it("gives back each group as given, in order, in one array as long as their members", () => {
    expect(table.count).toBe(4);
    expect(lists.map((_, g) => Array.from(listMembers(table, g)))).toEqual(lists);
    expect(table.members.length).toBe(10);
    expect(listMembers(table, 3).buffer).toBe(table.members.buffer);
  });

  it("numbers each protein by its group from 1, 0 for none", () => {
    expect(Array.from(groupOfEntries(table, 11))).toEqual([1, 2, 2, 1, 4, 4, 4, 4, 1, 4, 0]);
  });
});
