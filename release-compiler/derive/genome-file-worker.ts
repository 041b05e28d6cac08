/** A worker thread of genome-files.ts: reads the genome files it is sent. */
import { serveTasks } from "../workers.js";
import { readGenomeFile, type GenomeFileRead, type GenomeFileTask } from "./genome-files.js";

serveTasks<GenomeFileTask, GenomeFileRead>(async (task) => ({ result: await readGenomeFile(task), transfer: [] }));
