/**
 * One probe of bench/limits.ts, in a process of its own (a fresh heap; the array probe ends in
 * V8's fatal error): `tsx bench/limits-probe.ts map|array|bigmap|bigarray COUNT`. It prints JSON
 * lines: `{"length": n}` as an array grows, then one result.
 */
import { BigArray, BigMap } from "../release-compiler/collections.js";
import { stringOrder } from "../release-compiler/write/string-order.js";

const [probe, countText] = process.argv.slice(2);
const count = Number(countText);
const seconds = (since: number) => Math.round((performance.now() - since) / 100) / 10;
const heapMiB = () => Math.round(process.memoryUsage().heapUsed / 2 ** 20);
const report = (result: object) => console.log(JSON.stringify(result));

/** Ids much like a release's: a protein's own (`SIM0042P012345`), and cross-references of a few kinds. */
function idOf(i: number): string {
  switch (i % 4) {
    case 0:
      return `SIM${String(i % 2500).padStart(4, "0")}P${String(Math.floor(i / 2500)).padStart(6, "0")}`;
    case 1:
      return `ENSP${String(i).padStart(11, "0")}`;
    case 2:
      return `XP_${String(i).padStart(9, "0")}.1`;
    default:
      return `A${(i * 2654435761) % 1e9}`;
  }
}

/** Nanoseconds a lookup of `map` takes, over keys made before the clock starts: half of them held (of the first `held`), half not. */
function lookupNs(map: { get(key: string): unknown }, held: number): { lookupNs: number; found: number; lookups: number } {
  const lookups = 2_000_000;
  const asked = Array.from({ length: lookups }, (_, k) => {
    const i = Math.floor((((k * 2654435761) % 2 ** 32) / 2 ** 32) * held);
    return k % 2 ? idOf(i) : `${idOf(i)}-`;
  });
  const started = performance.now();
  let found = 0;
  for (const key of asked) if (map.get(key) !== undefined) found++;
  return { lookupNs: Math.round(((performance.now() - started) * 1e6) / lookups), found, lookups };
}

if (probe === "map") {
  // One Map: keys until V8 refuses one, then lookups in it as it is, full.
  const map = new Map<string, number>();
  const started = performance.now();
  let error: string | undefined;
  try {
    for (let i = 0; i < count; i++) map.set(idOf(i), i);
  } catch (refused) {
    error = (refused as Error).message;
  }
  const insert = seconds(started);
  report({ held: map.size, ...(error ? { error } : {}), insert, ...lookupNs(map, map.size), heapMiB: heapMiB() });
} else if (probe === "array") {
  // One array grown by push: V8 stops the process past its limit, so the length is told as it grows.
  const array: string[] = [];
  for (let i = 0; i < count; i++) {
    array.push("id");
    if ((i + 1) % (1 << 20) === 0) report({ length: i + 1 });
  }
  report({ held: array.length });
} else if (probe === "bigmap") {
  // The annotation resolver's ids of a large release: every key set, then hits and misses looked up.
  const map = new BigMap<string, number>();
  const started = performance.now();
  for (let i = 0; i < count; i++) map.set(idOf(i), i);
  const insert = seconds(started);
  report({ held: map.size, parts: map.data().parts.length, insert, ...lookupNs(map, count), heapMiB: heapMiB() });
} else if (probe === "bigarray") {
  // The entry id index's keys of a large release: pushed, then put in string order.
  const keys = new BigArray<string>();
  let started = performance.now();
  for (let i = 0; i < count; i++) keys.push(idOf(i));
  const push = seconds(started);
  started = performance.now();
  const order = stringOrder(keys);
  const sort = seconds(started);
  let sorted = true;
  for (let k = 1; k < order.length && sorted; k++) sorted = keys.at(order[k - 1]) <= keys.at(order[k]);
  report({ held: keys.length, segments: keys.segments.length, push, sort, sorted, heapMiB: heapMiB() });
} else {
  throw new Error(`limits-probe: unknown probe ${probe} (map, array, bigmap, bigarray)`);
}
