import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crc64, translate } from "../../../release-compiler/simulate/sequences.js";
import { simulateRelease, type SimulationSummary } from "../../../release-compiler/simulate/simulate.js";
import { hogLetters } from "../../../release-compiler/simulate/write-orthoxml.js";
import {
  geneRefs,
  listFiles,
  readFasta,
  readOrthoXml,
  readTsv,
  tempDir,
  type OrthoXml,
  type XmlNode,
} from "./helpers.js";

const root = tempDir("simulate-test");
const dirA = join(root, "a"); // 12 genomes, 400 families, seed 7
const dirB = join(root, "b"); // same again
const dirC = join(root, "c"); // seed 8
const dirD = join(root, "d"); // seed 7 without HOG ids
const dirE = join(root, "e"); // 40 genomes (eukaryotes, bacteria, archaea), 150 families
let summaryA: SimulationSummary;
let summaryE: SimulationSummary;

beforeAll(async () => {
  summaryA = await simulateRelease({ out: dirA, genomes: 12, families: 400, seed: 7 });
  await simulateRelease({ out: dirB, genomes: 12, families: 400, seed: 7 });
  await simulateRelease({ out: dirC, genomes: 12, families: 400, seed: 8 });
  await simulateRelease({ out: dirD, genomes: 12, families: 400, seed: 7, hogIds: false });
  summaryE = await simulateRelease({ out: dirE, genomes: 40, families: 150, seed: 3, name: "Sim40" });
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const DIRS = () => [dirA, dirE];

function species(dir: string): string[] {
  return readTsv(join(dir, "species_info.tsv")).map((r) => r.Name);
}

describe("simulated release folder", () => {
  it("writes release.json naming every input, and species in tree order", () => {
    const config = JSON.parse(readFileSync(join(dirA, "release.json"), "utf8"));
    expect(config).toEqual({
      name: "Simulated.7",
      hog_release_letter: "S",
      date: "2026-11-01",
      species_info: "species_info.tsv",
      species_tree: "species_tree.nwk",
      proteomes: "proteome",
      cdna: "cdna",
      hogs: "hogs.orthoxml",
      loci: "gff3",
      isoforms: "splice",
      go_annotations: ["annotations/go.gaf"],
      go_ontology: "annotations/go.obo",
      xrefs: ["annotations/xrefs.tsv"],
      uniprot: ["annotations/uniprot.txt"],
      domains: "annotations/domains.tsv",
    });
    expect(JSON.parse(readFileSync(join(dirE, "release.json"), "utf8")).name).toBe("Sim40");
    expect(readFileSync(join(dirA, "species_info.tsv"), "utf8").split("\n")[0]).toBe("Name\tNCBITaxonId\tScientificName");
    expect(species(dirA)).toEqual(["HUMAN", "PANTR", "GORGO", "PONAB", "MACMU", "MOUSE", "RATNO", "BOVIN", "CANLF", "CHICK", "XENTR", "DANRE"]);
    for (const dir of DIRS()) {
      const codes = species(dir);
      const newick = readFileSync(join(dir, "species_tree.nwk"), "utf8").trim();
      const leaves = [...newick.matchAll(/[(,]([A-Z][A-Z0-9]{4})(?=[,)])/g)].map((m) => m[1]);
      expect(leaves).toEqual(codes);
      for (const code of codes) {
        expect(existsSync(join(dir, "proteome", `${code}.fa`))).toBe(true);
        expect(existsSync(join(dir, "cdna", `${code}.fa`))).toBe(true);
        expect(existsSync(join(dir, "gff3", `${code}.gff`))).toBe(true);
      }
    }
    expect(summaryA.mainIsoforms).toBeGreaterThan(12 * 400 * 0.85);
    expect(summaryA.mainIsoforms).toBeLessThan(12 * 400 * 1.4);
  });

  it("is deterministic: the same seed gives byte-identical files, another seed differs", () => {
    const files = listFiles(dirA);
    expect(listFiles(dirB)).toEqual(files);
    for (const file of files) {
      expect(readFileSync(join(dirB, file)).equals(readFileSync(join(dirA, file))), file).toBe(true);
    }
    expect(readFileSync(join(dirC, "proteome", "HUMAN.fa")).equals(readFileSync(join(dirA, "proteome", "HUMAN.fa")))).toBe(false);
    expect(readFileSync(join(dirC, "hogs.orthoxml")).equals(readFileSync(join(dirA, "hogs.orthoxml")))).toBe(false);
  });

  it("with hogIds = false writes the same orthoXML without group ids, and the same other files", () => {
    const withIds = readFileSync(join(dirA, "hogs.orthoxml"), "latin1");
    const without = readFileSync(join(dirD, "hogs.orthoxml"), "latin1");
    expect(without).not.toContain('id="HOG:');
    expect(withIds.replace(/ id="HOG:[^"]*"/g, "")).toBe(without);
    for (const file of listFiles(dirA)) {
      if (file === "hogs.orthoxml") continue;
      expect(readFileSync(join(dirD, file)).equals(readFileSync(join(dirA, file))), file).toBe(true);
    }
  });
});

describe("sequences and loci", () => {
  it("writes FASTA with 60 residues per line and cDNA that translates to each protein", () => {
    const errors: string[] = [];
    for (const dir of DIRS()) {
      for (const code of species(dir)) {
        const proteins = readFasta(join(dir, "proteome", `${code}.fa`));
        const cdna = new Map(readFasta(join(dir, "cdna", `${code}.fa`)).map((e) => [e.id, e]));
        expect(proteins.length).toBeGreaterThan(0);
        expect(cdna.size).toBe(proteins.length);
        const idPattern = new RegExp(`^SIM${code}P\\d{6,}$`);
        for (const p of proteins) {
          if (!idPattern.test(p.id)) errors.push(`bad id ${p.id}`);
          if (p.maxLine > 60) errors.push(`${p.id}: protein line of ${p.maxLine}`);
          if (!/^M[ACDEFGHIKLMNPQRSTVWY]+$/.test(p.sequence)) errors.push(`${p.id}: bad residues`);
          const c = cdna.get(p.id);
          if (!c) {
            errors.push(`${p.id}: no cDNA`);
            continue;
          }
          if (c.maxLine > 60) errors.push(`${p.id}: cDNA line of ${c.maxLine}`);
          if (c.sequence.length !== 3 * (p.sequence.length + 1)) errors.push(`${p.id}: cDNA length`);
          if (translate(c.sequence) !== `${p.sequence}*`) errors.push(`${p.id}: cDNA does not translate to the protein`);
        }
      }
    }
    expect(errors).toEqual([]);
  });

  it("lays genes out without overlaps, with CDS adding up to 3 x (length + 1)", () => {
    const errors: string[] = [];
    const check = (ok: boolean, message: string): void => {
      if (!ok) errors.push(message);
    };
    for (const dir of DIRS()) {
      for (const code of species(dir)) {
        const lengths = new Map(readFasta(join(dir, "proteome", `${code}.fa`)).map((e) => [e.id, e.sequence.length]));
        const text = readFileSync(join(dir, "gff3", `${code}.gff`), "latin1");
        check(text.startsWith("##gff-version 3\n"), `${code}: no GFF3 header`);
        const genes: Array<{ chr: string; start: number; end: number; id: string }> = [];
        const spans = new Map<string, [number, number, string]>(); // gene or mRNA id -> range
        const cds = new Map<string, Array<[number, number, string, number]>>();
        for (const line of text.split("\n")) {
          if (!line || line.startsWith("#")) continue;
          const f = line.split("\t");
          check(f.length === 9, `${code}: ${line}`);
          const [chr, , type, s, e, , strand, phase, attributes] = f;
          const start = Number(s);
          const end = Number(e);
          check(start <= end && /^\d+$/.test(chr) && (strand === "+" || strand === "-"), line);
          const attr = Object.fromEntries(attributes.split(";").map((kv) => kv.split("=")));
          if (type === "gene") {
            genes.push({ chr, start, end, id: attr.ID });
            spans.set(attr.ID, [start, end, strand]);
          } else if (type === "mRNA") {
            spans.set(attr.ID, [start, end, strand]);
            const gene = spans.get(attr.Parent);
            check(!!gene && start >= gene[0] && end <= gene[1] && gene[2] === strand, `mRNA outside its gene: ${line}`);
          } else {
            check(type === "CDS" && attr.ID === `CDS:${attr.protein_id}`, line);
            const parent = spans.get(attr.Parent);
            check(!!parent && start >= parent[0] && end <= parent[1], `CDS outside its parent: ${line}`);
            const list = cds.get(attr.protein_id) ?? [];
            list.push([start, end, strand, Number(phase)]);
            cds.set(attr.protein_id, list);
          }
        }
        // Genes in FASTA order along chromosomes 1..k, without overlaps.
        check(genes.length > 0 && genes[0].chr === "1", `${code}: first chromosome`);
        for (let i = 1; i < genes.length; i++) {
          const a = genes[i - 1];
          const b = genes[i];
          if (a.chr === b.chr) check(b.start > a.end, `${a.id} overlaps ${b.id}`);
          else check(Number(b.chr) === Number(a.chr) + 1, `${code}: chromosome ${a.chr} then ${b.chr}`);
        }
        check(cds.size === lengths.size, `${code}: ${cds.size} proteins with CDS, ${lengths.size} in FASTA`);
        for (const [id, segments] of cds) {
          const total = segments.reduce((sum, [a, b]) => sum + b - a + 1, 0);
          check(total === 3 * (lengths.get(id)! + 1), `${id}: CDS length ${total}, protein ${lengths.get(id)}`);
          const sorted = [...segments].sort((x, y) => x[0] - y[0]);
          for (let i = 1; i < sorted.length; i++) check(sorted[i][0] > sorted[i - 1][1], `${id}: overlapping CDS`);
          // Phases follow the transcript order.
          const ordered = segments[0][2] === "+" ? sorted : [...sorted].reverse();
          let done = 0;
          for (const [a, b, , phase] of ordered) {
            check(phase === (3 - (done % 3)) % 3, `${id}: phase ${phase} after ${done} bases`);
            done += b - a + 1;
          }
        }
      }
    }
    expect(errors).toEqual([]);
  });

  it("lists alternative isoforms in splice files; the main isoform is the longest and the one in the orthoXML", () => {
    let isoformGenes = 0;
    for (const dir of DIRS()) {
      const xml = readOrthoXml(join(dir, "hogs.orthoxml"));
      const mains = new Set([...xml.genes.values()].map((g) => g.protId));
      for (const code of species(dir)) {
        const lengths = new Map(readFasta(join(dir, "proteome", `${code}.fa`)).map((e) => [e.id, e.sequence.length]));
        const path = join(dir, "splice", `${code}.splice`);
        if (!existsSync(path)) continue;
        for (const line of readFileSync(path, "latin1").trim().split("\n")) {
          const [main, ...alts] = line.split("; ");
          isoformGenes++;
          expect(alts.length).toBeGreaterThanOrEqual(1);
          expect(mains.has(main)).toBe(true);
          for (const alt of alts) {
            expect(mains.has(alt)).toBe(false);
            expect(lengths.get(alt)).toBeLessThan(lengths.get(main)!);
          }
        }
      }
    }
    expect(isoformGenes).toBe(summaryA.isoformGenes + summaryE.isoformGenes);
    expect(summaryA.isoformGenes / summaryA.mainIsoforms).toBeGreaterThan(0.02);
    expect(summaryA.isoformGenes / summaryA.mainIsoforms).toBeLessThan(0.1);
  });
});

// ---------------------------------------------------------------------------------------------

/** Pairs implied by the orthoXML: LCA an orthologGroup -> ortholog, LCA a paralogGroup (same species) -> paralog. */
function derivePairs(xml: OrthoXml): { orthologs: Set<string>; paralogs: Set<string> } {
  const orthologs = new Set<string>();
  const paralogs = new Set<string>();
  const key = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);
  const visit = (node: XmlNode): void => {
    if (node.kind === "geneRef") return;
    const parts = node.children.map(geneRefs);
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j < parts.length; j++) {
        for (const a of parts[i]) {
          for (const b of parts[j]) {
            const ga = xml.genes.get(a)!;
            const gb = xml.genes.get(b)!;
            if (node.kind === "orthologGroup") {
              if (ga.species === gb.species) throw new Error(`orthologGroup joins two ${ga.species} genes`);
              orthologs.add(key(ga.protId, gb.protId));
            } else if (ga.species === gb.species) paralogs.add(key(ga.protId, gb.protId));
          }
        }
      }
    }
    node.children.forEach(visit);
  };
  xml.groups.forEach(visit);
  return { orthologs, paralogs };
}

/**
 * HOG ids regenerated from the structure alone, by the documented rules (without `_taxon`):
 * every orthologGroup's id, and every geneRef's deepest sub-HOG.
 */
function regenerateIds(xml: OrthoXml): Map<XmlNode, string> {
  const ids = new Map<XmlNode, string>();
  const counters = new Map<string, number>();
  const visit = (node: XmlNode, id: string): void => {
    if (node.kind !== "paralogGroup") ids.set(node, id);
    if (node.kind === "orthologGroup") {
      node.children.forEach((c) => visit(c, id));
    } else if (node.kind === "paralogGroup") {
      const n = (counters.get(id) ?? 0) + 1;
      counters.set(id, n);
      node.children.forEach((c, k) => visit(c, `${id}.${n}${hogLetters(k)}`));
    }
  };
  xml.groups.forEach((g, i) => visit(g, `HOG:${String(i + 1).padStart(7, "0")}`));
  return ids;
}

describe("orthoXML and truth", () => {
  it("references only proteome proteins, each gene at most once, with FastOMA-style groups", () => {
    for (const dir of DIRS()) {
      const xml = readOrthoXml(join(dir, "hogs.orthoxml"));
      const codes = species(dir);
      expect(xml.speciesOrder).toEqual(codes);
      const proteinIds = new Set(codes.flatMap((code) => readFasta(join(dir, "proteome", `${code}.fa`)).map((e) => e.id)));
      for (const { protId } of xml.genes.values()) expect(proteinIds.has(protId), protId).toBe(true);
      const referenced = xml.groups.flatMap(geneRefs);
      expect(new Set(referenced).size).toBe(referenced.length);
      for (const ref of referenced) expect(xml.genes.has(ref)).toBe(true);
      for (const top of xml.groups) {
        expect(top.kind).toBe("orthologGroup");
        const genomes = new Set(geneRefs(top).map((r) => xml.genes.get(r)!.species));
        expect(genomes.size).toBeGreaterThanOrEqual(2);
      }
      const check = (node: XmlNode, top: boolean): void => {
        if (node.kind === "geneRef") return;
        if (node.kind === "orthologGroup") {
          expect(xml.taxa.get(node.taxonId!)).toBe(node.taxRange);
          expect(node.id).toMatch(new RegExp(`^HOG:\\d{7}(\\.\\d+[a-z]+)*_${node.taxonId}$`));
          expect(node.completeness).toBeGreaterThan(0);
          expect(node.completeness).toBeLessThanOrEqual(1);
          // Only the top-level group of a family that starts with a duplication has one child.
          if (!top) expect(node.children.length).toBeGreaterThanOrEqual(2);
          else if (node.children.length === 1) expect(node.children[0].kind).toBe("paralogGroup");
        } else {
          expect(node.children.length).toBeGreaterThanOrEqual(2);
          for (const c of node.children) expect(c.kind).not.toBe("paralogGroup");
        }
        node.children.forEach((c) => check(c, false));
      };
      xml.groups.forEach((g) => check(g, true));
    }
    // In-species paralogs exist: a paralogGroup of geneRefs of one species.
    const xml = readOrthoXml(join(dirA, "hogs.orthoxml"));
    let inSpecies = 0;
    const find = (node: XmlNode): void => {
      if (node.kind === "geneRef") return;
      if (node.kind === "paralogGroup" && node.children.every((c) => c.kind === "geneRef")) {
        if (new Set(geneRefs(node).map((r) => xml.genes.get(r)!.species)).size === 1) inSpecies++;
      }
      node.children.forEach(find);
    };
    xml.groups.forEach(find);
    expect(inSpecies).toBeGreaterThan(0);
  });

  it("uses HOG ids that follow the documented numbering", () => {
    for (const dir of DIRS()) {
      const xml = readOrthoXml(join(dir, "hogs.orthoxml"));
      for (const [node, id] of regenerateIds(xml)) {
        if (node.kind === "orthologGroup") expect(node.id).toBe(`${id}_${node.taxonId}`);
      }
    }
  });

  it("records true orthologs and paralogs that are exactly the pairs the orthoXML implies", () => {
    for (const dir of DIRS()) {
      const xml = readOrthoXml(join(dir, "hogs.orthoxml"));
      const derived = derivePairs(xml);
      const orthologs = readTsv(join(dir, "truth", "orthologs.tsv"));
      const paralogs = readTsv(join(dir, "truth", "paralogs.tsv"));
      const key = (a: string, b: string): string => (a < b ? `${a}|${b}` : `${b}|${a}`);
      expect(new Set(orthologs.map((r) => key(r.protein1, r.protein2)))).toEqual(derived.orthologs);
      expect(orthologs.length).toBe(derived.orthologs.size);
      expect(new Set(paralogs.map((r) => key(r.protein1, r.protein2)))).toEqual(derived.paralogs);
      expect(paralogs.length).toBe(derived.paralogs.size);

      // protein1 comes first in (genome order, FASTA order); rel_type from protein1's side.
      const codes = species(dir);
      const position = new Map<string, [number, number]>();
      codes.forEach((code, g) => readFasta(join(dir, "proteome", `${code}.fa`)).forEach((e, i) => position.set(e.id, [g, i])));
      const genomeOf = (p: string): number => position.get(p)![0];
      const partners = new Map<string, string[]>();
      for (const r of orthologs) {
        for (const [a, b] of [[r.protein1, r.protein2], [r.protein2, r.protein1]]) {
          const list = partners.get(a) ?? [];
          list.push(b);
          partners.set(a, list);
        }
      }
      const errors: string[] = [];
      for (const r of orthologs) {
        const [g1, i1] = position.get(r.protein1)!;
        const [g2, i2] = position.get(r.protein2)!;
        if (!(g1 < g2 || (g1 === g2 && i1 < i2))) errors.push(`order ${r.protein1} ${r.protein2}`);
        const n1 = partners.get(r.protein2)!.filter((p) => genomeOf(p) === g1).length;
        const n2 = partners.get(r.protein1)!.filter((p) => genomeOf(p) === g2).length;
        const rel = n1 === 1 ? (n2 === 1 ? "1:1" : "1:n") : n2 === 1 ? "m:1" : "m:n";
        if (r.rel_type !== rel) errors.push(`${r.protein1} ${r.protein2} ${r.rel_type} should be ${rel}`);
      }
      for (const r of paralogs) {
        const [g1, i1] = position.get(r.protein1)!;
        const [g2, i2] = position.get(r.protein2)!;
        if (g1 !== g2 || i1 >= i2) errors.push(`paralog order ${r.protein1} ${r.protein2}`);
      }
      expect(errors).toEqual([]);
      const relTypes = new Set(orthologs.map((r) => r.rel_type));
      if (dir === dirA) expect(relTypes).toEqual(new Set(["1:1", "1:n", "m:1", "m:n"]));
    }
  });

  it("records each gene's root HOG and deepest sub-HOG as in the orthoXML", () => {
    let singleGeneSubHogs = 0;
    for (const dir of DIRS()) {
      const xml = readOrthoXml(join(dir, "hogs.orthoxml"));
      const ids = regenerateIds(xml);
      const expected = new Map<string, [string, string]>();
      const visit = (node: XmlNode, rootHog: string, parent: XmlNode | null): void => {
        if (node.kind === "geneRef") {
          expected.set(xml.genes.get(node.ref)!.protId, [rootHog, ids.get(node)!]);
          if (parent?.kind === "paralogGroup") singleGeneSubHogs++;
        } else node.children.forEach((c) => visit(c, rootHog, node));
      };
      for (const top of xml.groups) visit(top, ids.get(top)!, null);
      const rows = readTsv(join(dir, "truth", "hogs.tsv"));
      expect(rows.length).toBe(expected.size);
      const errors: string[] = [];
      for (const r of rows) {
        const [rootHog, hog] = expected.get(r.protein) ?? [];
        if (r.root_hog !== rootHog || r.hog_id !== hog) errors.push(`${r.protein}: ${r.root_hog} ${r.hog_id}, orthoXML ${rootHog} ${hog}`);
      }
      // Every true ortholog pair shares a root HOG.
      const rootOf = new Map(rows.map((r) => [r.protein, r.root_hog]));
      for (const r of readTsv(join(dir, "truth", "orthologs.tsv"))) {
        if (rootOf.get(r.protein1) !== rootOf.get(r.protein2)) errors.push(`${r.protein1} ${r.protein2} in different HOGs`);
      }
      expect(errors).toEqual([]);
      const summary = JSON.parse(readFileSync(join(dir, "truth", "summary.json"), "utf8"));
      expect(summary.genesInHogs).toBe(rows.length);
      expect(summary.familiesWritten).toBe(xml.groups.length);
    }
    expect(singleGeneSubHogs).toBeGreaterThan(0);
  });
});

describe("annotations", () => {
  it("writes a GO ontology closed under is_a and GAF 2.2 rows using it", () => {
    for (const dir of DIRS()) {
      const obo = readFileSync(join(dir, "annotations", "go.obo"), "latin1");
      expect(obo.startsWith("format-version: 1.2\n")).toBe(true);
      const terms = new Map<string, string>();
      const parents: string[] = [];
      for (const block of obo.split("\n\n").slice(1)) {
        const id = /^id: (GO:\d{7})$/m.exec(block)![1];
        terms.set(id, /^namespace: (\w+)$/m.exec(block)![1]);
        for (const m of block.matchAll(/^is_a: (GO:\d{7}) ! /gm)) parents.push(m[1]);
      }
      for (const p of parents) expect(terms.has(p)).toBe(true);
      const gaf = readFileSync(join(dir, "annotations", "go.gaf"), "latin1");
      expect(gaf.startsWith("!gaf-version: 2.2\n")).toBe(true);
      const proteins = new Set(species(dir).flatMap((code) => readFasta(join(dir, "proteome", `${code}.fa`)).map((e) => e.id)));
      const aspect = { biological_process: "P", molecular_function: "F", cellular_component: "C" } as Record<string, string>;
      const rows = gaf.split("\n").filter((l) => l && !l.startsWith("!"));
      expect(rows.length).toBeGreaterThan(0);
      const bad = rows.filter((row) => {
        const f = row.split("\t");
        return (
          f.length !== 17 ||
          !proteins.has(f[1]) ||
          f[8] !== aspect[terms.get(f[4])!] ||
          !["IEA", "IBA", "ISS", "IDA"].includes(f[6]) ||
          !/^taxon:\d+$/.test(f[12]) ||
          f[13] !== "20261101"
        );
      });
      expect(bad).toEqual([]);
    }
  });

  it("writes xrefs, UniProt entries and domains consistent with the proteomes", () => {
    for (const dir of DIRS()) {
      const sequences = new Map(species(dir).flatMap((code) => readFasta(join(dir, "proteome", `${code}.fa`)).map((e) => [e.id, e.sequence])));
      const xrefs = readTsv(join(dir, "annotations", "xrefs.tsv"));
      const accessionOf = new Map<string, string>();
      const patterns: Record<string, RegExp> = {
        "UniProtKB/SwissProt": /^[A-NR-Z][0-9][A-Z][A-Z0-9]{2}[0-9]$/,
        "Gene Name": /^SIMF\d+[A-Z]+$/,
        RefSeq: /^[NW]P_\d{9}\.\d$/,
        EntrezGene: /^\d+$/,
        Description: /\S/,
      };
      const bad = xrefs.filter((r) => !sequences.has(r.protein_id) || !patterns[r.source]?.test(r.xref));
      expect(bad).toEqual([]);
      for (const r of xrefs) if (r.source === "UniProtKB/SwissProt") accessionOf.set(r.protein_id, r.xref);
      const refseqs = xrefs.filter((r) => r.source === "RefSeq").map((r) => r.xref);
      expect(new Set(refseqs).size).toBe(refseqs.length);
      const accessions = [...accessionOf.values()];
      expect(new Set(accessions).size).toBe(accessions.length);
      const proteinOf = new Map([...accessionOf].map(([p, a]) => [a, p]));

      const entries = readFileSync(join(dir, "annotations", "uniprot.txt"), "latin1").split("//\n").filter((e) => e.trim());
      expect(entries.length).toBeGreaterThan(0.1 * sequences.size);
      for (const entry of entries) {
        const ac = /^AC   (\w+);$/m.exec(entry)![1];
        const protein = proteinOf.get(ac)!;
        expect(protein).toBeDefined();
        const seq = [...entry.matchAll(/^     (.*)$/gm)].map((m) => m[1].replace(/ /g, "")).join("");
        expect(seq).toBe(sequences.get(protein));
        expect(entry).toMatch(new RegExp(`^ID   \\w+_[A-Z0-9]{5} +Reviewed; +${seq.length} AA\\.$`, "m"));
        const sq = /^SQ   SEQUENCE +(\d+) AA; +(\d+) MW; +([0-9A-F]{16}) CRC64;$/m.exec(entry)!;
        expect(Number(sq[1])).toBe(seq.length);
        expect(sq[3]).toBe(crc64(Buffer.from(seq, "latin1")));
        expect(entry).toMatch(/^OX   NCBI_TaxID=\d+;$/m);
        for (const m of entry.matchAll(/^FT   DOMAIN          (\d+)\.\.(\d+)\nFT                   \/note="[^"]+"$/gm)) {
          expect(Number(m[1])).toBeGreaterThanOrEqual(1);
          expect(Number(m[2])).toBeLessThanOrEqual(seq.length);
        }
      }

      const domains = readTsv(join(dir, "annotations", "domains.tsv"));
      const annotated = new Set(domains.map((d) => d.protein_id));
      expect(annotated.size).toBeGreaterThan(0.3 * sequences.size);
      const badDomains = domains.filter((d) => {
        const length = sequences.get(d.protein_id)?.length ?? 0;
        const idPattern = d.source === "CATH" ? /^\d+(\.\d+){3}$/ : d.source === "Pfam" ? /^PF\d{5}$/ : /^$/;
        return !idPattern.test(d.domain_id) || !d.name || Number(d.start) < 1 || Number(d.start) > Number(d.end) || Number(d.end) > length;
      });
      expect(badDomains).toEqual([]);
    }
  });
});
