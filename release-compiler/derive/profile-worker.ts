/** The worker side of similarProfiles (profiles.ts): scores each task's profiles over the shared index. */
import type { TaskServer } from "../workers.js";
import { profileScorer, type ProfileIndex, type ProfileTask, type ScoredProfiles } from "./profiles.js";

export const serve: TaskServer<ProfileTask, ScoredProfiles, ProfileIndex> = (index) => {
  const score = profileScorer(index);
  return (task) => {
    const found = score(task);
    return { result: found, transfer: [found.counts.buffer as ArrayBuffer, found.others.buffer as ArrayBuffer, found.scores.buffer as ArrayBuffer] };
  };
};
