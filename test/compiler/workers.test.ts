import { describe, expect, it } from "vitest";
import { taskPool } from "../../release-compiler/workers.js";

const WORKER = new URL("./task-worker.ts", import.meta.url);

describe("taskPool", () => {
  it("answers every task with its own result, whichever worker finishes first", async () => {
    const pool = taskPool<{ n: number; ms: number }, { doubled: Int32Array }>(WORKER, 3, {});
    try {
      // Early tasks take longest, so later ones finish first.
      const answers = await Promise.all(Array.from({ length: 24 }, (_, n) => pool.run({ n, ms: n < 3 ? 300 : n % 4 })));
      expect(answers.map((a) => a.doubled[0])).toEqual(Array.from({ length: 24 }, (_, n) => 2 * n));
    } finally {
      await pool.close();
    }
  });

  it("rejects a task that throws with the worker's error, and goes on with the others", async () => {
    const pool = taskPool<{ n: number; ms: number; fail?: boolean }, { doubled: Int32Array }>(WORKER, 2, {});
    try {
      const failed = pool.run({ n: 7, ms: 0, fail: true });
      await expect(failed).rejects.toThrow("task 7 refused");
      expect((await pool.run({ n: 8, ms: 0 })).doubled[0]).toBe(16);
    } finally {
      await pool.close();
    }
  });
});
