/** A worker thread of hog-families.ts: parses runs of orthoXML families and builds them. */
import { workerData } from "node:worker_threads";
import { serveTasks } from "../workers.js";
import { readHogRun, type HogRunContext, type HogRunTask } from "./hog-families.js";

const context = workerData as HogRunContext;
serveTasks<HogRunTask, Awaited<ReturnType<typeof readHogRun>>>(async (task) => ({ result: await readHogRun(context, task), transfer: [] }));
