/**
 * The worker side of fingerprintGroups (fingerprints.ts): finds the candidates of each batch of
 * groups it is sent, or counts the candidates in each run of proteins into the shared table.
 */
import type { Answered, TaskServer } from "../workers.js";
import { countCandidates, countingSlots, groupCandidates, type CandidateTable, type CandidateTask, type Candidates, type CountTask } from "./fingerprints.js";

type Data = { kind: "candidates" } | { kind: "counts"; table: CandidateTable };

export const serve: TaskServer<CandidateTask | CountTask, Candidates | null, Data> = (data) => {
  if (data.kind === "candidates") {
    return (task): Answered<Candidates> => {
      const found = groupCandidates(task as CandidateTask);
      return { result: found, transfer: [found.codes.buffer as ArrayBuffer, found.counts.buffer as ArrayBuffer] };
    };
  }
  const { table } = data;
  const own = countingSlots(table);
  return (task) => {
    countCandidates(task as CountTask, table, own);
    return { result: null, transfer: [] };
  };
};
