/**
 * HOG OrthoXML export (`/api/hog/{id}/orthoxml/`, `/orth/hog/{id}/orthoxml/`, `…/augmented/`):
 * every exported document valid against orthoxml-0.5.xsd, its genes and groups checked against
 * the simulator's true HOGs and against the real primates orthoXML input.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateXML } from "xmllint-wasm";
import { data, hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { parseFasta, parseTsv } from "./oracle.js";
import { serveRealReleases, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";
import { findAll, parseXml, type XmlElement } from "./xml-oracle.js";

warnWithoutSharedData("the orthoXML schema validation and the primates orthoXML comparison");
const XSD = hasSharedData ? readFileSync(data("orthoxml-spec/orthoxml-0.5.xsd"), "utf8") : "";
const get = (url: string, init?: RequestInit) => fetch(url, { redirect: "manual", ...init });

/** Validates documents against the 0.5 schema in one run; returns the messages of the invalid ones. */
async function schemaErrors(docs: Array<[string, string]>): Promise<string[]> {
  const result = await validateXML({
    xml: docs.map(([fileName, contents]) => ({ fileName, contents })),
    schema: [{ fileName: "orthoxml-0.5.xsd", contents: XSD }],
    maxMemoryPages: 4096,
  });
  return result.errors.map((e) => e.rawMessage);
}

/** Entry number and orthid of every protein id of a release's inputs: genomes in species_info order, proteins in FASTA order. */
function numbering(speciesInfo: string, proteome: (code: string) => string) {
  const byId = new Map<string, { entry: number; orthid: string; code: string }>();
  let entry = 0;
  for (const row of parseTsv(readFileSync(speciesInfo, "utf8"))) {
    let i = 0;
    for (const id of parseFasta(readFileSync(proteome(row.Name), "utf8")).keys()) {
      entry += 1;
      i += 1;
      byId.set(id, { entry, orthid: `${row.Name}${String(i).padStart(5, "0")}`, code: row.Name });
    }
  }
  const byOrthid = new Map([...byId].map(([id, p]) => [p.orthid, { ...p, id }]));
  return { byId, byOrthid };
}

/** Input protein ids below a group of an exported document (gene id → protId → input id). */
function exportedProteins(doc: XmlElement, byOrthid: Map<string, { id: string; entry: number }>) {
  const genes = new Map<string, string>();
  for (const g of findAll(doc, "gene")) {
    const p = byOrthid.get(g.attrs.protId);
    expect(p, g.attrs.protId).toBeDefined();
    expect(g.attrs.id).toBe(String(p!.entry));
    genes.set(g.attrs.id, p!.id);
  }
  return (e: XmlElement) => findAll(e, "geneRef").map((r) => genes.get(r.attrs.id)!).sort();
}

const property = (e: XmlElement, name: string) => e.children.find((c) => c.name === "property" && c.attrs.name === name)?.attrs.value;

describe("orthoXML of the simulated release", () => {
  const INPUT = resolve(TEST_BUILD, "sim-input");
  let served: ServedRelease;
  let base: string;
  let prefix: string;
  let numbers: ReturnType<typeof numbering>;
  /** True HOG id (with the release letters) of each protein in a HOG, and each root's proteins. */
  const hogOf = new Map<string, string>();
  const roots = new Map<string, string[]>();
  const docs = new Map<string, { plain: string; augmented: string }>();

  beforeAll(async () => {
    served = await serveRelease("sim");
    base = served.base;
    prefix = `HOG:${served.manifest.hogPrefix}`;
    numbers = numbering(resolve(INPUT, "species_info.tsv"), (code) => resolve(INPUT, `proteome/${code}.fa`));
    for (const t of parseTsv(readFileSync(resolve(INPUT, "truth/hogs.tsv"), "utf8"))) {
      hogOf.set(t.protein, t.hog_id.replace("HOG:", prefix));
      const root = t.root_hog.replace("HOG:", prefix);
      roots.set(root, [...(roots.get(root) ?? []), t.protein]);
    }
    await Promise.all(
      [...roots.keys()].map(async (root) => {
        const [plain, augmented] = await Promise.all(
          [`${base}/hog/${root}/orthoxml/`, `${base}/hog/${root}/orthoxml/augmented/`].map(async (url) => {
            const res = await get(url);
            expect(res.status, url).toBe(200);
            expect(res.headers.get("Content-Type")).toBe("application/xml");
            return res.text();
          }),
        );
        docs.set(root, { plain, augmented });
      }),
    );
  });
  afterAll(() => served?.dispose());

  it("exports each root HOG with exactly its true members, the root named by its id", () => {
    expect(roots.size).toBeGreaterThan(50);
    for (const [root, members] of roots) {
      const doc = parseXml(docs.get(root)!.plain);
      expect(doc.name).toBe("orthoXML");
      expect(doc.attrs.xmlns).toBe("http://orthoXML.org/2011/");
      expect(doc.attrs.version).toBe("0.5");
      const below = exportedProteins(doc, numbers.byOrthid);
      const groups = doc.children.find((c) => c.name === "groups")!;
      expect(groups.children).toHaveLength(1);
      expect(groups.children[0].attrs.id, root).toBe(root);
      expect(below(groups), root).toEqual([...members].sort());
      // Species blocks: each gene under its own genome.
      for (const species of findAll(doc, "species")) {
        const codes = new Set(findAll(species, "gene").map((g) => numbers.byOrthid.get(g.attrs.protId)!.code));
        expect(codes.size).toBe(1);
      }
    }
  });

  it("names each sub-HOG where it begins, over exactly its true members, once", () => {
    let named = 0;
    for (const [root, members] of roots) {
      const doc = parseXml(docs.get(root)!.plain);
      const below = exportedProteins(doc, numbers.byOrthid);
      const groups = [...findAll(doc, "orthologGroup"), ...findAll(doc, "paralogGroup")].filter((g) => g.attrs.id);
      const ids = groups.map((g) => g.attrs.id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const g of groups) {
        const id = g.attrs.id;
        const truth = members.filter((p) => hogOf.get(p) === id || hogOf.get(p)!.startsWith(`${id}.`)).sort();
        expect(below(g), id).toEqual(truth);
        named += 1;
      }
      // Every (sub-)HOG with two or more genes is named (one gene alone is a plain geneRef).
      const hogIds = new Set(members.flatMap((p) => hogOf.get(p)!.split(".").map((_, i, parts) => parts.slice(0, i + 1).join("."))));
      for (const id of hogIds) {
        const size = members.filter((p) => hogOf.get(p) === id || hogOf.get(p)!.startsWith(`${id}.`)).length;
        if (size >= 2) expect(ids, `${id} in ${root}`).toContain(id);
      }
    }
    expect(named).toBeGreaterThan(roots.size);
  });

  it("places every orthologGroup on a level of the species tree that holds all its genes", () => {
    const tree = readFileSync(resolve(INPUT, "species_tree.nwk"), "utf8").trim().replace(/;$/, "");
    const info = parseTsv(readFileSync(resolve(INPUT, "species_info.tsv"), "utf8"));
    const nameOfCode = new Map(info.map((r) => [r.Name, r.ScientificName]));
    // Species codes below each named level, from the Newick text: a level's clade is the text before its name.
    const codesBelow = new Map<string, Set<string>>();
    const stack: string[][] = [];
    for (const m of tree.matchAll(/\(|\)([^(),;]*)|([^(),;]+)/g)) {
      if (m[0] === "(") stack.push([]);
      else if (m[0].startsWith(")")) {
        const clade = stack.pop()!;
        codesBelow.set(m[1], new Set(clade));
        stack[stack.length - 1]?.push(...clade);
      } else {
        stack[stack.length - 1].push(m[2]);
        codesBelow.set(nameOfCode.get(m[2])!, new Set([m[2]]));
      }
    }
    let checked = 0;
    for (const { plain } of docs.values()) {
      const doc = parseXml(plain);
      const codeOf = new Map(findAll(doc, "gene").map((g) => [g.attrs.id, numbers.byOrthid.get(g.attrs.protId)!.code]));
      for (const g of findAll(doc, "orthologGroup")) {
        const level = property(g, "TaxRange")!;
        expect(codesBelow.has(level), level).toBe(true);
        for (const r of findAll(g, "geneRef")) expect(codesBelow.get(level)!.has(codeOf.get(r.attrs.id)!), level).toBe(true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(roots.size);
  });

  it("augmented: names the HOG on every orthologGroup, continuations included", () => {
    let continuations = 0;
    for (const [root, { plain, augmented }] of docs) {
      const doc = parseXml(augmented);
      const below = exportedProteins(doc, numbers.byOrthid);
      const plainIds = findAll(parseXml(plain), "orthologGroup").map((g) => g.attrs.id);
      const groups = findAll(doc, "orthologGroup");
      expect(groups.map((g) => g.attrs.id), root).toEqual(plainIds);
      for (const g of groups) {
        const id = property(g, "HOGid")!;
        expect(id, root).toMatch(/^HOG:/);
        for (const p of below(g)) expect(hogOf.get(p) === id || hogOf.get(p)!.startsWith(`${id}.`), `${p} below ${id}`).toBe(true);
        if (!g.attrs.id) continuations += 1;
      }
    }
    expect(continuations).toBeGreaterThan(0);
  });

  it.skipIf(!hasSharedData)("is valid against orthoxml-0.5.xsd, plain and augmented", async () => {
    const all = [...docs].flatMap(([root, d]): Array<[string, string]> => [
      [`${root.replace(":", "_")}.xml`, d.plain],
      [`${root.replace(":", "_")}-augmented.xml`, d.augmented],
    ]);
    expect(await schemaErrors(all)).toEqual([]);
  });

  it("serves the same document under /orth/, for a sub-HOG id and for a member's protein id", async () => {
    const [root, members] = [...roots].find(([, m]) => m.some((p) => hogOf.get(p)!.includes(".")))!;
    const sub = hogOf.get(members.find((p) => hogOf.get(p)!.includes("."))!)!;
    const expected = docs.get(root)!;
    for (const path of [`/orth/hog/${root}/orthoxml/`, `/orth/hog/${sub}/orthoxml/`, `/api/hog/${sub}/orthoxml/`, `/api/hog/${members[0]}/orthoxml/`]) {
      const res = await get(`${served.origin}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("application/xml");
      expect(await res.text(), path).toBe(expected.plain);
    }
    const augmented = await get(`${served.origin}/orth/hog/${encodeURIComponent(sub)}/orthoxml/augmented/`);
    expect(await augmented.text()).toBe(expected.augmented);
    const head = await get(`${served.origin}/orth/hog/${root}/orthoxml/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    const redirect = await get(`${served.origin}/orth/hog/${root}/orthoxml`);
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get("Location")).toBe(`/orth/hog/${root}/orthoxml/`);
  });

  it("answers unknown, malformed and other-release ids with JSON errors", async () => {
    const cases: Array<[string, number, string]> = [
      [`/orth/hog/${prefix}9999999/orthoxml/`, 404, `requested id '${prefix}9999999' is unknown`],
      [`/api/hog/${prefix}9999999/orthoxml/augmented/`, 404, `requested id '${prefix}9999999' is unknown`],
      ["/orth/hog/HOG:not-an-id/orthoxml/", 404, "Invalid hog id: HOG:not-an-id"],
      ["/orth/hog/HOG:QQ0000001/orthoxml/", 410, "ID HOG:QQ0000001 is no longer valid."],
      ["/api/hog/NO_SUCH_PROTEIN/orthoxml/", 404, "requested id 'NO_SUCH_PROTEIN' is unknown"],
    ];
    for (const [path, status, detail] of cases) {
      const res = await get(`${served.origin}${path}`);
      expect(res.status, path).toBe(status);
      expect(res.headers.get("Content-Type")).toBe("application/json");
      expect(await res.json()).toEqual({ detail });
    }
    const post = await get(`${served.origin}/orth/hog/${prefix}0000001/orthoxml/`, { method: "POST" });
    expect(post.status).toBe(405);
    expect(await post.json()).toEqual({ detail: 'Method "POST" not allowed.' });
  });
});

describe.skipIf(!hasSharedData)("orthoXML of the real releases", () => {
  let primates: ServedRelease;
  let bacteria: ServedRelease;
  serveRealReleases((p, b) => {
    primates = p;
    bacteria = b;
  });

  it("primates: gives back the input's orthologGroups (level and genes) and root ids, valid against the schema", async () => {
    const DATA = data("primates-chr12");
    const numbers = numbering(`${DATA}/species_info.tsv`, (code) => `${DATA}/proteome/${code}.fa`);
    const input = parseXml(readFileSync(`${DATA}/FastOMA_HOGs.orthoxml`, "utf8"));
    const protOf = new Map(findAll(input, "gene").map((g) => [g.attrs.id, g.attrs.protId]));
    const inputRoots = input.children.find((c) => c.name === "groups")!.children;
    // Every 8th family, and every one whose root holds a duplication only.
    const sample = inputRoots.filter(
      (r, i) => i % 8 === 0 || (r.children.filter((c) => c.name.endsWith("Group")).length === 1 && !r.children.some((c) => c.name === "geneRef")),
    );
    expect(sample.length).toBeGreaterThan(200);
    const docs: Array<[string, string]> = [];
    await Promise.all(
      sample.map(async (root) => {
        const id = `HOG:E${root.attrs.id.slice(4).replace(/_[^_]*$/, "")}`;
        const res = await get(`${primates.base}/hog/${id}/orthoxml/`);
        expect(res.status, id).toBe(200);
        const text = await res.text();
        docs.push([`${id.replace(":", "_")}.xml`, text]);
        const doc = parseXml(text);
        const below = exportedProteins(doc, numbers.byOrthid);
        // orthologGroups as (level, genes); a duplication the served document writes for a HOG carries its TaxRange.
        const served = [...findAll(doc, "orthologGroup"), ...findAll(doc, "paralogGroup").filter((p) => property(p, "TaxRange"))]
          .map((g) => `${property(g, "TaxRange")}: ${below(g).join(" ")}`)
          .sort();
        const expected = findAll(root, "orthologGroup")
          .map((g) => `${property(g, "TaxRange")}: ${findAll(g, "geneRef").map((r) => protOf.get(r.attrs.id)!).sort().join(" ")}`)
          .sort();
        expect(served, id).toEqual(expected);
        const top = doc.children.find((c) => c.name === "groups")!.children[0];
        expect(top.attrs.id).toBe(id);
      }),
    );
    expect(await schemaErrors(docs)).toEqual([]);
  });

  it("bacteria3: every family valid, species named with their scientific names and NCBI taxon ids", async () => {
    const info = parseTsv(readFileSync(data("bacteria3/species_info.tsv"), "utf8"));
    const docs: Array<[string, string]> = [];
    for (let f = 1; f <= bacteria.manifest.counts.families; f++) {
      const id = `HOG:${bacteria.manifest.hogPrefix}${String(f).padStart(7, "0")}`;
      const res = await get(`${bacteria.base}/hog/${id}/orthoxml/augmented/`);
      if (res.status === 404) continue; // a family whose root id came from the input
      expect(res.status, id).toBe(200);
      const text = await res.text();
      docs.push([`${id.replace(":", "_")}.xml`, text]);
      for (const s of findAll(parseXml(text), "species")) {
        expect(info.map((r) => r.NCBITaxonId)).toContain(s.attrs.NCBITaxId);
        expect(s.attrs.name).toMatch(/\(strain /);
      }
    }
    expect(docs.length).toBeGreaterThan(5);
    expect(await schemaErrors(docs)).toEqual([]);
  });
});
