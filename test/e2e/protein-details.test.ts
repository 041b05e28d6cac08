/**
 * Protein detail endpoints (reference C.1: domains, xref, gene_ontology / ontology, isoforms,
 * hog_derived_orthologs) against the input files of the simulated release and the simulator's
 * true orthologs; GO annotations and cross-references of the real primates release against
 * its HUMAN inputs. Every answer stays within its blob-read bound.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { data, hasSharedData, warnWithoutSharedData } from "../shared-data.js";
import { parseFasta, parseTsv } from "./oracle.js";
import { serveRealReleases, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

warnWithoutSharedData("the protein detail tests on the real primates and bacteria3 releases");
const INPUT = resolve(TEST_BUILD, "sim-input");
const read = (path: string) => readFileSync(resolve(INPUT, path), "utf8");

/** GET a JSON body (200), checking that it cost at most `reads` blob reads. */
async function getWithin(url: string, reads: number): Promise<any> {
  const res = await fetch(url, { redirect: "manual" });
  const body = await res.text();
  expect(res.status, `${url}: ${body.slice(0, 300)}`).toBe(200);
  expect(res.headers.get("Content-Type")).toBe("application/json");
  expect(Number(res.headers.get("X-Blob-Reads")), url).toBeLessThanOrEqual(reads);
  return JSON.parse(body);
}

/** Entry number, orthid and sequence of every protein id: genomes in species_info order, proteins in FASTA order. */
function numbering(speciesInfo: string, proteome: (code: string) => string) {
  const out = new Map<string, { entry: number; orthid: string; code: string; sequence: string }>();
  let entry = 0;
  for (const row of parseTsv(readFileSync(speciesInfo, "utf8"))) {
    let i = 0;
    for (const [id, sequence] of parseFasta(readFileSync(proteome(row.Name), "utf8"))) {
      entry += 1;
      i += 1;
      out.set(id, { entry, orthid: `${row.Name}${String(i).padStart(5, "0")}`, code: row.Name, sequence });
    }
  }
  return out;
}

/** UniProt flat-file entries: entry name, reviewed, accessions, DR cross-references, FT DOMAIN features. */
function parseUniProt(text: string) {
  return text
    .split(/^\/\/$/m)
    .filter((e) => /^ID {3}/m.test(e))
    .map((e) => {
      const id = /^ID {3}(\S+)\s+(Reviewed|Unreviewed)/m.exec(e)!;
      const accessions = [...e.matchAll(/^AC {3}(.*)$/gm)].flatMap((m) => m[1].split(";").map((s) => s.trim()).filter(Boolean));
      const dr = [...e.matchAll(/^DR {3}([^;]+); ([^;]+);/gm)].map((m) => [m[1].trim(), m[2].trim()] as [string, string]);
      const domains = [...e.matchAll(/^FT {3}DOMAIN\s+(\d+)\.\.(\d+)\n(?:FT {19}.*\n)*?FT {19}\/note="([^"]*)"/gm)].map((m) => ({
        start: Number(m[1]),
        end: Number(m[2]),
        name: m[3],
      }));
      return { name: id[1], reviewed: id[2] === "Reviewed", accessions, dr, domains };
    });
}

/** GO terms of an OBO file: name, namespace, is_a parents. */
function parseObo(text: string) {
  const terms = new Map<string, { name: string; namespace: string; isA: string[] }>();
  for (const stanza of text.split(/^\[/m).filter((s) => s.startsWith("Term]"))) {
    const id = /^id: (\S+)/m.exec(stanza)![1];
    terms.set(id, {
      name: /^name: (.*)$/m.exec(stanza)![1],
      namespace: /^namespace: (\S+)/m.exec(stanza)![1],
      isA: [...stanza.matchAll(/^is_a: (\S+)/gm)].map((m) => m[1]),
    });
  }
  return terms;
}

/** GAF rows (NOT qualifiers dropped): object id, GO id, evidence, reference, aspect letter. */
function parseGaf(text: string) {
  return text
    .split("\n")
    .filter((l) => l && !l.startsWith("!"))
    .map((l) => l.split("\t"))
    .filter((f) => !f[3].includes("NOT"))
    .map((f) => ({ object: f[1], go: f[4], reference: f[5], evidence: f[6], aspect: f[8] }));
}

const ASPECT: Record<string, string> = { P: "biological_process", F: "molecular_function", C: "cellular_component" };

/** The expected GO items of a protein: annotation order, then by aspect and ic descending (stable). */
function expectedGo(rows: ReturnType<typeof parseGaf>, terms: ReturnType<typeof parseObo>, ic: Map<string, number>, p: { entry: number; orthid: string }) {
  return rows
    .map((r) => ({
      id: p.orthid,
      GO_term: r.go,
      name: terms.get(r.go)?.name ?? "",
      aspect: terms.has(r.go) ? terms.get(r.go)!.namespace : ASPECT[r.aspect],
      ic: ic.get(r.go) ?? 0,
      entry_nr: p.entry,
      evidence: r.evidence,
      reference: r.reference,
    }))
    .sort((a, b) => (a.aspect < b.aspect ? -1 : a.aspect > b.aspect ? 1 : b.ic - a.ic));
}

/**
 * Information content as the release defines it: IC(t) = -ln(share of the proteins annotated in
 * t's aspect that are annotated with t or a descendant), rounded to 4 decimals.
 */
function informationContent(rows: ReturnType<typeof parseGaf>, terms: ReturnType<typeof parseObo>, proteinOf: (id: string) => string | undefined) {
  const up = (t: string, out = new Set<string>()): Set<string> => {
    if (out.has(t)) return out;
    out.add(t);
    for (const p of terms.get(t)?.isA ?? []) up(p, out);
    return out;
  };
  const letterOf = (t: string, fallback: string) => {
    const ns = terms.get(t)?.namespace;
    return ns ? Object.keys(ASPECT).find((k) => ASPECT[k] === ns)! : fallback;
  };
  const perProtein = new Map<string, { terms: Set<string>; aspects: Set<string> }>();
  for (const r of rows) {
    const p = proteinOf(r.object);
    if (!p) continue;
    const entry = perProtein.get(p) ?? { terms: new Set(), aspects: new Set() };
    entry.aspects.add(r.aspect);
    for (const t of up(r.go)) entry.terms.add(t);
    perProtein.set(p, entry);
  }
  const withTerm = new Map<string, number>();
  const inAspect = new Map<string, number>();
  for (const { terms: ts, aspects } of perProtein.values()) {
    for (const t of ts) withTerm.set(t, (withTerm.get(t) ?? 0) + 1);
    for (const a of aspects) inAspect.set(a, (inAspect.get(a) ?? 0) + 1);
  }
  const out = new Map<string, number>();
  for (const r of rows) {
    const total = inAspect.get(letterOf(r.go, r.aspect)) ?? 0;
    const n = withTerm.get(r.go) ?? 0;
    out.set(r.go, total && n ? Math.round(-Math.log(n / total) * 1e4) / 1e4 + 0 : 0); // + 0: no -0
  }
  return out;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const MIRROR: Record<string, string> = { "1:1": "1:1", "1:n": "m:1", "m:1": "1:n", "m:n": "m:n" };

describe("protein details of the simulated release", () => {
  let served: ServedRelease;
  let base: string;
  let proteins: ReturnType<typeof numbering>;
  let ids: string[];
  const xrefRows = parseTsv(read("annotations/xrefs.tsv"));
  /** UniProt accession (from the xref file) → protein id. */
  const byAccession = new Map(xrefRows.filter((x) => x.source.startsWith("UniProtKB")).map((x) => [x.xref, x.protein_id]));
  const uniprot = parseUniProt(read("annotations/uniprot.txt")).map((u) => ({
    ...u,
    protein: [...u.accessions, u.name].map((a) => byAccession.get(a)).find(Boolean),
  }));

  beforeAll(async () => {
    served = await serveRelease("sim");
    base = served.base;
    proteins = numbering(resolve(INPUT, "species_info.tsv"), (code) => resolve(INPUT, `proteome/${code}.fa`));
    ids = [...proteins.keys()];
  });
  afterAll(() => served?.dispose());

  it("lists the domains of the input, and one placeholder over the middle of a protein without any", async () => {
    const tsv = parseTsv(read("annotations/domains.tsv"));
    const sample = [...new Set(tsv.map((d) => d.protein_id))].filter((_, i) => i % 7 === 0);
    sample.push(...uniprot.filter((u) => u.protein && u.domains.length).slice(0, 20).map((u) => u.protein!));
    expect(sample.length).toBeGreaterThan(30);
    const key = (r: any) => `${r.source}|${r.domainid}|${r.name}|${r.location}`;
    for (const id of sample) {
      const p = proteins.get(id)!;
      const body = await getWithin(`${base}/protein/${id}/domains/`, 3);
      const expected = [
        ...uniprot.filter((u) => u.protein === id).flatMap((u) => u.domains.map((d) => ({ source: "UniProt", domainid: u.name, name: d.name, location: `${d.start}:${d.end}` }))),
        ...tsv.filter((d) => d.protein_id === id).map((d) => ({ source: d.source, domainid: d.domain_id, name: d.name, location: `${d.start}:${d.end}` })),
      ];
      expect(body.seq_id).toMatch(/^[0-9a-f]{32}$/);
      expect(body.length).toBe(p.sequence.length);
      expect(body.regions.map(key).sort(), id).toEqual(expected.map(key).sort());
    }
    const withDomains = new Set([...tsv.map((d) => d.protein_id), ...uniprot.filter((u) => u.domains.length).map((u) => u.protein)]);
    const bare = ids.filter((id) => !withDomains.has(id)).slice(0, 5);
    expect(bare.length).toBeGreaterThan(0);
    for (const id of bare) {
      const L = proteins.get(id)!.sequence.length;
      const body = await getWithin(`${base}/protein/${proteins.get(id)!.orthid}/domains/`, 2);
      expect(body.regions).toEqual([{ source: "n/a", domainid: "n/a", name: "n/a", location: `${Math.floor(0.1 * L)}:${Math.floor(0.9 * L)}` }]);
    }
  });

  it("lists the cross-references of the inputs and the canonical id, by source then id, filtered by filter", async () => {
    const sample = ids.filter((_, i) => i % 23 === 0);
    sample.push(...uniprot.filter((u) => u.protein).slice(0, 10).map((u) => u.protein!));
    const MAIN = new Set(["SourceID", "SourceAC", "UniProtKB/SwissProt", "UniProtKB/TrEMBL", "UniProtKB", "Ensembl", "Ensembl Gene", "Ensembl Protein", "Ensembl Transcript", "RefSeq", "EntrezGene", "GeneID", "Gene Name"]);
    for (const id of sample) {
      const p = proteins.get(id)!;
      const seen = new Set<string>();
      const expected: Array<{ xref: string; source: string }> = [];
      const add = (source: string, xref: string) => {
        if (seen.has(`${source}\t${xref}`)) return;
        seen.add(`${source}\t${xref}`);
        expected.push({ source, xref });
      };
      add("SourceID", id);
      for (const x of xrefRows) if (x.protein_id === id && x.source !== "Description") add(x.source, x.xref);
      for (const u of uniprot.filter((e) => e.protein === id)) {
        const db = u.reviewed ? "UniProtKB/SwissProt" : "UniProtKB/TrEMBL";
        for (const a of [...u.accessions, u.name]) add(db, a);
        for (const [database, xref] of u.dr) if (database !== "GO") add(database, xref);
      }
      expected.sort((a, b) => compare(a.source, b.source) || compare(a.xref, b.xref));
      const all = await getWithin(`${base}/protein/${id}/xref/`, 3);
      expect(all.map((x: any) => ({ source: x.source, xref: x.xref })), id).toEqual(expected);
      for (const x of all) {
        expect(x).toMatchObject({ entry_nr: p.entry, orthid: p.orthid });
        // The simulated proteomes are not UniProt records: only the canonical id is known to match.
        expect(x.seq_match).toBe(x.source === "SourceID" ? "exact" : "unchecked");
      }
      expect(await getWithin(`${base}/protein/${p.entry}/xref/?filter=ExAcT`, 2)).toEqual(all.filter((x: any) => x.seq_match === "exact"));
      expect(await getWithin(`${base}/protein/${p.entry}/xref/?filter=maindb`, 2)).toEqual(all.filter((x: any) => MAIN.has(x.source)));
      expect(await getWithin(`${base}/protein/${p.entry}/xref/?filter=all`, 2)).toEqual(all);
    }
    const maindb = await getWithin(`${base}/protein/${uniprot.find((u) => u.protein && u.dr.length)!.protein}/xref/?filter=maindb`, 3);
    expect(maindb.some((x: any) => x.source === "Gene Name")).toBe(true);
    expect(maindb.some((x: any) => x.source === "Pfam" || x.source === "InterPro")).toBe(false);
  });

  it("lists GO annotations of the GAF with the ontology's names and aspects, by aspect then ic", async () => {
    const terms = parseObo(read("annotations/go.obo"));
    const gaf = parseGaf(read("annotations/go.gaf"));
    const ic = informationContent(gaf, terms, (o) => (proteins.has(o) ? o : undefined));
    const annotated = [...new Set(gaf.map((r) => r.object))].filter((_, i) => i % 9 === 0);
    expect(annotated.length).toBeGreaterThan(20);
    let withSeveralAspects = 0;
    for (const id of annotated) {
      const p = proteins.get(id)!;
      const body = await getWithin(`${base}/protein/${id}/gene_ontology/`, 4);
      expect(body, id).toEqual(expectedGo(gaf.filter((r) => r.object === id), terms, ic, p));
      if (new Set(body.map((g: any) => g.aspect)).size > 1) withSeveralAspects += 1;
      expect(await getWithin(`${base}/protein/${p.orthid}/ontology/`, 0)).toEqual(body);
    }
    expect(withSeveralAspects).toBeGreaterThan(0);
    const bare = ids.find((id) => !gaf.some((r) => r.object === id))!;
    expect(await getWithin(`${base}/protein/${bare}/gene_ontology/`, 3)).toEqual([]);
  });

  it("lists every isoform of the gene with its CDS exons as locus", async () => {
    const exons = new Map<string, Array<{ start: number; end: number; strand: number }>>();
    for (const code of new Set([...proteins.values()].map((p) => p.code))) {
      for (const line of read(`gff3/${code}.gff`).split("\n")) {
        const f = line.split("\t");
        if (f.length !== 9 || f[2] !== "CDS") continue;
        const id = /protein_id=([^;]+)/.exec(f[8])![1];
        exons.set(id, [...(exons.get(id) ?? []), { start: Number(f[3]), end: Number(f[4]), strand: f[6] === "-" ? -1 : 1 }]);
      }
    }
    const genes: string[][] = [];
    for (const code of new Set([...proteins.values()].map((p) => p.code))) {
      let splice = "";
      try {
        splice = read(`splice/${code}.splice`);
      } catch {
        continue;
      }
      for (const line of splice.trim().split("\n")) if (line.trim()) genes.push(line.split(";").map((s) => s.trim()));
    }
    expect(genes.length).toBeGreaterThan(5);
    const spliced = new Set(genes.flat());
    const single = ids.filter((id) => !spliced.has(id)).filter((_, i) => i % 50 === 0);
    for (const gene of [...genes, ...single.map((id) => [id])]) {
      const expected = [...gene].sort((a, b) => proteins.get(a)!.entry - proteins.get(b)!.entry);
      for (const id of gene) {
        const body = await getWithin(`${base}/protein/${id}/isoforms/`, 3);
        expect(body.map((i: any) => i.canonicalid), id).toEqual(expected);
        for (const item of body) {
          const e = (exons.get(item.canonicalid) ?? []).sort((a, b) => a.start - b.start);
          expect(item.locus, item.canonicalid).toEqual(e);
          expect(item.nr_exons).toBe(e.length);
          expect(item.entry_nr).toBe(proteins.get(item.canonicalid)!.entry);
        }
        expect(body.filter((i: any) => i.is_main_isoform)).toHaveLength(1);
      }
    }
  });

  it("gives the true orthologs of the simulation from the HOGs, with their types, by partner entry", async () => {
    const truth = parseTsv(read("truth/orthologs.tsv"));
    const partners = new Map<string, Array<[string, string]>>();
    for (const t of truth) {
      partners.set(t.protein1, [...(partners.get(t.protein1) ?? []), [t.protein2, t.rel_type]]);
      partners.set(t.protein2, [...(partners.get(t.protein2) ?? []), [t.protein1, MIRROR[t.rel_type]]]);
    }
    const inHogs = parseTsv(read("truth/hogs.tsv")).map((t) => t.protein);
    const sample = inHogs.filter((_, i) => i % 15 === 0);
    expect(sample.length).toBeGreaterThan(50);
    const types = new Set<string>();
    for (const id of sample) {
      const expected = (partners.get(id) ?? []).sort((a, b) => proteins.get(a[0])!.entry - proteins.get(b[0])!.entry);
      const body = await getWithin(`${base}/protein/${id}/hog_derived_orthologs/`, 3);
      expect(body.map((o: any) => [o.canonicalid, o.rel_type]), id).toEqual(expected);
      for (const t of new Set(expected.map(([, t]) => t))) {
        types.add(t);
        const only = await getWithin(`${base}/protein/${id}/hog_derived_orthologs/?rel_type=${encodeURIComponent(t)}`, 0);
        expect(only.map((o: any) => o.canonicalid)).toEqual(expected.filter(([, x]) => x === t).map(([p]) => p));
      }
    }
    expect([...types].sort()).toEqual(["1:1", "1:n", "m:1", "m:n"]);
    expect(await getWithin(`${base}/protein/${sample[0]}/hog_derived_orthologs/?rel_type=close%20paralog`, 0)).toEqual([]);
    const outside = ids.find((id) => !inHogs.includes(id))!;
    expect(await getWithin(`${base}/protein/${outside}/hog_derived_orthologs/`, 3)).toEqual([]);
  });

  it("answers unknown proteins with 404 and a bad filter with 400, on every endpoint", async () => {
    for (const name of ["domains", "xref", "gene_ontology", "ontology", "isoforms", "hog_derived_orthologs"]) {
      const res = await fetch(`${base}/protein/NO_SUCH_PROTEIN/${name}/`);
      expect(res.status, name).toBe(404);
      expect(res.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
      expect(await res.json()).toEqual({ detail: "requested id 'NO_SUCH_PROTEIN' is unknown" });
      const options = await fetch(`${base}/protein/1/${name}/`, { method: "OPTIONS" });
      expect(options.status).toBe(200);
      expect(options.headers.get("Allow")).toBe("GET, HEAD, OPTIONS");
    }
    const res = await fetch(`${base}/protein/1/xref/?filter=nope`);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "invalid argument for parameter filter: nope" });
    const zero = await fetch(`${base}/protein/0/domains/`);
    expect(zero.status).toBe(404);
  });
});

describe.skipIf(!hasSharedData)("protein details of the real releases", () => {
  let primates: ServedRelease;
  let bacteria: ServedRelease;
  serveRealReleases((p, b) => {
    primates = p;
    bacteria = b;
  });

  it("primates: HUMAN GO annotations and cross-references are those of HUMAN.gaf and HUMAN.xrefs.tsv", async () => {
    const DATA = data("primates-chr12");
    const terms = parseObo(readFileSync(`${DATA}/annotations/go-basic.obo`, "utf8"));
    const gaf = parseGaf(readFileSync(`${DATA}/annotations/HUMAN.gaf`, "utf8"));
    const human = numbering(`${DATA}/species_info.tsv`, (code) => `${DATA}/proteome/${code}.fa`);
    const ic = informationContent(gaf, terms, (o) => (human.has(o) ? o : undefined));
    const annotated = [...new Set(gaf.map((r) => r.object))].filter((id) => human.has(id)).filter((_, i) => i % 40 === 0);
    expect(annotated.length).toBeGreaterThan(10);
    for (const id of annotated) {
      const body = await getWithin(`${primates.base}/protein/${id}/gene_ontology/`, 6);
      const want = expectedGo(gaf.filter((r) => r.object === id), terms, ic, human.get(id)!);
      // Same annotations and order keys; among equal (aspect, ic) the order is the file's.
      expect(body, id).toEqual(want);
    }
    const xrefs = parseTsv(readFileSync(`${DATA}/annotations/HUMAN.xrefs.tsv`, "utf8")).filter((x) => x.source !== "Description");
    const withXrefs = [...new Set(xrefs.map((x) => x.protein_id))].filter((_, i) => i % 50 === 0);
    for (const id of withXrefs) {
      const body = await getWithin(`${primates.base}/protein/${id}/xref/`, 3);
      const expected = [...new Set(xrefs.filter((x) => x.protein_id === id).map((x) => `${x.source}\t${x.xref}`)), `SourceID\t${id}`]
        .map((k) => k.split("\t"))
        .sort((a, b) => compare(a[0], b[0]) || compare(a[1], b[1]));
      expect(body.map((x: any) => [x.source, x.xref]), id).toEqual(expected);
      const maindb = await getWithin(`${primates.base}/protein/${id}/xref/?filter=maindb`, 0);
      expect(maindb.map((x: any) => x.source).sort()).toEqual(body.map((x: any) => x.source).sort());
    }
  });

  it("bacteria3: a UniProt proteome record's UniProt ids are exact matches", async () => {
    const proteome = readFileSync(data("bacteria3/proteome/AQUAE.fa"), "utf8");
    const [, accession, name] = /^>\w+\|(\w+)\|(\w+)/m.exec(proteome)!;
    const body = await getWithin(`${bacteria.base}/protein/${accession}/xref/`, 3);
    const exact = body.filter((x: any) => x.seq_match === "exact").map((x: any) => x.xref);
    expect(exact).toContain(accession);
    expect(exact).toContain(name);
    for (const x of body) expect(x.seq_match).toBe(x.source === "SourceID" || x.source.startsWith("UniProtKB") ? "exact" : "unchecked");
    expect(body.some((x: any) => x.seq_match === "unchecked")).toBe(true);
  });
});
