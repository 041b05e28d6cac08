/** A worker thread of writeTableInTasks (tables.ts): packs the chunks of each task's rows. */
import { serveTasks } from "../workers.js";
import { packTableTask, type PackedChunks, type TableTask } from "./tables.js";

serveTasks<TableTask, PackedChunks>((task) => {
  const packed = packTableTask(task);
  return { result: packed, transfer: [packed.bytes.buffer as ArrayBuffer] };
});
