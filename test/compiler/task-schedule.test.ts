/** The rule the compile starts its tasks side by side by (tasks.ts, tasksToStart). */
import { describe, expect, it } from "vitest";
import { RELATION_PARTS, relationPart, TASK_NAMES, tasksToStart, type TaskName } from "../../release-compiler/tasks.js";

const parts = Array.from({ length: RELATION_PARTS }, (_, i) => relationPart(i + 1));
const afterRelations = new Set<TaskName>(["derive", ...parts, "relations"]);
const done = (finished: Set<TaskName>) => (name: TaskName) => finished.has(name);

describe("tasks side by side", () => {
  it("starts a task on every thread once one thread is free, holding what was free, beside the one-thread tasks", () => {
    // The family tables running on one of two jobs: the sequence index starts on the other, with both threads.
    const waiting = TASK_NAMES.filter((name) => !afterRelations.has(name) && name !== "family-tables");
    expect(tasksToStart(waiting, done(afterRelations), 1, 2)).toEqual([{ name: "sequence-index", threads: 2, holds: 1 }]);
    expect(waiting).not.toContain("sequence-index");
    // Right after the relations: the chain's next task first, then the sequence index on what is left.
    const next = TASK_NAMES.filter((name) => !afterRelations.has(name));
    expect(tasksToStart(next, done(afterRelations), 2, 2)).toEqual([
      { name: "family-tables", threads: 1, holds: 1 },
      { name: "sequence-index", threads: 2, holds: 1 },
    ]);
    // Alone, it holds every thread; while another such task runs, it waits (the memory budget is one task's).
    expect(tasksToStart(["profiles"], done(afterRelations), 2, 2)).toEqual([{ name: "profiles", threads: 2, holds: 2 }]);
    expect(tasksToStart(["profiles"], done(afterRelations), 1, 2, true)).toEqual([]);
    expect(tasksToStart(["profiles"], done(afterRelations), 0, 2)).toEqual([]);
  });

  it("starts a task on a few threads or one only when they are free, and none before its needs", () => {
    expect(tasksToStart(["relations-1"], done(new Set(["derive"])), 1, 2)).toEqual([]);
    expect(tasksToStart(["relations-1"], done(new Set(["derive"])), 2, 2)).toEqual([{ name: "relations-1", threads: 2, holds: 2 }]);
    expect(tasksToStart(["family-tables", "xref-search", "indexes"], done(new Set(["derive"])), 1, 2)).toEqual([{ name: "xref-search", threads: 1, holds: 1 }]);
  });
});
