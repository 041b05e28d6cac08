/**
 * A worker thread of fingerprintGroups (fingerprints.ts): finds the candidates of each batch of
 * groups it is sent, or counts the candidates in each run of proteins into the shared table.
 */
import { workerData } from "node:worker_threads";
import { serveTasks } from "../workers.js";
import { countCandidates, groupCandidates, type CandidateTable, type CandidateTask, type Candidates, type CountTask } from "./fingerprints.js";

const data = workerData as { kind: "candidates" } | { kind: "counts"; table: CandidateTable };

if (data.kind === "candidates") {
  serveTasks<CandidateTask, Candidates>((task) => {
    const found = groupCandidates(task);
    return { result: found, transfer: [found.codes.buffer as ArrayBuffer, found.counts.buffer as ArrayBuffer] };
  });
} else {
  const { table } = data;
  const lastEntry = new Int32Array(table.slots.length);
  serveTasks<CountTask, null>((task) => {
    countCandidates(task, table, lastEntry);
    return { result: null, transfer: [] };
  });
}
