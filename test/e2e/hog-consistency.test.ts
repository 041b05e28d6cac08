/**
 * The HOG interface agrees with itself on the HOG ids of the simulated release: records on
 * each level, alternative levels, parent and child links both ways, members nested by level.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, serveRelease, type ServedRelease } from "./serve.js";

describe("HOG interface consistency", () => {
  let served: ServedRelease;
  let base: string;
  beforeAll(async () => {
    served = await serveRelease("sim");
    base = served.base;
  });
  afterAll(() => served?.dispose());

  it("agrees on levels, links and members for every HOG id of the first 60 families", async () => {
    const roots: string[] = [];
    for (let f = 1; f <= served.manifest.counts.families; f++) {
      // The simulator numbers families in document order, as the compiler does.
      roots.push(`HOG:${served.manifest.hogPrefix}${String(f).padStart(7, "0")}`);
    }
    const seen = new Set<string>();
    const queue = roots.slice(0, 60);
    let checked = 0;
    while (queue.length) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const [record] = await getJson(`${base}/hog/${id}/`);
      expect(record.hog_id).toBe(id);
      const levels = [record.level, ...(record.alternative_levels ?? [])];
      const deepest = await getJson(`${base}/hog/${id}/members/`);
      const all = new Set(deepest.members.map((m: any) => m.entry_nr));
      expect(deepest.level).toBe(record.level);
      for (const level of levels) {
        const atLevel = await getJson(`${base}/hog/${id}/?level=${encodeURIComponent(level)}`);
        expect(atLevel.map((h: any) => h.hog_id), `${id} at ${level}`).toContain(id);
        const members = await getJson(`${base}/hog/${id}/members/?level=${encodeURIComponent(level)}`);
        expect(members.hog_id).toBe(id);
        for (const m of members.members) expect(all.has(m.entry_nr), `${id} at ${level}`).toBe(true);
      }
      for (const child of record.children_hogs) {
        expect(child.hog_id.startsWith(`${id}.`)).toBe(true);
        const [childRecord] = await getJson(child.levels_url);
        expect(childRecord.parent_hogs.map((p: any) => p.hog_id)).toContain(id);
        expect([childRecord.level, ...(childRecord.alternative_levels ?? [])]).toEqual(child.alternative_levels);
        // On the parent's deepest level, the child's members belong to the parent.
        const up = await getJson(`${base}/hog/${child.hog_id}/members/?level=${encodeURIComponent(record.level)}`);
        expect(up.hog_id).toBe(id);
        queue.push(child.hog_id);
      }
      for (const m of deepest.members) {
        expect(m.orth_hog_id === id || m.orth_hog_id.startsWith(`${id}.`), `${m.orthid} in ${id}`).toBe(true);
      }
      checked += 1;
    }
    expect(checked).toBeGreaterThan(100);
  });
});
