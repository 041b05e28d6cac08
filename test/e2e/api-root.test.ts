/** `GET /api/` (reference A.1): the resource names and their absolute list URLs. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, serveRelease, type ServedRelease } from "./serve.js";

const RESOURCES = ["protein", "group", "version", "xref", "genome", "hog", "taxonomy", "synteny"];

describe("the API root", () => {
  let served: ServedRelease;
  beforeAll(async () => {
    served = await serveRelease("sim");
  });
  afterAll(() => served?.dispose());

  it("maps exactly the listed resources to their absolute list URLs", async () => {
    const { base, origin, manifest } = served;
    const root = await getJson(`${base}/`);
    expect(root).toEqual(Object.fromEntries(RESOURCES.map((r) => [r, `${base}/${r}/`])));
    const api = await getJson(`${base}/?format=api`, { headers: { Accept: "application/json" } });
    expect(api).toEqual(Object.fromEntries(RESOURCES.map((r) => [r, `${base}/${r}/?format=api`])));
    const proxied = await getJson(`${base}/`, { headers: { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "orth.example.org" } });
    expect(proxied.protein).toBe("https://orth.example.org/api/protein/");
    const named = await getJson(`${origin}/release/${manifest.name}/api/`);
    expect(named.genome).toBe(`${origin}/release/${manifest.name}/api/genome/`);
    const redirect = await fetch(`${origin}/api`, { redirect: "manual" });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get("Location")).toBe("/api/");
  });
});
