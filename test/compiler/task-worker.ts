/** A worker for workers.test.ts: doubles a number after a busy wait of `ms`, or throws when asked to. */
import { serveTasks } from "../../release-compiler/workers.js";

serveTasks<{ n: number; ms: number; fail?: boolean }, { doubled: Int32Array }>(({ n, ms, fail }) => {
  const until = Date.now() + ms;
  while (Date.now() < until);
  if (fail) throw new Error(`task ${n} refused`);
  const doubled = Int32Array.of(2 * n);
  return { result: { doubled }, transfer: [doubled.buffer] };
});
