/**
 * Worker threads of the compiler (`--jobs`): starting one on a TypeScript module, and a pool
 * that runs tasks on them and answers each in the order it was given, so that what the main
 * thread writes from the answers is the same bytes whichever worker finishes first.
 *
 * The compiler runs as TypeScript through tsx, which a worker thread does not inherit (an
 * execArgv `--import tsx` is not honoured there: "Unknown file extension .ts", and tsx's CJS
 * API entry names a file that does not exist). A worker starts from a data: URL that registers
 * tsx's ESM loader, found through tsx's package.json exports, then imports its module.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { parentPort, Worker } from "node:worker_threads";

const TSX_ESM_API = (() => {
  const manifest = createRequire(import.meta.url).resolve("tsx/package.json");
  const { exports } = JSON.parse(readFileSync(manifest, "utf8")) as { exports: Record<string, { import: string | { default: string } }> };
  const target = exports["./esm/api"].import;
  return pathToFileURL(join(dirname(manifest), typeof target === "string" ? target : target.default)).href;
})();

/** A worker thread running `module` (a .ts file's URL), with `workerData`. */
export function startWorker(module: URL, workerData: unknown): Worker {
  const boot = `import { register } from ${JSON.stringify(TSX_ESM_API)};
register();
await import(${JSON.stringify(module.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { workerData });
}

/** A task's result and the buffers to move (not copy) with it. */
type Answered<Result> = { result: Result; transfer: ArrayBuffer[] };

/** What a task's worker posts back: its result, or the error it threw. */
type Answer<Result> = { id: number; result: Result } | { id: number; error: string };

export interface TaskPool<Task, Result> {
  /** Runs a task on the next free worker; its result arrives through the promise. */
  run(task: Task, transfer?: ArrayBuffer[]): Promise<Result>;
  /** Stops the workers. */
  close(): Promise<void>;
}

/**
 * `jobs` workers of `module` (which calls serveTasks), sharing `workerData` (pass shared arrays
 * in SharedArrayBuffers: anything else is copied to every worker). Tasks queue until a worker
 * is free; the caller bounds how many it keeps in flight. A worker that fails fails every task.
 */
export function taskPool<Task, Result>(module: URL, jobs: number, workerData: unknown): TaskPool<Task, Result> {
  const waiting = new Map<number, { resolve(result: Result): void; reject(error: Error): void }>();
  const queue: Array<{ id: number; task: Task; transfer: ArrayBuffer[] }> = [];
  const idle: Worker[] = [];
  let next = 0;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  const dispatch = () => {
    while (idle.length && queue.length) {
      const { id, task, transfer } = queue.shift()!;
      idle.pop()!.postMessage({ id, task }, transfer);
    }
  };
  const workers = Array.from({ length: jobs }, () => {
    const worker = startWorker(module, workerData);
    worker.on("message", (answer: Answer<Result>) => {
      const w = waiting.get(answer.id);
      waiting.delete(answer.id);
      if ("error" in answer) w?.reject(new Error(answer.error));
      else w?.resolve(answer.result);
      idle.push(worker);
      dispatch();
    });
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`a worker thread stopped (exit code ${code})`)));
    idle.push(worker);
    return worker;
  });
  return {
    run(task, transfer = []) {
      if (failure) return Promise.reject(failure);
      const id = next++;
      const answer = new Promise<Result>((resolve, reject) => waiting.set(id, { resolve, reject }));
      queue.push({ id, task, transfer });
      dispatch();
      return answer;
    },
    async close() {
      for (const worker of workers) worker.removeAllListeners("exit");
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/**
 * Runs `tasks` and hands each result to `take` in the order its task came, so what `take` writes
 * is the same bytes at any `jobs`: on `jobs` worker threads of `module` when there are several
 * (at most two tasks a worker in flight, while this thread makes the next and takes the
 * earliest), else one after another on this thread with `here` (the same function the module serves).
 */
export async function runTasksInOrder<Task, Result>(
  tasks: Iterable<Task> | AsyncIterable<Task>,
  take: (result: Result) => void,
  options: { module: URL; jobs: number; workerData?: unknown; here: (task: Task) => Result | Promise<Result>; transfer?: (task: Task) => ArrayBuffer[] },
): Promise<void> {
  const { jobs } = options;
  if (jobs <= 1) {
    for await (const task of tasks) take(await options.here(task));
    return;
  }
  const pool = taskPool<Task, Result>(options.module, jobs, options.workerData ?? {});
  try {
    const inFlight: Array<Promise<Result>> = [];
    for await (const task of tasks) {
      inFlight.push(pool.run(task, options.transfer?.(task)));
      if (inFlight.length >= 2 * jobs) take(await inFlight.shift()!);
    }
    for (const result of inFlight) take(await result);
  } finally {
    await pool.close();
  }
}

/**
 * The worker side of taskPool: answers each task with `handle`'s result (or what it resolves to:
 * a worker is given one task at a time), posting the buffers it names.
 */
export function serveTasks<Task, Result>(handle: (task: Task) => Answered<Result> | Promise<Answered<Result>>): void {
  parentPort!.on("message", async ({ id, task }: { id: number; task: Task }) => {
    let answer: Answered<Result>;
    try {
      answer = await handle(task);
    } catch (error) {
      parentPort!.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      return;
    }
    parentPort!.postMessage({ id, result: answer.result }, answer.transfer);
  });
}
