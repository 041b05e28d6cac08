/**
 * Worker threads of the compiler (`--jobs`): a pool that runs tasks on them and answers each in
 * the order it was given, so that what the main thread writes from the answers is the same
 * bytes whichever worker finishes first.
 *
 * The compiler runs as TypeScript through tsx, which a worker thread does not inherit (an
 * execArgv `--import tsx` is not honoured there: "Unknown file extension .ts", and tsx's CJS
 * API entry names a file that does not exist). A worker starts from a data: URL that registers
 * tsx's ESM loader, found through tsx's package.json exports, then imports its module.
 *
 * Starting one costs ~0.3–0.5 s of CPU (tsx's loader thread compiles the modules it imports),
 * more than a small release's whole stage, and a compile opens a pool in seven stages (eight
 * relation parts among them). So the pools of a process share their threads: a pool starts a
 * thread only when a task finds none free, and hands it back when it closes; a thread kept
 * (a "host", which imports each pool's module when the pool opens on it) waits a few seconds
 * for the next pool, unreferenced so it never holds the process open, then stops, giving its
 * memory back between stages that are far apart.
 */
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { setFlagsFromString } from "node:v8";
import { parentPort, Worker } from "node:worker_threads";

const TSX_ESM_API = (() => {
  const manifest = createRequire(import.meta.url).resolve("tsx/package.json");
  const { exports } = JSON.parse(readFileSync(manifest, "utf8")) as { exports: Record<string, { import: string | { default: string } }> };
  const target = exports["./esm/api"].import;
  return pathToFileURL(join(dirname(manifest), typeof target === "string" ? target : target.default)).href;
})();

/**
 * The young generation's semi-spaces of a worker thread, in MB, where the process's own thread
 * runs with COMPILER_NODE_FLAGS' 64 (task-processes.ts). A worker parses a genome or a family,
 * or sorts a part, and answers: no heap of gigabytes sits beside its short-lived objects for
 * scavenges to slow down on, and semi-spaces of 64 MB a thread are resident memory at any
 * release size. At a million proteins, derive with two jobs: peak RSS 1,349 → 1,202 MB with
 * V8's default of 16; with 32, 1,174–1,184 against 1,134–1,188 with 16, and its HOGs stage's
 * CPU 23.1–23.9 s against 25.2–26.4 (22.5–23.2 with 64). `--max-semi-space-size` overrides a
 * Worker's `resourceLimits.maxYoungGenerationSizeMb`, and V8 reads it when an isolate is made,
 * so it is set for the thread about to start.
 */
const WORKER_SEMI_SPACE_MB = 32;

/** A worker thread that registers tsx, then runs `script` (an ES module body). */
function tsxWorker(script: string, workerData: unknown): Worker {
  const boot = `import { register } from ${JSON.stringify(TSX_ESM_API)};
register();
${script}`;
  setFlagsFromString(`--max-semi-space-size=${WORKER_SEMI_SPACE_MB}`);
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(boot)}`), { workerData });
}

/** A worker thread running `module` (a .ts file's URL), with `workerData`, for a protocol of its own. */
export function startWorker(module: URL, workerData: unknown): Worker {
  return tsxWorker(`await import(${JSON.stringify(module.href)});`, workerData);
}

/** A task's result and the buffers to move (not copy) with it. */
export type Answered<Result> = { result: Result; transfer: ArrayBuffer[] };

/**
 * What a pool's module exports as `serve`: given the pool's shared data (pass shared arrays in
 * SharedArrayBuffers: anything else is copied to every thread), the function answering each task.
 */
export type TaskServer<Task, Result, Data = unknown> = (data: Data) => (task: Task) => Answered<Result> | Promise<Answered<Result>>;

/** What the pool posts a host, and what a host posts back. */
type HostMessage = { open: number; module: string; data: unknown } | { close: number } | { pool: number; id: number; task: unknown };
type Answer<Result> = { id: number; result: Result } | { id: number; error: string };

/** How long a host waits for the next pool before it stops. */
const HOST_IDLE_MS = 3_000;

/** Hosts of this process no pool holds, each with the timer that stops it. */
const freeHosts: Array<{ host: Worker; timer: NodeJS.Timeout }> = [];

function takeHost(): Worker {
  const free = freeHosts.pop();
  if (!free) return tsxWorker(`const { hostTasks } = await import(${JSON.stringify(import.meta.url)});\nhostTasks();`, undefined);
  clearTimeout(free.timer);
  release(free.host);
  free.host.ref();
  return free.host;
}

/** Drops a pool's listeners (only these: a Worker's own listeners on itself keep its port running). */
function release(host: Worker): void {
  for (const event of ["message", "error", "exit"]) host.removeAllListeners(event);
}

function giveBack(host: Worker): void {
  release(host);
  if (freeHosts.length >= availableParallelism()) {
    void host.terminate();
    return;
  }
  const drop = () => {
    const at = freeHosts.findIndex((f) => f.host === host);
    if (at >= 0) clearTimeout(freeHosts.splice(at, 1)[0].timer);
  };
  // A free host has no task to fail: one that fails or stops leaves the free list, never thrown about.
  host.on("error", drop);
  host.on("exit", drop);
  host.unref();
  const timer = setTimeout(() => {
    drop();
    void host.terminate();
  }, HOST_IDLE_MS);
  timer.unref();
  freeHosts.push({ host, timer });
}

let nextPool = 0;

export interface TaskPool<Task, Result> {
  /** Runs a task on the next free worker; its result arrives through the promise. */
  run(task: Task, transfer?: ArrayBuffer[]): Promise<Result>;
  /** Hands the pool's threads back (after a failure, stops them). */
  close(): Promise<void>;
}

/**
 * Up to `jobs` threads serving `module`'s `serve` (a TaskServer) with `data`, started as tasks
 * need them. Tasks queue until a thread is free; the caller bounds how many it keeps in flight.
 * A thread that fails fails every task.
 */
export function taskPool<Task, Result>(module: URL, jobs: number, data: unknown): TaskPool<Task, Result> {
  const pool = nextPool++;
  const waiting = new Map<number, { resolve(result: Result): void; reject(error: Error): void }>();
  const queue: Array<{ id: number; task: Task; transfer: ArrayBuffer[] }> = [];
  const hosts: Worker[] = [];
  const idle: Worker[] = [];
  let next = 0;
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  const open = () => {
    const host = takeHost();
    host.on("message", (answer: Answer<Result>) => {
      const w = waiting.get(answer.id);
      waiting.delete(answer.id);
      if ("error" in answer) w?.reject(new Error(answer.error));
      else w?.resolve(answer.result);
      idle.push(host);
      dispatch();
    });
    host.on("error", fail);
    host.on("exit", (code) => fail(new Error(`a worker thread stopped (exit code ${code})`)));
    host.postMessage({ open: pool, module: module.href, data } satisfies HostMessage);
    hosts.push(host);
    idle.push(host);
  };
  const dispatch = () => {
    if (queue.length > idle.length && hosts.length < jobs) open();
    while (idle.length && queue.length) {
      const { id, task, transfer } = queue.shift()!;
      idle.pop()!.postMessage({ pool, id, task } satisfies HostMessage, transfer);
    }
  };
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
      // After a failure every thread of the pool stops: one may have died, others still be busy.
      const kept = failure ? [] : idle;
      const stopped = hosts.filter((h) => !kept.includes(h));
      for (const host of hosts) release(host);
      for (const host of kept) {
        host.postMessage({ close: pool } satisfies HostMessage);
        giveBack(host);
      }
      await Promise.all(stopped.map((h) => h.terminate()));
    },
  };
}

/**
 * Work a stage does on the calling thread before it starts threads: about what starting one
 * costs, so a small release's stages never pay for threads, and a large one's hardly notice.
 */
const HERE_FIRST_MS = 250;

/**
 * Set (ORTH_THREADS_ALWAYS=1, inherited by the processes a compile starts) where small inputs
 * must still run their work on threads: the tests that compare the bytes of any `jobs`.
 */
export const threadsAlways = () => Boolean(process.env.ORTH_THREADS_ALWAYS);

/**
 * Runs `tasks` and hands each result to `take` in the order its task came, so what `take` writes
 * is the same bytes at any `jobs`. The tasks go one after another on this thread, served by
 * `module`'s own `serve`, for HERE_FIRST_MS (see threadsAlways), or all of them with one job;
 * the rest on up to `jobs` worker threads serving `module` (at most two tasks a thread in
 * flight, while this thread makes the next and takes the earliest).
 */
export async function runTasksInOrder<Task, Result>(
  tasks: Iterable<Task> | AsyncIterable<Task>,
  take: (result: Result) => void,
  options: { module: URL; jobs: number; workerData?: unknown; transfer?: (task: Task) => ArrayBuffer[] },
): Promise<void> {
  const { jobs } = options;
  const data = options.workerData ?? {};
  const iterator: AsyncIterator<Task> | Iterator<Task> = Symbol.asyncIterator in tasks ? tasks[Symbol.asyncIterator]() : tasks[Symbol.iterator]();
  const startedHere = performance.now();
  const staysHere = () => jobs <= 1 || (!threadsAlways() && performance.now() - startedHere < HERE_FIRST_MS);
  let here: ((task: Task) => Answered<Result> | Promise<Answered<Result>>) | undefined;
  let step = await iterator.next();
  for (; !step.done && staysHere(); step = await iterator.next()) {
    here ??= ((await import(options.module.href)) as { serve: TaskServer<Task, Result> }).serve(data);
    take((await here(step.value)).result);
  }
  if (step.done) return;
  const pool = taskPool<Task, Result>(options.module, jobs, data);
  try {
    const inFlight: Array<Promise<Result>> = [];
    for (; !step.done; step = await iterator.next()) {
      inFlight.push(pool.run(step.value, options.transfer?.(step.value)));
      if (inFlight.length >= 2 * jobs) take(await inFlight.shift()!);
    }
    for (const result of inFlight) take(await result);
  } finally {
    await pool.close();
  }
}

/**
 * The thread side of taskPool: opens each pool's server when the pool opens on this thread
 * (importing its module), and answers each task with it, posting the buffers it names.
 */
export function hostTasks(): void {
  const servers = new Map<number, Promise<(task: unknown) => Answered<unknown> | Promise<Answered<unknown>>>>();
  parentPort!.on("message", async (message: HostMessage) => {
    if ("open" in message) {
      const { open, module, data } = message;
      servers.set(open, import(module).then((m: { serve: TaskServer<unknown, unknown> }) => m.serve(data)));
      // A module that fails to load answers each task with its error.
      servers.get(open)!.catch(() => {});
      return;
    }
    if ("close" in message) {
      servers.delete(message.close);
      return;
    }
    const { pool, id, task } = message;
    let answer: Answered<unknown>;
    try {
      const serve = servers.get(pool);
      if (!serve) throw new Error(`no pool ${pool} is open on this thread`);
      answer = await (await serve)(task);
    } catch (error) {
      parentPort!.postMessage({ id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      return;
    }
    parentPort!.postMessage({ id, result: answer.result }, answer.transfer);
  });
}

/** A copy of `values` in shared memory: worker threads posted it read it in place rather than each a copy. */
export function sharedInt32(values: ArrayLike<number>): Int32Array {
  const shared = new Int32Array(new SharedArrayBuffer(values.length * Int32Array.BYTES_PER_ELEMENT));
  shared.set(values);
  return shared;
}
