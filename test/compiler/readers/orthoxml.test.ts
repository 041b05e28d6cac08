import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { HogXmlNode } from "../../../release-compiler/inputs.js";
import { readOrthoXml } from "../../../release-compiler/readers/orthoxml.js";
import { data, hasSharedData } from "./data-path.js";
import { messages, Problems, tempFile } from "./tmp.js";

function geneRefs(n: HogXmlNode): string[] {
  if (n.kind === "geneRef") return [n.ref];
  return n.children.flatMap(geneRefs);
}

async function readAll(file: string) {
  const problems = new Problems();
  const families: HogXmlNode[] = [];
  const indices: number[] = [];
  const header = await readOrthoXml(file, problems, (root, index) => {
    families.push(root);
    indices.push(index);
  });
  return { problems, families, indices, header };
}

describe.skipIf(!hasSharedData)("readOrthoXml on real data", () => {
  it("reads primates-chr12: 1,984 families, 11 species, 11,143 genes, 7,950 geneRefs", async () => {
    const { problems, families, indices, header } = await readAll(data("primates-chr12/FastOMA_HOGs.orthoxml"));
    expect(messages(problems)).toEqual([]);
    expect(header.version).toBe("0.5");
    expect(families).toHaveLength(1984);
    expect(indices).toEqual(families.map((_, i) => i));
    expect(header.species.map((s) => s.name)).toEqual(["GORGO", "NOMLE", "MACMU", "PANPA", "MACFA", "CHLSB", "PAPAN", "HUMAN", "PANTR", "PONAB", "CALJA"]);
    expect(header.species.reduce((n, s) => n + s.genes.length, 0)).toBe(11_143);
    expect(header.species[0]).toMatchObject({ name: "GORGO", taxonId: "14", ncbiTaxId: "0", line: 3 });
    expect(header.species[0].genes[0]).toEqual({ id: "1000000001", protId: "ENSGGOG00000026749.2", line: 6 });
    expect(families.reduce((n, f) => n + geneRefs(f).length, 0)).toBe(7950);
    // taxonomy: one root with the named internal levels
    expect(header.taxonomy).toHaveLength(1);
    expect(header.taxonomy[0]).toMatchObject({ id: "1", name: "Simiiformes" });
    expect(header.taxonomy[0].children.map((t) => t.name)).toEqual(["CALJA", "Catarrhini"]);
    // the first family, exactly as written (geneRefs interleaved in document order)
    expect(families[0]).toEqual({
      kind: "orthologGroup",
      id: "HOG:0000001_11",
      taxonId: "11",
      completeness: 1,
      taxRange: "Hominidae",
      line: 11245,
      children: [
        {
          kind: "orthologGroup",
          id: "HOG:0000001_13",
          taxonId: "13",
          completeness: 1,
          taxRange: "Homininae",
          line: 11249,
          children: [
            { kind: "geneRef", ref: "1000000781", line: 11252 },
            { kind: "geneRef", ref: "1007000587", line: 11253 },
            {
              kind: "orthologGroup",
              id: "HOG:0000001_15",
              taxonId: "15",
              completeness: 1,
              taxRange: "Pan",
              line: 11254,
              children: [
                { kind: "geneRef", ref: "1003000303", line: 11257 },
                { kind: "geneRef", ref: "1008000323", line: 11258 },
              ],
            },
          ],
        },
        { kind: "geneRef", ref: "1009000805", line: 11261 },
      ],
    });
  });

  it("reads bacteria3: 12 families, 28 genes, all referenced", async () => {
    const { problems, families, header } = await readAll(data("bacteria3/FastOMA_HOGs.orthoxml"));
    expect(messages(problems)).toEqual([]);
    expect(families).toHaveLength(12);
    expect(header.species.map((s) => s.name).sort()).toEqual(["AQUAE", "CHLTR", "MYCGE"]);
    expect(families.flatMap(geneRefs)).toHaveLength(28);
  });

  it("reads every hog-fixtures file and every spec example without problems", async () => {
    const expected: Record<string, [families: number, geneRefs: number, genes: number]> = {
      "hog-fixtures/birds.orthoxml": [2, 87, 87],
      "hog-fixtures/cases.orthoxml": [1, 9, 9],
      "hog-fixtures/euk-HOG0001687.orthoxml": [1, 5, 1279],
      "hog-fixtures/inverted_level.orthoxml": [1, 3, 3],
      "hog-fixtures/paralogs_only_inside_og.orthoxml": [1, 6, 6],
      "hog-fixtures/paralogs_only_toplevel_og.orthoxml": [1, 5, 5],
      "hog-fixtures/shared_missing_level.orthoxml": [1, 6, 6],
      "hog-fixtures/simpleEx.orthoxml": [3, 17, 19],
    };
    for (const f of readdirSync(data("orthoxml-spec/examples"))) {
      const m = /^ex(\d)/.exec(f)!;
      const refs = [3, 4, 5, 6][Number(m[1]) - 1];
      expected[`orthoxml-spec/examples/${f}`] = [1, refs, refs];
    }
    expect(Object.keys(expected)).toHaveLength(20);
    for (const [f, [nFamilies, nRefs, nGenes]] of Object.entries(expected)) {
      const { problems, families, header } = await readAll(data(f));
      expect(messages(problems), f).toEqual([]);
      expect(families.length, f).toBe(nFamilies);
      expect(families.flatMap(geneRefs).length, f).toBe(nRefs);
      expect(header.species.reduce((n, s) => n + s.genes.length, 0), f).toBe(nGenes);
    }
  });

  it("keeps the paralogGroup structure of paralogs_only_toplevel_og", async () => {
    const { families } = await readAll(data("hog-fixtures/paralogs_only_toplevel_og.orthoxml"));
    const root = families[0];
    expect(root.kind).toBe("orthologGroup");
    if (root.kind === "geneRef") throw new Error("unreachable");
    expect(root.taxRange).toBe("Pitta_sordida-Sapayoa_aenigma");
    expect(root.children.map((c) => [c.kind, geneRefs(c).length])).toEqual([
      ["paralogGroup", 2],
      ["paralogGroup", 3],
    ]);
  });

  it("falls back to geneId when a gene has no protId (ex4 spec example)", async () => {
    const { header } = await readAll(data("orthoxml-spec/examples/ex4-int-taxon.orthoxml"));
    expect(header.species[1].genes[0]).toEqual({ id: "2", protId: "ptr1", geneId: "ptr1", line: 13 });
  });
});

const HEAD = `<?xml version="1.0"?>
<orthoXML xmlns="http://orthoXML.org/2011/" version="0.5" origin="t" originVersion="1">
  <species name="A" NCBITaxId="1"><database name="d" version="1"><genes>
    <gene id="1" protId="a1"/>
    <gene id="2" protId="a2"/>
    <gene id="3" protId="a3"/>
  </genes></database></species>
`;

async function readText(xml: string, onFamily?: (root: HogXmlNode, index: number) => void | Promise<void>) {
  const file = tempFile("t.orthoxml", xml);
  const problems = new Problems();
  const families: HogXmlNode[] = [];
  const header = await readOrthoXml(file, problems, onFamily ?? ((root) => void families.push(root)));
  return { file, problems, families, header, messages: messages(problems) };
}

describe("readOrthoXml", () => {
  it("matches elements by local name (prefixed namespace), top-level paralogGroup", async () => {
    const xml = `<ox:orthoXML xmlns:ox="http://orthoXML.org/2011/" version="0.4">
  <ox:species name="A"><ox:database name="d" version="1"><ox:genes>
    <ox:gene id="1" protId="a1"/><ox:gene id="2" protId="a2"/>
  </ox:genes></ox:database></ox:species>
  <ox:groups>
    <ox:paralogGroup><ox:geneRef id="1"/><ox:geneRef id="2"/></ox:paralogGroup>
  </ox:groups>
</ox:orthoXML>`;
    const r = await readText(xml);
    expect(r.messages).toEqual([]);
    expect(r.header.version).toBe("0.4");
    expect(r.families).toEqual([
      { kind: "paralogGroup", line: 6, children: [{ kind: "geneRef", ref: "1", line: 6 }, { kind: "geneRef", ref: "2", line: 6 }] },
    ]);
  });

  it("awaits an async onFamily and delivers families in order, header first", async () => {
    const groups = Array.from({ length: 3 }, (_, i) => `<orthologGroup id="F${i}"><geneRef id="${i + 1}"/></orthologGroup>`);
    const xml = `${HEAD}<groups>\n${groups.join("\n")}\n</groups></orthoXML>`;
    const file = tempFile("t.orthoxml", xml);
    const events: string[] = [];
    let busy = false;
    await readOrthoXml(
      file,
      new Problems(),
      async (root, index) => {
        expect(busy).toBe(false);
        busy = true;
        await new Promise((r) => setTimeout(r, 5));
        events.push(`${index}:${root.kind === "geneRef" ? "" : root.id}`);
        busy = false;
      },
      (header) => void events.push(`header:${header.species[0].genes.length}`),
    );
    expect(events).toEqual(["header:3", "0:F0", "1:F1", "2:F2"]);
  });

  it("propagates an error thrown by onFamily", async () => {
    const xml = `${HEAD}<groups><orthologGroup><geneRef id="1"/></orthologGroup></groups></orthoXML>`;
    await expect(
      readText(xml, () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
  });

  it("reports unknown, twice-referenced and misplaced geneRefs, empty groups, duplicate genes", async () => {
    const xml = `${HEAD.replace('<gene id="3" protId="a3"/>', '<gene id="3" protId="a3"/>\n    <gene id="2" protId="a2bis"/>')}  <groups>
    <geneRef id="1"/>
    <orthologGroup id="F1">
      <geneRef id="1"/>
      <geneRef id="1000000999"/>
      <paralogGroup>
        <geneRef id="1"/>
      </paralogGroup>
      <geneRef id="2"/>
    </orthologGroup>
    <orthologGroup id="F2">
      <property name="TaxRange" value="X"/>
    </orthologGroup>
  </groups>
</orthoXML>`;
    const r = await readText(xml);
    expect(r.problems.list.every((p) => p.file === r.file)).toBe(true);
    expect(r.messages).toEqual([
      "7: duplicate gene id 2 (first on line 5)",
      "10: <geneRef> outside an orthologGroup or paralogGroup",
      "13: unknown geneRef id 1000000999",
      "15: gene 1 is referenced twice (first on line 12)",
      "14: empty paralogGroup: no geneRef below it",
      "19: empty orthologGroup: no geneRef below it",
    ]);
    // the bad parts are dropped, the rest is delivered
    expect(r.families).toEqual([
      {
        kind: "orthologGroup",
        id: "F1",
        line: 11,
        children: [
          { kind: "geneRef", ref: "1", line: 12 },
          { kind: "geneRef", ref: "2", line: 17 },
        ],
      },
    ]);
  });

  it("checks taxonomy ids: duplicates and group taxonIds not in <taxonomy>", async () => {
    const xml = `${HEAD}  <taxonomy>
    <taxon id="1" name="root">
      <taxon id="2" name="A"/>
      <taxon id="2" name="B"/>
    </taxon>
  </taxonomy>
  <groups>
    <orthologGroup taxonId="9"><geneRef id="1"/></orthologGroup>
    <orthologGroup taxonId="1"><score id="CompletenessScore" value="0.5"/><geneRef id="2"/></orthologGroup>
  </groups>
</orthoXML>`;
    const r = await readText(xml);
    expect(r.messages).toEqual([
      "11: duplicate taxon id 2 (first on line 10)",
      "15: taxonId 9 of <orthologGroup> is not a taxon id of <taxonomy>",
    ]);
    expect(r.header.taxonomy).toEqual([
      {
        id: "1",
        name: "root",
        line: 9,
        children: [
          { id: "2", name: "A", children: [], line: 10 },
          { id: "2", name: "B", children: [], line: 11 },
        ],
      },
    ]);
    expect(r.families[1]).toMatchObject({ taxonId: "1", completeness: 0.5 });
  });

  it("reports malformed XML with its line and stops", async () => {
    const xml = `${HEAD}<groups>
  <orthologGroup><geneRef id="1"/></orthologGroup>
  <orthologGroup><geneRef id="2"></orthologGroup>
  <orthologGroup><geneRef id="3"/></orthologGroup>
</groups></orthoXML>`;
    const r = await readText(xml);
    expect(r.messages).toEqual(["10: not well-formed XML: Unexpected close tag (column 49)"]);
  });

  it("rejects a root element other than orthoXML, entities beyond the XML builtins, an empty file", async () => {
    expect((await readText(`<?xml version="1.0"?>\n<seqXML/>`)).messages).toEqual(["2: root element is <seqXML>, expected <orthoXML>"]);
    const ent = await readText(`<!DOCTYPE orthoXML [<!ENTITY x "boom">]>\n<orthoXML version="0.5"><species name="&x;"/></orthoXML>`);
    expect(ent.messages).toHaveLength(1);
    expect(ent.messages[0]).toMatch(/^2: not well-formed XML: Invalid character entity/);
    expect((await readText(`<orthoXML><species name="&nbsp;"/></orthoXML>`)).messages[0]).toMatch(/Invalid character entity/);
    expect((await readText(`<orthoXML><species name="a &amp; b"/></orthoXML>`)).header.species[0].name).toBe("a & b");
    expect((await readText("")).messages).toEqual(["0: empty file: no <orthoXML> root element"]);
  });

  it("reports a missing file", async () => {
    const problems = new Problems();
    await readOrthoXml("/nonexistent/h.orthoxml", problems, () => {});
    expect(messages(problems)).toEqual(["0: file not found"]);
  });

  it("reads a gzipped file", async () => {
    const file = tempFile("t.orthoxml.gz", `${HEAD}<groups><orthologGroup><geneRef id="1"/></orthologGroup></groups></orthoXML>`, { gzip: true });
    const families: HogXmlNode[] = [];
    const problems = new Problems();
    await readOrthoXml(file, problems, (f) => void families.push(f));
    expect(problems.list).toEqual([]);
    expect(families).toHaveLength(1);
  });
});
