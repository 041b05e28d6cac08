/** The rule the compile starts its tasks side by side by (tasks.ts, tasksToStart), the heap each task process gets (heapOf), and what a failed one says (task-processes.ts, taskFailure). */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { taskFailure } from "../../release-compiler/task-processes.js";
import { APPEND_WORKING, DERIVE_HEAP_SHARE, heapOf, LEAST_WORKING, MOST_WORKING, RELATION_PARTS, relationPart, residentOf, TASK_NAMES, TASKS, tasksToStart, workingMemory, type TaskName } from "../../release-compiler/tasks.js";

const parts = Array.from({ length: RELATION_PARTS }, (_, i) => relationPart(i + 1));
const afterRelations = new Set<TaskName>(["derive", ...parts, "relations"]);
const done = (finished: Set<TaskName>) => (name: TaskName) => finished.has(name);

describe("tasks side by side", () => {
  it("starts a task on every thread once one thread is free, holding those free but one, beside the one-thread tasks", () => {
    // The family tables running on one of two jobs, the annotation tables finished: the sequence index starts on the other, with both threads.
    const finished = new Set<TaskName>([...afterRelations, "annotation-tables"]);
    const waiting = TASK_NAMES.filter((name) => !finished.has(name) && name !== "family-tables");
    expect(tasksToStart(waiting, done(finished), 1, 2)).toEqual([{ name: "sequence-index", threads: 2, holds: 1, memory: 0 }]);
    expect(waiting).not.toContain("sequence-index");
    // Right after the relations: the sequence index (the longest task) on every thread, holding one, and the chain's next task on the other.
    const next = TASK_NAMES.filter((name) => !afterRelations.has(name));
    expect(tasksToStart(next, done(afterRelations), 2, 2)).toEqual([
      { name: "sequence-index", threads: 2, holds: 1, memory: 0 },
      { name: "family-tables", threads: 1, holds: 1, memory: 0 },
    ]);
    // Alone, it still holds one thread: the other goes to the next one-thread task, sharing the cores (the sequence index keeps 1.6 of two busy, the profiles 1.1).
    expect(tasksToStart(["profiles", "hog-lists"], done(afterRelations), 2, 2)).toEqual([
      { name: "profiles", threads: 2, holds: 1, memory: 0 },
      { name: "hog-lists", threads: 1, holds: 1, memory: 0 },
    ]);
    // On more jobs it holds those free but one: a one-thread task beside it, not a core apiece.
    expect(tasksToStart(["profiles", "hog-lists", "indexes"], done(afterRelations), 8, 8)).toEqual([
      { name: "profiles", threads: 8, holds: 7, memory: 0 },
      { name: "hog-lists", threads: 1, holds: 1, memory: 0 },
    ]);
    // While another such task runs, it waits (the memory budget is one task's).
    expect(tasksToStart(["profiles"], done(afterRelations), 2, 2)).toEqual([{ name: "profiles", threads: 2, holds: 1, memory: 0 }]);
    expect(tasksToStart(["profiles"], done(afterRelations), 1, 2, true)).toEqual([]);
    expect(tasksToStart(["profiles"], done(afterRelations), 0, 2)).toEqual([]);
  });

  it("starts a task on a few threads or one only when they are free, and none before its needs", () => {
    expect(tasksToStart(["relations-1"], done(new Set()), 2, 2)).toEqual([]);
    expect(tasksToStart(["relations-1"], done(new Set(["derive"])), 2, 2)).toEqual([{ name: "relations-1", threads: 2, holds: 2, memory: 0 }]);
    // Alone, it takes what is free, at least one thread; several ready share the free threads, each on at most its own (4).
    expect(tasksToStart(["relations-1"], done(new Set(["derive"])), 1, 2)).toEqual([{ name: "relations-1", threads: 1, holds: 1, memory: 0 }]);
    expect(tasksToStart([...parts], done(new Set(["derive"])), 2, 2)).toEqual([
      { name: "relations-1", threads: 1, holds: 1, memory: 0 },
      { name: "relations-2", threads: 1, holds: 1, memory: 0 },
    ]);
    expect(tasksToStart([...parts], done(new Set(["derive"])), 64, 64).map((s) => s.threads)).toEqual(parts.map(() => 4));
    // Twelve: every thread taken, those started later on more as fewer are left to share.
    expect(tasksToStart([...parts], done(new Set(["derive"])), 12, 12).map((s) => s.threads)).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
    expect(tasksToStart(["family-tables", "xref-search", "indexes"], done(new Set(["derive"])), 1, 2)).toEqual([{ name: "xref-search", threads: 1, holds: 1, memory: 0 }]);
  });
});

describe("tasks side by side within the memory budget", () => {
  const GB = 2 ** 30;
  // The derived release of a million proteins over 100 genomes (1.02 GB).
  const scale = { bytes: 1.02e9, genomes: 100 };
  const room = (free: number, running: boolean) => ({ free, running, scale });

  it("expects each task's resident set to grow with the derived release, and gives a sorting task what its own leaves", () => {
    // Grown from a million proteins to ten (the annotation tables' expectation at one million is the least a process holds).
    for (const name of TASK_NAMES.filter((n) => n !== "derive")) {
      expect(residentOf(name, { ...scale, bytes: scale.bytes * 10 }), name).toBeGreaterThan(residentOf(name, scale));
      expect(residentOf(name, { bytes: 0, genomes: 0 }), name).toBeGreaterThan(0);
    }
    // Measured at 1M: the annotation tables 0.22 GB, the protein table 1.2 GB, the HOG lists 1.1 GB, the indexes 0.74 GB, the HOG index 1.1 GB; expected with a margin.
    for (const [name, measured] of [["annotation-tables", 0.22], ["protein-tables", 1.2], ["hog-lists", 1.1], ["indexes", 0.74], ["hog-index", 1.1]] as const) {
      expect(residentOf(name, scale) / GB, name).toBeGreaterThan(measured);
      expect(residentOf(name, scale) / GB, name).toBeLessThan(measured * 1.5);
    }
    expect(workingMemory("relations-1", 64 * 2 ** 20, scale)).toBe(64 * 2 ** 20); // a budget below the least is all given
    expect(workingMemory("relations-1", 4 * GB, scale)).toBe(MOST_WORKING);
    // What its resident set leaves, less what shows of it beyond the engine's buffers (ENGINE_RESIDENT: more than all of it).
    const shows = TASKS["relations-1"].memory!.working!;
    expect(shows).toBeGreaterThanOrEqual(1);
    expect(workingMemory("relations-1", residentOf("relations-1", scale) + shows * GB, scale)).toBe(GB);
    expect(workingMemory("derive", 4 * GB, { bytes: 0, genomes: 0 })).toBe(APPEND_WORKING); // derive only appends
    expect(workingMemory("derive", 64 * 2 ** 20, { bytes: 0, genomes: 0 })).toBe(64 * 2 ** 20);
  });

  it("expects the tasks writing per genome pair to grow with the genome pairs", () => {
    // Measured at ~1M proteins (the same derived release's size) over 2,500 genomes: the relations put together 1.1 GB, the family tables 1.9 GB (1.3 over 100 genomes).
    const wide = { ...scale, genomes: 2500 };
    expect(residentOf("relations", wide) / GB).toBeGreaterThan(1.1);
    expect(residentOf("family-tables", wide) / GB).toBeGreaterThan(1.9);
    expect(residentOf("relations", wide)).toBeGreaterThan(residentOf("relations", scale) + GB / 2);
    expect(residentOf("family-tables", wide)).toBeGreaterThan(residentOf("family-tables", scale) + GB / 2);
    expect(residentOf("sequence-index", wide)).toBe(residentOf("sequence-index", scale));
    // A relations part holds its own genomes' counts per genome pair alone (measured alike over 100 and 2,500 genomes with the same working memory).
    expect(residentOf("relations-1", wide)).toBe(residentOf("relations-1", scale));
    // With 3.5 GB free the family tables (2.1 GB expected) start, and the cross-reference search (2.1 GB) waits for them.
    const afterRelations = done(new Set(["derive", ...parts, "relations"]));
    const started = tasksToStart(["family-tables", "xref-search"], afterRelations, 2, 2, false, { free: 4 * GB - GB / 2, running: true, scale: wide });
    expect(started.map((s) => s.name)).toEqual(["family-tables"]);
  });

  it("starts a task only when its expected resident set fits what is free, unless none runs", () => {
    const afterDerive = done(new Set(["derive", ...parts, "relations", "family-tables", "annotation-tables"]));
    const waiting = (): TaskName[] => ["protein-tables", "xref-search", "hog-index"];
    // The protein table starts; the cross-reference search (2.2 GB expected) does not fit beside it, the HOG index (1.5 GB) does.
    const budget = residentOf("protein-tables", scale) + residentOf("hog-index", scale) + GB / 4;
    expect(budget).toBeLessThan(residentOf("protein-tables", scale) + residentOf("xref-search", scale));
    const started = tasksToStart(waiting(), afterDerive, 2, 2, false, room(budget, false));
    expect(started.map((s) => s.name)).toEqual(["protein-tables", "hog-index"]);
    expect(started.map((s) => s.memory)).toEqual([residentOf("protein-tables", scale), residentOf("hog-index", scale)]);
    // With 8 GB both one-thread tasks start (two jobs), and each holds its expected resident set.
    expect(tasksToStart(waiting(), afterDerive, 2, 2, false, room(8 * GB, false)).map((s) => [s.name, s.memory])).toEqual([
      ["protein-tables", residentOf("protein-tables", scale)],
      ["xref-search", residentOf("xref-search", scale)],
    ]);
    // A later, smaller task starts where an earlier one does not fit beside a running one.
    const small = residentOf("hog-index", scale) + 2 ** 20;
    expect(tasksToStart(waiting(), afterDerive, 1, 2, false, room(small, true)).map((s) => s.name)).toEqual(["hog-index"]);
    // Expected beyond the whole budget: it runs, alone.
    expect(tasksToStart(waiting(), afterDerive, 2, 2, false, room(GB, false)).map((s) => s.name)).toEqual(["protein-tables"]);
    expect(tasksToStart(waiting(), afterDerive, 2, 2, false, room(GB, true))).toEqual([]);
  });

  it("gives a sorting task the memory free up to all it can use, and derive all of the budget, alone", () => {
    const sorting = tasksToStart(["sequence-index"], done(new Set(["derive"])), 2, 2, false, room(8 * GB, false));
    expect(sorting.map((s) => s.name)).toEqual(["sequence-index"]);
    expect(workingMemory("sequence-index", sorting[0].memory, scale)).toBe(MOST_WORKING);
    // It holds all of its working memory resident (the array of a range's postings): what is free beyond its resident set.
    const squeezed = tasksToStart(["sequence-index"], done(new Set(["derive"])), 1, 2, false, room(residentOf("sequence-index", scale) + GB / 2, true));
    expect(workingMemory("sequence-index", squeezed[0].memory, scale)).toBe(GB / 2);
    expect(tasksToStart(["derive"], done(new Set()), 2, 2, false, room(4 * GB, false))).toEqual([{ name: "derive", threads: 2, holds: 2, memory: 4 * GB }]);
    expect(tasksToStart(["derive"], done(new Set()), 2, 2, false, room(4 * GB, true))).toEqual([]);
  });

  it("starts the sequence index beside other tasks only with the working memory that places its postings in one range", () => {
    // 4.1·10^8 k-mer windows at a million proteins: 1,561 MiB of postings to place; a range more would find every k-mer again.
    const known = { ...scale, kmerWindows: 409_250_307 };
    const oneRange = 409_250_307 * 4;
    const resident = residentOf("sequence-index", known);
    const afterDerive = done(new Set(["derive"]));
    // Beside a running task, it waits while less than that is free, and takes no more than that when more is.
    expect(tasksToStart(["sequence-index"], afterDerive, 1, 2, false, { free: resident + oneRange - 2 ** 20, running: true, scale: known })).toEqual([]);
    const started = tasksToStart(["sequence-index", "hog-lists"], afterDerive, 2, 2, false, { free: 4 * GB, running: true, scale: known });
    expect(started.map((s) => [s.name, s.memory])).toEqual([
      ["sequence-index", resident + oneRange],
      ["hog-lists", residentOf("hog-lists", known)],
    ]);
    expect(workingMemory("sequence-index", started[0].memory, known)).toBe(oneRange);
    // Alone in a smaller budget, it starts with all of it (the compile gives a task at most the budget): the postings placed in more ranges.
    const budget = resident + GB / 2;
    const alone = tasksToStart(["sequence-index"], afterDerive, 2, 2, false, { free: budget, running: false, scale: known });
    expect(workingMemory("sequence-index", Math.min(alone[0].memory, budget), known)).toBe(GB / 2);
    // A release of more postings than MOST_WORKING places waits for MOST_WORKING only.
    const large = { ...known, kmerWindows: 2e9 };
    expect(tasksToStart(["sequence-index"], afterDerive, 1, 2, false, { free: residentOf("sequence-index", large) + MOST_WORKING, running: true, scale: large }).map((s) => s.memory)).toEqual([residentOf("sequence-index", large) + MOST_WORKING]);
  });

  it("shares what is free equally among the parts of the relations starting side by side, each at least its least", () => {
    const afterDerive = done(new Set(["derive"]));
    const least = residentOf("relations-1", scale) + TASKS["relations-1"].memory!.working! * LEAST_WORKING;
    // Within 4 GB at a million proteins: two parts on one thread each, half of the budget each (each at least its least).
    const two = tasksToStart([...parts], afterDerive, 2, 2, false, room(4 * GB, false));
    expect(two.map((s) => [s.name, s.threads, s.memory])).toEqual([
      ["relations-1", 1, 2 * GB],
      ["relations-2", 1, 2 * GB],
    ]);
    expect(2 * least).toBeLessThan(4 * GB);
    // Where two do not fit at their least, the first takes what it can use and the second waits.
    const one = tasksToStart([...parts], afterDerive, 2, 2, false, room(least + GB / 2, false));
    expect(one.map((s) => [s.name, s.memory])).toEqual([["relations-1", least + GB / 2]]);
    // Over 2,500 genomes likewise (a part measured at 1.1 GB there with 256 MB of working memory).
    const wide = { ...scale, genomes: 2500 };
    const twoWide = tasksToStart([...parts], afterDerive, 2, 2, false, { free: 4 * GB, running: false, scale: wide });
    expect(twoWide.map((s) => [s.name, s.threads, s.memory])).toEqual([
      ["relations-1", 1, 2 * GB],
      ["relations-2", 1, 2 * GB],
    ]);
    // Where only one fits at its least, it runs alone on every thread it can use rather than on its share (a derived release three times as large, within 4 GB).
    const large = { ...scale, bytes: scale.bytes * 3 };
    expect(2 * (residentOf("relations-1", large) + TASKS["relations-1"].memory!.working! * LEAST_WORKING)).toBeGreaterThan(4 * GB);
    const alone = tasksToStart([...parts], afterDerive, 2, 2, false, { free: 4 * GB, running: false, scale: large });
    expect(alone.map((s) => [s.name, s.threads, s.memory])).toEqual([["relations-1", 2, 4 * GB]]);
    // With ample memory, each takes all it can use.
    const ample = tasksToStart([...parts], afterDerive, 2, 2, false, room(64 * GB, false));
    expect(ample.map((s) => workingMemory(s.name, s.memory, scale))).toEqual([MOST_WORKING, MOST_WORKING]);
  });

  it("sizes each task's heap to what it holds: derive's to the budget, the others' to their expected resident sets", () => {
    const MB = 2 ** 20;
    // Derive: a share of the budget less its row engines' memory (at 2,500 genomes within 4 GB, 3,000 MB kept it at a peak of 3.4 GB).
    expect(heapOf("derive", 4 * GB, { bytes: 0, genomes: 0 })).toBe(Math.ceil(DERIVE_HEAP_SHARE * (4 * GB - APPEND_WORKING)));
    expect(heapOf("derive", 4 * GB, { bytes: 0, genomes: 0 }) / MB).toBeLessThan(3200);
    expect(heapOf("derive", 8 * GB, { bytes: 0, genomes: 0 })).toBeGreaterThan(heapOf("derive", 4 * GB, { bytes: 0, genomes: 0 }));
    expect(heapOf("derive", 64 * MB, { bytes: 0, genomes: 0 }) / MB).toBeGreaterThanOrEqual(300); // never below what a process needs to start
    for (const name of TASK_NAMES.filter((n) => n !== "derive")) {
      // The fit a quarter over, where the expected resident set is a tenth over (V8 collects the harder the nearer its limit), besides any working memory, whatever share of the budget the task was given;
      // for a task expected to hold no more than a process does (the annotation tables at a million proteins), that least.
      const ratio = heapOf(name, 4 * GB, scale) / residentOf(name, scale);
      if (residentOf(name, { ...scale, bytes: scale.bytes * 0.99 }) === residentOf(name, scale)) expect(ratio, name).toBe(1);
      else expect(ratio, name).toBeCloseTo(1.25 / 1.1, 5);
      expect(heapOf(name, GB / 4, scale), name).toBe(heapOf(name, 4 * GB, scale));
      expect(heapOf(name, 4 * GB, { ...scale, bytes: scale.bytes * 10 }), name).toBeGreaterThan(heapOf(name, 4 * GB, scale));
    }
    // At a million proteins the indexes' heap reached 355 MB (1,418 MB while they held the annotations): room to collect beyond it.
    expect(heapOf("indexes", 4 * GB, scale) / MB).toBeGreaterThan(355 * 1.25);
  });
});

describe("a task process that fails", () => {
  // What V8 prints when a heap runs out, from a real process with a heap of 32 MB.
  const oom = spawnSync(process.execPath, ["--max-old-space-size=32", "-e", "const kept = []; for (;;) kept.push(new Array(1e5).fill(0));"], { encoding: "utf8" });
  const tail = `${oom.stdout}${oom.stderr}`.split("\n").slice(-40);

  it("says what to do when its heap ran out: derive's budget, or another task's expectation", () => {
    expect(oom.status === 0).toBe(false);
    const derive = taskFailure("derive", 3072, `${oom.signal ?? oom.status}`, tail);
    expect(derive).toContain("task derive ran out of memory: its heap of 3072 MB");
    expect(derive).toContain("compile again with a larger --memory");
    expect(taskFailure("indexes", 2600, `${oom.signal ?? oom.status}`, tail)).toContain("task indexes ran out of memory: its heap of 2600 MB (the resident set it was expected to reach");
  });

  it("shows anything else as it ended, with its last lines", () => {
    expect(taskFailure("indexes", 2600, "exit code 1", ["tables.ts:12: a problem"])).toBe("task indexes failed (exit code 1):\ntables.ts:12: a problem");
  });
});
