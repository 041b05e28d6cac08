/**
 * A pool module for workers.test.ts: doubles a number (plus the pool's `add`) after a busy wait
 * of `ms`, or throws or ends its thread after answering when asked to; says which thread answered.
 */
import { threadId } from "node:worker_threads";
import type { TaskServer } from "../../release-compiler/workers.js";

export interface Doubled {
  doubled: Int32Array;
  thread: number;
}

export const serve: TaskServer<{ n: number; ms: number; fail?: boolean; exit?: boolean }, Doubled, { add?: number }> =
  ({ add = 0 }) =>
  ({ n, ms, fail, exit }) => {
    if (exit) setTimeout(() => process.exit(3), 10); // ends this thread just after it answers
    const until = Date.now() + ms;
    while (Date.now() < until);
    if (fail) throw new Error(`task ${n} refused`);
    const doubled = Int32Array.of(2 * n + add);
    return { result: { doubled, thread: threadId }, transfer: [doubled.buffer] };
  };
