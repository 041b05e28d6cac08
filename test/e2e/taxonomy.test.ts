/**
 * `GET /api/taxonomy/` and `/api/taxonomy/{root_id}/` (reference C.7) against the species tree
 * and species_info of the inputs: dictionary, newick and phyloXML forms, induced subtrees,
 * collapsing, labels, content negotiation and every parameter error.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { data, hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { parseTsv } from "./oracle.js";
import { getJson, serveRealReleases, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";
import { findAll, parseXml, type XmlElement } from "./xml-oracle.js";

warnWithoutSharedData("the taxonomy tests on the real primates and bacteria3 releases");
const get = (url: string, init?: RequestInit) => fetch(url, { redirect: "manual", ...init });

interface Tree {
  name: string;
  children: Tree[];
}

/** Newick with plain names and optional branch lengths (what the inputs use). */
function parseNewick(text: string): Tree {
  let at = 0;
  const s = text.trim().replace(/;$/, "");
  const node = (): Tree => {
    const children: Tree[] = [];
    if (s[at] === "(") {
      at += 1;
      children.push(node());
      while (s[at] === ",") {
        at += 1;
        children.push(node());
      }
      expect(s[at]).toBe(")");
      at += 1;
    }
    const m = /^[^(),:;]*/.exec(s.slice(at))![0];
    at += m.length;
    if (s[at] === ":") at += /^:[^(),;]*/.exec(s.slice(at))![0].length;
    return { name: m.trim(), children };
  };
  return node();
}

/** The input tree as the dictionary form shows it, internal ids left out (they are the release's). */
function expectedDictionary(
  tree: Tree,
  species: Map<string, { taxonId: number; name: string }>,
  options: { members?: Set<string>; collapse?: boolean } = {},
): unknown {
  const { members, collapse = true } = options;
  const build = (t: Tree): any => {
    if (t.children.length === 0) {
      const s = species.get(t.name)!;
      return members && !members.has(t.name) ? undefined : { name: s.name, id: s.taxonId, code: t.name };
    }
    const children = t.children.map(build).filter(Boolean);
    if (members && children.length === 0) return members.has(t.name) ? { name: t.name } : undefined;
    if (collapse && children.length === 1 && !members?.has(t.name)) return children[0];
    return { name: t.name, children };
  };
  return build(tree);
}

/** A dictionary with the ids of internal levels removed (returned separately). */
function withoutInternalIds(d: any, ids: number[] = []): any {
  if (d.code) return d;
  ids.push(d.id);
  const { id: _, children, ...rest } = d;
  return children ? { ...rest, children: children.map((c: any) => withoutInternalIds(c, ids)) } : rest;
}

/** The input Newick without branch lengths, leaves labelled as the release labels them. */
function newickOf(tree: Tree, leaf: (code: string) => string, internal: (name: string) => string = (n) => n): string {
  const write = (t: Tree): string => (t.children.length ? `(${t.children.map(write).join(",")})${internal(t.name)}` : leaf(t.name));
  return `${write(tree)};`;
}

function readInputs(dir: string, treeFile: string) {
  const tree = parseNewick(readFileSync(resolve(dir, treeFile), "utf8"));
  const species = new Map(
    parseTsv(readFileSync(resolve(dir, "species_info.tsv"), "utf8")).map((r) => [r.Name, { taxonId: Number(r.NCBITaxonId), name: r.ScientificName }]),
  );
  return { tree, species };
}

describe("taxonomy of the simulated release", () => {
  let served: ServedRelease;
  let base: string;
  let tree: Tree;
  let species: Map<string, { taxonId: number; name: string }>;
  const codes = () => [...species.keys()];

  beforeAll(async () => {
    served = await serveRelease("sim");
    base = served.base;
    ({ tree, species } = readInputs(resolve(TEST_BUILD, "sim-input"), "species_tree.nwk"));
  });
  afterAll(() => served?.dispose());

  it("gives the whole species tree as a nested dictionary, species with code and NCBI id", async () => {
    const body = await getJson(`${base}/taxonomy/`);
    const ids: number[] = [];
    expect(withoutInternalIds(body, ids)).toEqual(expectedDictionary(tree, species));
    // Internal levels: distinct integer ids, none an NCBI id of a species here.
    expect(ids.every(Number.isInteger)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(await getJson(`${base}/taxonomy/?type=json`)).toEqual(body);
    expect(await getJson(`${base}/taxonomy/LUCA/`)).toEqual(body);
    expect(await getJson(`${base}/taxonomy/${encodeURIComponent(tree.name)}/`)).toEqual(body);
  });

  it("writes newick with scientific or code leaf labels, sciname, taxid or no internal labels", async () => {
    const byCode = await getJson(`${base}/taxonomy/?type=newick&newick_leaf_label=species_code`);
    expect(byCode.newick).toBe(newickOf(tree, (c) => c));
    expect(byCode.root_taxon.name).toBe(tree.name);
    expect(Number.isInteger(byCode.root_taxon.taxon_id)).toBe(true);
    const byName = await getJson(`${base}/taxonomy/?type=nk`);
    expect(byName.newick).toBe(newickOf(tree, (c) => species.get(c)!.name.replaceAll(" ", "_")));
    expect((await getJson(`${base}/taxonomy/?type=nhx`)).newick).toBe(byName.newick);
    const bare = await getJson(`${base}/taxonomy/?type=newick&newick_internal_label=none&newick_leaf_label=species_code`);
    expect(bare.newick).toBe(newickOf(tree, (c) => c, () => ""));
    const dictionary = await getJson(`${base}/taxonomy/`);
    const taxids = await getJson(`${base}/taxonomy/?type=newick&newick_internal_label=taxid&newick_leaf_label=species_code`);
    const idOf = new Map<string, number>();
    const walk = (d: any) => {
      idOf.set(d.name, d.id);
      d.children?.forEach(walk);
    };
    walk(dictionary);
    expect(taxids.newick).toBe(newickOf(tree, (c) => c, (n) => String(idOf.get(n))));
    const quoted = await getJson(`${base}/taxonomy/HUMAN/?type=newick&newick_quote_labels=true`);
    expect(quoted).toEqual({ root_taxon: { name: "Homo sapiens", taxon_id: 9606 }, newick: "'Homo sapiens';" });
  });

  it("answers raw newick to Accept text/x-nh or application/x-newick when no type is given", async () => {
    const expected = newickOf(tree, (c) => species.get(c)!.name.replaceAll(" ", "_"));
    for (const accept of ["text/x-nh", "application/x-newick"]) {
      const res = await get(`${base}/taxonomy/`, { headers: { Accept: accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get("Content-Type")).toMatch(new RegExp(`^${accept}`));
      expect(await res.text()).toBe(expected);
    }
    const typed = await get(`${base}/taxonomy/?type=dictionary`, { headers: { Accept: "text/x-nh" } });
    expect(typed.headers.get("Content-Type")).toBe("application/json");
  });

  it("induces the subtree of members (codes, taxon ids, names; comma list or repeated), collapsing single-child levels", async () => {
    const all = codes();
    const picks = [all.slice(0, 2), [all[0], all[2], all[5]], [all[1], all.at(-1)!], all.filter((_, i) => i % 3 === 0), [all[3]]];
    for (const members of picks) {
      const expected = expectedDictionary(tree, species, { members: new Set(members) });
      const asIds = members.map((c, i) => (i % 3 === 0 ? c : i % 3 === 1 ? String(species.get(c)!.taxonId) : species.get(c)!.name));
      const list = await getJson(`${base}/taxonomy/?members=${asIds.map(encodeURIComponent).join(",")}`);
      expect(withoutInternalIds(list), members.join(",")).toEqual(expected);
      const repeated = await getJson(`${base}/taxonomy/?${asIds.map((m) => `members=${encodeURIComponent(m)}`).join("&")}`);
      expect(repeated).toEqual(list);
      const uncollapsed = await getJson(`${base}/taxonomy/?collapse=false&members=${members.join(",")}`);
      expect(withoutInternalIds(uncollapsed)).toEqual(expectedDictionary(tree, species, { members: new Set(members), collapse: false }));
    }
    // An internal level as a member is a leaf of the induced tree, and survives collapsing.
    const internal = tree.children.find((c) => c.children.length)!;
    const leaf = codes().find((c) => !JSON.stringify(internal).includes(`"${c}"`))!;
    const mixed = await getJson(`${base}/taxonomy/?members=${encodeURIComponent(internal.name)},${leaf}`);
    expect(withoutInternalIds(mixed)).toEqual(expectedDictionary(tree, species, { members: new Set([internal.name, leaf]) }));
  });

  it("roots the tree at a level given by name, species code, taxon id or LUCA", async () => {
    const level = tree.children.find((c) => c.children.length)!;
    const sub = await getJson(`${base}/taxonomy/${encodeURIComponent(level.name)}/`);
    expect(withoutInternalIds(sub)).toEqual(expectedDictionary(level, species));
    const [code, s] = [...species][0];
    const leaf = { name: s.name, id: s.taxonId, code };
    for (const id of [code, String(s.taxonId), encodeURIComponent(s.name)]) expect(await getJson(`${base}/taxonomy/${id}/`)).toEqual(leaf);
    const byId = await getJson(`${base}/taxonomy/${sub.id}/?type=newick&newick_leaf_label=species_code`);
    expect(byId.newick).toBe(newickOf(level, (c) => c));
    expect(byId.root_taxon).toEqual({ name: level.name, taxon_id: sub.id });
  });

  it("gives phyloXML as JSON from version 1.11 and raw up to 1.10", async () => {
    const members = codes().slice(0, 4);
    const json = await getJson(`${base}/taxonomy/?type=phyloxml&members=${members.join(",")}`);
    const xml = parseXml(json.phyloxml);
    expect(xml.name).toBe("phyloxml");
    const clades = findAll(xml, "clade");
    const leaves = clades.filter((c) => !c.children.some((k) => k.name === "clade"));
    const text = (e: XmlElement, ...path: string[]) => path.reduce<XmlElement | undefined>((x, n) => x?.children.find((c) => c.name === n), e)?.text;
    expect(leaves.map((l) => text(l, "taxonomy", "code")).sort()).toEqual([...members].sort());
    for (const l of leaves) {
      const s = species.get(text(l, "taxonomy", "code")!)!;
      expect(text(l, "name")).toBe(s.name);
      expect(text(l, "taxonomy", "id")).toBe(String(s.taxonId));
    }
    expect(json.root_taxon.name).toBe(text(clades[0], "name"));
    const raw = await get(`${base}/taxonomy/?type=phyloxml&members=${members.join(",")}`, { headers: { Accept: "application/json; version=1.10" } });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("Content-Type")).toBe("application/vnd.phyloxml+xml");
    expect(await raw.text()).toBe(json.phyloxml);
  });

  it("refuses bad parameters with 400 and an unknown root with 404", async () => {
    const first = codes()[0];
    const cases: Array<[string, number, string]> = [
      ["/taxonomy/?type=xml", 400, "Invalid type='xml'. Choose from: dictionary, json, newick, nk, nhx, phyloxml"],
      ["/taxonomy/?collapse=maybe", 400, "Invalid collapse='maybe'. Choose from: true, false"],
      ["/taxonomy/?type=newick&newick_quote_labels=2", 400, "Invalid newick_quote_labels='2'. Choose from: true, false"],
      ["/taxonomy/?type=newick&newick_leaf_label=code", 400, "Invalid newick_leaf_label='code'. Choose from: sciname, species_code"],
      ["/taxonomy/?type=newick&newick_internal_label=id", 400, "Invalid newick_internal_label='id'. Choose from: sciname, taxid, none"],
      [`/taxonomy/?members=${first},NOPE1`, 400, "Unknown member 'NOPE1': not a taxon id, species code or scientific name of this release."],
      [`/taxonomy/${first}/?members=${codes()[1]}`, 400, `Member '${species.get(codes()[1])!.name}' is not below the root level '${species.get(first)!.name}'.`],
      ["/taxonomy/Nowhere/", 404, "root level 'Nowhere' not found"],
      ["/taxonomy/123456789/", 404, "root level '123456789' not found"],
    ];
    for (const [path, status, detail] of cases) {
      const res = await get(`${base}${path}`);
      expect(res.status, path).toBe(status);
      expect(await res.json(), path).toEqual({ detail });
    }
    expect((await get(`${base}/taxonomy/?collapse=FALSE`)).status).toBe(200);
    expect((await get(`${base}/taxonomy/`, { method: "POST" })).status).toBe(405);
  });
});

describe.skipIf(!hasSharedData)("taxonomy of the real releases", () => {
  let primates: ServedRelease;
  let bacteria: ServedRelease;
  serveRealReleases((p, b) => {
    primates = p;
    bacteria = b;
  });

  it("primates: the input tree with the species' NCBI ids; the species-code newick is the input", async () => {
    const { tree, species } = readInputs(data("primates-chr12"), "species_tree.nwk");
    expect(withoutInternalIds(await getJson(`${primates.base}/taxonomy/`))).toEqual(expectedDictionary(tree, species));
    const nk = await getJson(`${primates.base}/taxonomy/?type=newick&newick_leaf_label=species_code`);
    expect(nk.newick).toBe(readFileSync(data("primates-chr12/species_tree.nwk"), "utf8").trim());
    const hominidae = await getJson(`${primates.base}/taxonomy/Hominidae/?members=HUMAN,PANTR,9595&type=newick`);
    expect(hominidae).toMatchObject({ root_taxon: { name: "Homininae" }, newick: "(Gorilla_gorilla_gorilla,Pan_troglodytes,Homo_sapiens)Homininae;" });
  });

  it("bacteria3: names Newick cannot carry bare are quoted", async () => {
    const { newick } = await getJson(`${bacteria.base}/taxonomy/?type=newick`);
    expect(newick).toMatch(/^\(\('Aquifex aeolicus \(strain VF5\)','Chlamydia trachomatis [^']*'\)inter1,'Mycoplasma genitalium [^']*'\)inter2;$/);
  });
});
