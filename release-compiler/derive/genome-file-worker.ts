/** The worker side of genome-files.ts: reads the genome files it is sent. */
import type { TaskServer } from "../workers.js";
import { readGenomeFile, type GenomeFileRead, type GenomeFileTask } from "./genome-files.js";

export const serve: TaskServer<GenomeFileTask, GenomeFileRead> = () => async (task) => ({ result: await readGenomeFile(task), transfer: [] });
