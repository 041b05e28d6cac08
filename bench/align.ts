/**
 * Micro-benchmark of release-format/align.ts: 50 alignments of 400 × 400 residues (one query against
 * 50 targets, as the approximate sequence search does), score-only and with traceback.
 * Run with `npx tsx bench/align.ts`.
 */
import { encode, localAlignment, localScore } from "../release-format/align.js";

const AMINO = "ARNDCQEGHILKMFPSTWYV";
let seed = 12345;
function rand(): number {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 4294967296;
}
function randomSeq(length: number): string {
  let s = "";
  for (let k = 0; k < length; k++) s += AMINO[Math.floor(rand() * AMINO.length)];
  return s;
}
/** Half of the targets are relatives of the query (20% substitutions, a few indels). */
function relative(s: string): string {
  let out = "";
  for (let k = 0; k < s.length; k++) {
    const r = rand();
    if (r < 0.2) out += randomSeq(1);
    else if (r < 0.21) out += randomSeq(3) + s[k];
    else if (r >= 0.22) out += s[k];
  }
  return (out + randomSeq(400)).slice(0, 400);
}

const LENGTH = 400;
const COUNT = 50;
const ROUNDS = 20;
const query = randomSeq(LENGTH);
const targets = Array.from({ length: COUNT }, (_, k) => (k % 2 ? relative(query) : randomSeq(LENGTH)));
const q = encode(query);
const encoded = targets.map(encode);
const cells = LENGTH * LENGTH * COUNT;

function run(name: string, once: () => number): void {
  let sink = once(); // warm-up
  const times: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = performance.now();
    sink += once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[times.length >> 1];
  const mcps = cells / (median / 1000) / 1e6;
  console.log(
    `${name.padEnd(34)} ${median.toFixed(2).padStart(8)} ms / ${COUNT} × ${LENGTH}×${LENGTH}` +
      `  ${mcps.toFixed(0).padStart(5)} M cells/s  (best ${(cells / (times[0] / 1000) / 1e6).toFixed(0)}, checksum ${sink})`,
  );
}

run("localScore (encoded)", () => {
  let s = 0;
  for (const t of encoded) s += localScore(q, t);
  return s;
});
run("encode + localScore", () => {
  let s = 0;
  const qq = encode(query);
  for (const t of targets) s += localScore(qq, encode(t));
  return s;
});
run("localAlignment (with traceback)", () => {
  let s = 0;
  for (const t of targets) s += localAlignment(query, t).score;
  return s;
});
