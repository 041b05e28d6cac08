/** The worker side of hog-families.ts: parses runs of orthoXML families and builds them. */
import type { TaskServer } from "../workers.js";
import { readHogRun, type HogRunContext, type HogRunTask } from "./hog-families.js";

export const serve: TaskServer<HogRunTask, Awaited<ReturnType<typeof readHogRun>>, HogRunContext> = (context) => async (task) => ({
  result: await readHogRun(context, task),
  transfer: [],
});
