import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it, vi } from "vitest";
import { runTasksInOrder, taskPool } from "../../release-compiler/workers.js";
import type { Doubled } from "./task-worker.js";

const WORKER = new URL("./task-worker.ts", import.meta.url);
const ROOT = resolve(import.meta.dirname, "../..");

type Task = { n: number; ms: number; fail?: boolean; exit?: boolean };

describe("taskPool", () => {
  it("answers every task with its own result, whichever worker finishes first", async () => {
    const pool = taskPool<Task, Doubled>(WORKER, 3, {});
    try {
      // Early tasks take longest, so later ones finish first.
      const answers = await Promise.all(Array.from({ length: 24 }, (_, n) => pool.run({ n, ms: n < 3 ? 300 : n % 4 })));
      expect(answers.map((a) => a.doubled[0])).toEqual(Array.from({ length: 24 }, (_, n) => 2 * n));
      expect(new Set(answers.map((a) => a.thread)).size).toBe(3);
    } finally {
      await pool.close();
    }
  });

  it("rejects a task that throws with the worker's error, and goes on with the others", async () => {
    const pool = taskPool<Task, Doubled>(WORKER, 2, {});
    try {
      const failed = pool.run({ n: 7, ms: 0, fail: true });
      await expect(failed).rejects.toThrow("task 7 refused");
      expect((await pool.run({ n: 8, ms: 0 })).doubled[0]).toBe(16);
    } finally {
      await pool.close();
    }
  });

  it("starts a thread only when a task finds none free, and the next pool takes the threads the last one handed back, with its own data", async () => {
    const first = taskPool<Task, Doubled>(WORKER, 4, { add: 1 });
    const one = await first.run({ n: 1, ms: 0 });
    const two = await first.run({ n: 2, ms: 0 });
    expect([one.doubled[0], two.doubled[0]]).toEqual([3, 5]);
    expect(two.thread).toBe(one.thread); // one task at a time: one thread
    await first.close();
    const second = taskPool<Task, Doubled>(WORKER, 2, { add: 100 });
    try {
      const answers = await Promise.all([0, 1].map((n) => second.run({ n, ms: 200 })));
      expect(answers.map((a) => a.doubled[0])).toEqual([100, 102]);
      expect(answers.map((a) => a.thread)).toContain(one.thread);
      expect(new Set(answers.map((a) => a.thread)).size).toBe(2);
    } finally {
      await second.close();
    }
  });

  it("fails a pool whose idle thread stops, and hands no stopped thread to the next pool", async () => {
    const broken = taskPool<Task, Doubled>(WORKER, 2, {});
    expect((await broken.run({ n: 1, ms: 0, exit: true })).doubled[0]).toBe(2);
    await new Promise((done) => setTimeout(done, 200)); // the thread ends after answering
    await expect(broken.run({ n: 2, ms: 0 })).rejects.toThrow("a worker thread stopped (exit code 3)");
    await broken.close();
    const next = taskPool<Task, Doubled>(WORKER, 2, {});
    try {
      expect((await next.run({ n: 4, ms: 0 })).doubled[0]).toBe(8);
    } finally {
      await next.close();
    }
  });

  it("rejects every task of a module that does not load with its error", async () => {
    const pool = taskPool<Task, Doubled>(new URL("./no-such-worker.ts", import.meta.url), 2, {});
    try {
      await expect(pool.run({ n: 1, ms: 0 })).rejects.toThrow(/no-such-worker/);
      await expect(pool.run({ n: 2, ms: 0 })).rejects.toThrow(/no-such-worker/);
    } finally {
      await pool.close();
    }
  });

  it("keeps no process alive with the threads it keeps for the next pool", async () => {
    // A script that runs tasks on two threads and ends: it must exit at once, not when its kept threads stop.
    const script = `import { runTasksInOrder } from ${JSON.stringify(resolve(ROOT, "release-compiler/workers.ts"))};
const out = [];
await runTasksInOrder([1, 2, 3].map((n) => ({ n, ms: 0 })), (r) => out.push(r.doubled[0]), { module: new URL(${JSON.stringify(WORKER.href)}), jobs: 2 });
console.log(JSON.stringify({ out, at: performance.now() }));`;
    const started = performance.now();
    const { stdout } = await promisify(execFile)(resolve(ROOT, "node_modules/.bin/tsx"), ["--input-type=module", "-e", script], { cwd: ROOT, env: { ...process.env, ORTH_THREADS_ALWAYS: "1" } });
    const exited = performance.now() - started;
    const { out, at } = JSON.parse(stdout) as { out: number[]; at: number };
    expect(out).toEqual([2, 4, 6]);
    // Kept threads stop after 3 s unreferenced; the process ends well before that after its last line.
    expect(exited - at).toBeLessThan(2_500);
  });
});

describe("runTasksInOrder", () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  // On this thread the module's own `serve` answers, and says thread 0 (the main thread's id).
  async function run(tasks: Task[], jobs: number): Promise<Doubled[]> {
    const out: Doubled[] = [];
    await runTasksInOrder<Task, Doubled>(tasks, (r) => out.push(r), { module: WORKER, jobs, workerData: { add: 0 } });
    expect(out.map((r) => r.doubled[0]), `jobs ${jobs}`).toEqual(tasks.map(({ n }) => 2 * n));
    return out;
  }

  it("runs small work on this thread, and starts threads once the work here has cost what starting one does", async () => {
    const small = Array.from({ length: 20 }, (_, n) => ({ n, ms: 1 }));
    expect((await run(small, 2)).every((r) => r.thread === 0)).toBe(true);
    // 100 ms a task: two or three here (250 ms), the rest on threads, in task order all the same.
    const large = Array.from({ length: 8 }, (_, n) => ({ n, ms: 100 }));
    const threads = (await run(large, 2)).map((r) => r.thread);
    const hereCount = threads.indexOf(threads.find((t) => t !== 0)!);
    expect(hereCount).toBeGreaterThanOrEqual(2);
    expect(hereCount).toBeLessThanOrEqual(4);
    expect(threads.slice(hereCount).every((t) => t !== 0)).toBe(true);
  });

  it("gives the results in task order on threads (ORTH_THREADS_ALWAYS), and on this thread with one job", async () => {
    vi.stubEnv("ORTH_THREADS_ALWAYS", "1");
    const tasks = Array.from({ length: 10 }, (_, n) => ({ n, ms: (10 - n) * 3 }));
    expect((await run(tasks, 2)).every((r) => r.thread !== 0)).toBe(true);
    expect((await run(tasks, 1)).every((r) => r.thread === 0)).toBe(true);
  });
});
