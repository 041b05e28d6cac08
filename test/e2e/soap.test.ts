/**
 * The legacy SOAP 1.1 RPC/encoded interface (reference D) through a real SOAP client: the npm
 * `soap` package reads the served WSDL and calls all eight operations on primates-chr12 and on
 * the simulated release, and every answer is held against the REST interface and the input
 * files (FASTA sequences, species_info.tsv). Then the contract's edges with raw requests: the
 * WSDL itself, faults for every kind of bad request (each answered quickly, the worker serving
 * normally afterwards), hostile XML, oversized bodies, and the tolerated envelope variants.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import { resolve } from "node:path";
import { XMLParser } from "fast-xml-parser";
import { TestMiniflare } from "./miniflare.js";
import { createClientAsync, type Client } from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData, SHARED_DATA, warnWithoutSharedData } from "../shared-data.js";
import { parseFasta, parseTsv } from "./oracle.js";
import { getJson, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";
import { OVERSIZE_DRAIN_LIMIT } from "../../src/middleware/request-body.js";
import { TIME_LIMIT_MS } from "./fuzz-support.js";

const SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
const SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
const SOAPENC = "http://schemas.xmlsoap.org/soap/encoding/";
const XML_TYPE = "text/xml; charset=utf-8";
/** REST rel_type → TestOrthology's text (reference D.2, E.4). */
const ORTHO_TYPES: Record<string, string> = {
  "1:1": "1:1 orthologs",
  "1:n": "1:many orthologs",
  "m:1": "many:1 orthologs",
  "m:n": "many:many orthologs",
};
const MIRRORED: Record<string, string> = { "1:1": "1:1", "1:n": "m:1", "m:1": "1:n", "m:n": "m:n" };
/**
 * Every fault and hostile request must be answered within this: a bound against a hang or
 * runaway work (the fuzz suite's), generous for a loaded machine; speed is the benchmark's.
 */
const QUICK_MS = TIME_LIMIT_MS;

// ---------------------------------------------------------------------------------------------
// Reading answers

/** node-soap leaves SOAP-encoded values as `{attributes, $value}` and arrays as `{item}`. */
const textOf = (v: any): string => (v === undefined || v === null ? "" : typeof v === "object" ? String(v.$value ?? "") : String(v));
const intOf = (v: any): number => Number(textOf(v));
const itemsOf = (v: any): any[] => (v?.item === undefined ? [] : Array.isArray(v.item) ? v.item : [v.item]);
const stringsOf = (v: any): string[] => itemsOf(v).map(textOf);

/** Raw answers read back with a plain XML parser, prefixes kept. */
const xmlParser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false });
const rawText = (v: any): string => (v === undefined || v === null ? "" : typeof v === "object" ? String(v["#text"] ?? "") : String(v));
const rawItems = (v: any): any[] => (v?.item === undefined ? [] : Array.isArray(v.item) ? v.item : [v.item]);

/** A request envelope as the reference's examples write it. */
function envelope(operation: string, parts = ""): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="${SOAP11}" xmlns:soapenc="${SOAPENC}"` +
    ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"` +
    ` soap:encodingStyle="${SOAPENC}"><soap:Body><ns:${operation} xmlns:ns="urn:ORTH">${parts}</ns:${operation}></soap:Body></soap:Envelope>`
  );
}
const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const str = (name: string, value: string | number) => `<${name} xsi:type="xsd:string">${escapeXml(String(value))}</${name}>`;
const int = (name: string, value: string | number) => `<${name} xsi:type="xsd:int">${value}</${name}>`;
const strArray = (name: string, ids: string[]) =>
  `<${name} xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[${ids.length}]">${ids.map((id) => str("item", id)).join("")}</${name}>`;

/** The entry's input record: its genome's FASTA and species_info.tsv, read independently. */
interface Inputs {
  /** Genome code → [FASTA id, sequence] in file (= entry) order. */
  fasta: Map<string, Array<[string, string]>>;
  /** Genome code → scientific name. */
  species: Map<string, string>;
  /** Ids of the xref input files mapped to more than one protein. */
  sharedXrefs: string[];
}

function readInputs(folder: string, codes: string[], xrefFiles: string[]): Inputs {
  const read = (path: string) => readFileSync(resolve(folder, path), "utf8");
  const fasta = new Map(codes.map((code) => [code, [...parseFasta(read(`proteome/${code}.fa`))]]));
  const species = new Map(parseTsv(read("species_info.tsv")).map((row) => [row.Name, row.ScientificName]));
  const owners = new Map<string, Set<string>>();
  for (const file of xrefFiles) {
    for (const row of parseTsv(read(file))) {
      if (row.source === "Description") continue;
      if (!owners.has(row.xref)) owners.set(row.xref, new Set());
      owners.get(row.xref)!.add(row.protein_id);
    }
  }
  const sharedXrefs = [...owners].filter(([id, proteins]) => proteins.size > 1 && /[A-Za-z]/.test(id) && !/^[A-Z0-9]{5}\d{5}$/.test(id)).map(([id]) => id);
  return { fasta, species, sharedXrefs };
}

/** One sampled entry, as REST serves it, with an id of every kind that resolves to it alone. */
interface Sample {
  entry: number;
  orthid: string;
  record: any;
  xrefs: Array<{ xref: string; source: string }>;
  orthologs: Array<{ orthid: string; entry_nr: number; rel_type: string }>;
  /** entry number, orthid, canonical id and a cross-reference, each resolving to this entry only. */
  ids: string[];
}

const RELEASES = [
  {
    name: "demo",
    label: "the demo release",
    available: true,
    input: resolve(TEST_BUILD, "demo-input"),
    xrefFiles: ["annotations/xrefs.tsv"],
  },
  {
    name: "primates",
    label: "primates-chr12",
    available: hasSharedData,
    input: resolve(SHARED_DATA, "primates-chr12"),
    xrefFiles: ["annotations/HUMAN.xrefs.tsv"],
  },
];
warnWithoutSharedData("the SOAP tests on primates-chr12");

for (const release of RELEASES) {
  describe.skipIf(!release.available)(`SOAP through a WSDL-reading client on ${release.label}`, () => {
    let served: ServedRelease;
    let client: Client;
    let inputs: Inputs;
    const samples: Sample[] = [];
    /** Entries whose orthologs show each REST rel_type: [entry, partner, rel_type]. */
    const relations = new Map<string, [Sample, { orthid: string; entry_nr: number }]>();
    let ambiguous: string | undefined;

    const api = (path: string) => `${served.base}${path}`;
    const call = async (operation: string, args: Record<string, unknown> | null): Promise<any> => (await client[`${operation}Async`](args))[0];
    /** Whether an id resolves through REST to exactly this entry. */
    const resolvesTo = async (id: string, entry: number) => {
      const res = await fetch(api(`/protein/${encodeURIComponent(id)}/`));
      return res.status === 200 && ((await res.json()) as any).entry_nr === entry;
    };

    async function sample(entry: number): Promise<Sample> {
      const [record, xrefs, orthologs] = await Promise.all([
        getJson(api(`/protein/${entry}/`)),
        getJson(api(`/protein/${entry}/xref/`)),
        getJson(api(`/protein/${entry}/orthologs/`)),
      ]);
      const ids = [String(entry), record.orthid];
      if (record.canonicalid && (await resolvesTo(record.canonicalid, entry))) ids.push(record.canonicalid);
      const candidates = xrefs.map((x: any) => x.xref).filter((x: string) => x !== record.canonicalid && !/^\d+$/.test(x));
      for (const x of candidates.slice(0, 6)) {
        if (await resolvesTo(x, entry)) {
          ids.push(x);
          break;
        }
      }
      return { entry, orthid: record.orthid, record, xrefs, orthologs, ids };
    }

    beforeAll(async () => {
      served = await serveRelease(release.name);
      client = await createClientAsync(`${served.origin}/soap?wsdl`);
      const genomes = served.manifest.genomes;
      inputs = readInputs(
        release.input,
        genomes.map((g) => g.code),
        release.xrefFiles,
      );
      // The first, middle and last entry of every genome, and a few more of the first (the
      // genome with cross-references in primates-chr12).
      const entries = genomes.flatMap((g) => [g.firstEntry, g.firstEntry + Math.floor(g.nrEntries / 2), g.firstEntry + g.nrEntries - 1]);
      entries.push(...[0.2, 0.4, 0.6, 0.8].map((f) => genomes[0].firstEntry + Math.floor(f * genomes[0].nrEntries)));
      samples.push(...(await Promise.all(entries.map(sample))));
      // More entries until every ortholog type has been seen from a sampled entry.
      const note = (s: Sample) => {
        for (const o of s.orthologs) if (!relations.has(o.rel_type)) relations.set(o.rel_type, [s, o]);
      };
      samples.forEach(note);
      const total = served.manifest.counts.proteins;
      for (let entry = 7; relations.size < 4 && entry <= total; entry += 37) {
        const orthologs = await getJson(api(`/protein/${entry}/orthologs/`));
        if (orthologs.some((o: any) => !relations.has(o.rel_type))) {
          const s = await sample(entry);
          samples.push(s);
          note(s);
        }
      }
      // An id of several entries: from the input's cross-references, as REST judges it.
      for (const id of inputs.sharedXrefs.slice(0, 50)) {
        const res = await fetch(api(`/protein/${encodeURIComponent(id)}/`));
        if (res.status === 404 && /is not unique/.test(((await res.json()) as any).detail)) {
          ambiguous = id;
          break;
        }
      }
    });
    afterAll(() => served?.dispose());

    it("finds an id of every kind and every ortholog type to test with", () => {
      expect(samples.length).toBeGreaterThanOrEqual(3 * served.manifest.genomes.length);
      expect([...relations.keys()].sort()).toEqual(["1:1", "1:n", "m:1", "m:n"]);
      // Entry number, orthid and canonical id for every sample, and a cross-reference for some.
      for (const s of samples) expect(s.ids.slice(0, 3), s.orthid).toEqual([String(s.entry), s.orthid, s.record.canonicalid]);
      expect(samples.filter((s) => s.ids.length === 4).length).toBeGreaterThanOrEqual(4);
      if (!ambiguous) console.warn(`${release.label}: no ambiguous id found in the input cross-references`);
    });

    it("GetMatrixInfo: the release name, genome count and group count of REST and the input", async () => {
      const answer = await call("GetMatrixInfo", null);
      const version = await getJson(api("/version/"));
      const genomes = await fetch(api("/genome/?per_page=1"));
      const groups = await fetch(api("/group/?per_page=1"));
      expect(textOf(answer.Name)).toBe(version.orth_version);
      expect(intOf(answer.NumSpecies)).toBe(Number(genomes.headers.get("X-Total-Count")));
      expect(intOf(answer.NumSpecies)).toBe(inputs.species.size);
      expect(intOf(answer.NumGroups)).toBe(Number(groups.headers.get("X-Total-Count")));
      expect(intOf(answer.NumGroups)).toBeGreaterThan(0);
    });

    it("ListIDTypes: 0 is the orthid, then the release's cross-reference sources, each once", async () => {
      const answer = await call("ListIDTypes", null);
      const types = itemsOf(answer.IDLists).map((t) => [intOf(t.TypeNr), textOf(t.TypeName)] as const);
      expect(types.map(([nr]) => nr)).toEqual(types.map((_, i) => i));
      expect(types[0][1]).toBe("orthid");
      const listed = types.slice(1).map(([, name]) => name);
      expect(new Set(listed).size).toBe(listed.length);
      // Every source REST shows is listed, and every listed source shows up in REST.
      const seen = new Set(samples.flatMap((s) => s.xrefs.map((x) => x.source)));
      for (const source of seen) expect(listed).toContain(source);
      const total = served.manifest.counts.proteins;
      const step = Math.max(1, Math.ceil(total / 1500));
      for (let entry = 1; entry <= total && listed.some((s) => !seen.has(s)); entry += step) {
        for (const x of await getJson(api(`/protein/${entry}/xref/`))) seen.add(x.source);
      }
      expect(listed.filter((s) => !seen.has(s))).toEqual([]);
      // The recommended order: the main databases first, in their fixed order.
      const preferred = ["UniProtKB/SwissProt", "UniProtKB/TrEMBL", "Ensembl Protein", "Ensembl Gene", "RefSeq", "EntrezGene"];
      const present = preferred.filter((p) => listed.includes(p));
      expect(listed.slice(0, present.length)).toEqual(present);
    });

    it("GetEntry: the orthid, canonical id and xref ids of REST; sequence and organism as REST and the input", async () => {
      for (const s of samples) {
        const [code, index] = [s.orthid.slice(0, 5), Number(s.orthid.slice(5))];
        const [fastaId, fastaSequence] = inputs.fasta.get(code)![index - 1];
        const expectedIds = [...new Set([s.orthid, s.record.canonicalid, ...s.xrefs.map((x) => x.xref)].filter(Boolean))];
        for (const id of s.ids) {
          const answer = await call("GetEntry", { EntryID: id });
          const ids = stringsOf(answer.IDs);
          expect(ids, `${s.orthid} as ${id}`).toEqual(expectedIds);
          expect(ids[0]).toBe(s.orthid);
          if (s.record.canonicalid) expect(ids[1]).toBe(s.record.canonicalid);
          expect(new Set(ids).size).toBe(ids.length);
          expect(textOf(answer.Sequence)).toBe(s.record.sequence);
          expect(textOf(answer.Sequence)).toBe(fastaSequence);
          expect(textOf(answer.Organism)).toBe(s.record.species.species);
          expect(textOf(answer.Organism)).toBe(inputs.species.get(code));
          expect(intOf(answer.OrthGroup)).toBe(s.record.orth_group);
        }
        expect(s.record.canonicalid).toBe(fastaId);
      }
    });

    it("ListOrthologs: the orthids of REST's orthologs, in their order, for an id of every kind", async () => {
      let nonEmpty = 0;
      for (const s of samples) {
        const expected = s.orthologs.map((o) => o.orthid);
        if (expected.length) nonEmpty += 1;
        for (const id of s.ids) {
          expect(stringsOf((await call("ListOrthologs", { EntryID: id })).IDs), `${s.orthid} as ${id}`).toEqual(expected);
        }
      }
      expect(nonEmpty).toBeGreaterThan(0);
    });

    it("TestOrthology: REST's rel_type in words, seen from EntryID1; 'not orthologous' otherwise", async () => {
      for (const [relType, [s, partner]] of relations) {
        const partnerSample = await sample(partner.entry_nr);
        // Every pairing of id kinds gives the same answer.
        for (const a of s.ids) {
          for (const b of partnerSample.ids) {
            expect(textOf((await call("TestOrthology", { EntryID1: a, EntryID2: b })).OrthoType), `${a} ${b}`).toBe(ORTHO_TYPES[relType]);
          }
        }
        // The other way round: the partner's REST relation, the mirrored type.
        const back = partnerSample.orthologs.find((o) => o.entry_nr === s.entry)!;
        expect(back.rel_type).toBe(MIRRORED[relType]);
        expect(textOf((await call("TestOrthology", { EntryID1: partner.orthid, EntryID2: s.orthid })).OrthoType)).toBe(ORTHO_TYPES[back.rel_type]);
      }
      for (const s of samples) {
        for (const o of s.orthologs.slice(0, 3)) {
          expect(textOf((await call("TestOrthology", { EntryID1: s.orthid, EntryID2: o.orthid })).OrthoType)).toBe(ORTHO_TYPES[o.rel_type]);
        }
        // Itself, and the sampled entries REST does not list as orthologs.
        const partners = new Set(s.orthologs.map((o) => o.entry_nr));
        const others = [s, ...samples.filter((t) => !partners.has(t.entry) && t.entry !== s.entry).slice(0, 3)];
        for (const t of others) {
          expect(textOf((await call("TestOrthology", { EntryID1: s.ids.at(-1), EntryID2: t.ids[0] })).OrthoType)).toBe("not orthologous");
        }
      }
    });

    it("GetOrthGroup: the orthids of the members of REST's group", async () => {
      const count = served.manifest.counts.groups;
      const groups = new Set([1, 2, count, ...Array.from({ length: 8 }, (_, i) => 1 + Math.floor(((i + 0.5) * count) / 8))]);
      for (const s of samples) if (s.record.orth_group) groups.add(s.record.orth_group);
      for (const nr of groups) {
        const group = await getJson(api(`/group/${nr}/`));
        const ids = stringsOf((await call("GetOrthGroup", { GroupNr: nr })).IDs);
        expect(ids, `group ${nr}`).toEqual(group.members.map((m: any) => m.orthid));
        expect(ids.length).toBeGreaterThan(0);
      }
      for (const s of samples.filter((t) => t.record.orth_group)) {
        expect(stringsOf((await call("GetOrthGroup", { GroupNr: s.record.orth_group })).IDs)).toContain(s.orthid);
      }
    });

    it("IdentifySequence: REST's exact matches, and every input sequence holding the query", async () => {
      const genomes = served.manifest.genomes;
      const containing = (query: string) =>
        genomes.flatMap((g) =>
          inputs.fasta
            .get(g.code)!
            .map(([, sequence], i) => (sequence.includes(query) ? `${g.code}${String(i + 1).padStart(5, "0")}` : undefined))
            .filter((x): x is string => x !== undefined),
        );
      const queries: string[] = [];
      for (const s of samples.slice(0, 12)) {
        const sequence: string = s.record.sequence;
        const clean = /[ACDEFGHIKLMNPQRSTVWXY]{24,}/.exec(sequence.slice(Math.floor(sequence.length / 3)))?.[0];
        if (clean) queries.push(clean.slice(0, 12), clean.slice(0, 24));
        if (/^[ACDEFGHIKLMNPQRSTVWXY]+$/.test(sequence)) queries.push(sequence);
      }
      queries.push("WWWWWWWWWWWWWWWWWWWWHHHHHHHHHHHH");
      let hits = 0;
      for (const query of queries) {
        const rest = await getJson(api(`/sequence/?search=exact&query=${query}`));
        const expected = rest.targets.map((t: any) => t.orthid);
        const ids = stringsOf((await call("IdentifySequence", { Sequence: query })).IDs);
        expect(ids, query).toEqual(expected);
        expect(ids, query).toEqual(containing(query));
        hits += ids.length;
        // Sanitised as REST does: case, whitespace and digits do not matter.
        const messy = `${query.slice(0, 6).toLowerCase()} 12\n${query.slice(6)}`;
        expect(stringsOf((await call("IdentifySequence", { Sequence: messy })).IDs)).toEqual(expected);
      }
      expect(hits).toBeGreaterThan(0);
      expect(stringsOf((await call("IdentifySequence", { Sequence: "WWWWWWWWWWWWWWWWWWWWHHHHHHHHHHHH" })).IDs)).toEqual([]);
    });

    it("MapIDs: REST's cross-references of each source per input id, in input order; [] for unknown ids", async () => {
      const types = itemsOf((await call("ListIDTypes", null)).IDLists).map((t) => textOf(t.TypeName));
      const picked = samples.filter((_, i) => i % 2 === 0);
      const inIds: string[] = [];
      const expectedOf: Array<(type: number) => string[]> = [];
      picked.forEach((s, i) => {
        // Every id kind in turn, with an unknown id and a repeat between them.
        inIds.push(s.ids[i % s.ids.length]);
        expectedOf.push((type) =>
          type === 0 ? [s.orthid] : [...new Set(s.xrefs.filter((x) => x.source === types[type]).map((x) => x.xref))],
        );
        if (i % 3 === 1) {
          inIds.push(`NO-SUCH-ID-${i}`);
          expectedOf.push(() => []);
        }
      });
      inIds.push(picked[0].orthid, "0", String(served.manifest.counts.proteins + 1));
      expectedOf.push(expectedOf[0], () => [], () => []);
      if (ambiguous) {
        inIds.splice(1, 0, ambiguous);
        expectedOf.splice(1, 0, () => []);
      }
      let nonEmpty = 0;
      for (let type = 0; type < types.length; type++) {
        const answer = await call("MapIDs", { InIDs: inIds, OutType: type });
        const lists = itemsOf(answer.OutIDs).map(stringsOf);
        expect(lists, `type ${type} (${types[type]})`).toEqual(expectedOf.map((f) => f(type)));
        nonEmpty += lists.filter((l) => l.length).length;
      }
      expect(nonEmpty).toBeGreaterThan(types.length);
      // Every id kind of one entry maps alike.
      const s = samples.find((t) => t.ids.length === 4)!;
      const answer = await call("MapIDs", { InIDs: s.ids, OutType: 0 });
      expect(itemsOf(answer.OutIDs).map(stringsOf)).toEqual(s.ids.map(() => [s.orthid]));
    });

    it("answers unknown and ambiguous ids as the contract says: faults for one entry, empty lists otherwise", async () => {
      const clientFault = async (operation: string, args: Record<string, unknown>) => {
        const error: any = await client[`${operation}Async`](args).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, `${operation} ${JSON.stringify(args)}`).toBeDefined();
        const fault = error.root?.Envelope?.Body?.Fault;
        return [textOf(fault?.faultcode), textOf(fault?.faultstring)];
      };
      expect(await clientFault("GetEntry", { EntryID: "NO-SUCH-ID" })).toEqual(["soap:Client", "Unknown entry id: NO-SUCH-ID"]);
      expect(await clientFault("GetEntry", { EntryID: "0" })).toEqual(["soap:Client", "Unknown entry id: 0"]);
      expect(await clientFault("TestOrthology", { EntryID1: samples[0].orthid, EntryID2: "NO-SUCH-ID" })).toEqual([
        "soap:Client",
        "Unknown entry id: NO-SUCH-ID",
      ]);
      expect(await clientFault("GetOrthGroup", { GroupNr: served.manifest.counts.groups + 1 })).toEqual([
        "soap:Client",
        `Unknown group: ${served.manifest.counts.groups + 1}`,
      ]);
      if (ambiguous) {
        expect(await clientFault("GetEntry", { EntryID: ambiguous })).toEqual(["soap:Client", `Ambiguous entry id: ${ambiguous}`]);
        expect(stringsOf((await call("ListOrthologs", { EntryID: ambiguous })).IDs)).toEqual([]);
      }
      expect(stringsOf((await call("ListOrthologs", { EntryID: "NO-SUCH-ID" })).IDs)).toEqual([]);
      expect(itemsOf((await call("MapIDs", { InIDs: ["NO-SUCH-ID"], OutType: 0 })).OutIDs).map(stringsOf)).toEqual([[]]);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// The contract's edges, with raw requests, on the simulated release

interface Answer {
  status: number;
  type: string | null;
  allow: string | null;
  body: string;
  ms: number;
}

/** The fault of an answer: HTTP 500, text/xml, a SOAP 1.1 Fault envelope. */
function faultOf(answer: Answer): { code: string; string: string } {
  expect(answer.status, answer.body.slice(0, 400)).toBe(500);
  expect(answer.type).toBe(XML_TYPE);
  const doc = xmlParser.parse(answer.body);
  const env = doc["soap:Envelope"];
  expect(env["@_xmlns:soap"]).toBe(SOAP11);
  const fault = env["soap:Body"]["soap:Fault"];
  expect(fault, answer.body).toBeDefined();
  return { code: rawText(fault.faultcode), string: rawText(fault.faultstring) };
}

/**
 * POSTs a large body over a connection of its own, `total` bytes: `head`, then spaces, sent
 * chunk by chunk with back-pressure (with Content-Length, or chunked when `chunked`), and
 * stops sending once the answer arrives. Nothing but one 64 KiB chunk is ever held.
 *
 * Node's fetch is not used here: past the worker's drain limit (16 MiB) the server answers
 * before reading the whole body and workerd closes the connection with unread data, and
 * undici fails the request with ECONNRESET. For such a body only, a reset that comes before
 * any answer is retried twice; the server's answer and its timing are what the tests check.
 */
async function postLarge(url: string, head: string, total: number, chunked: boolean): Promise<Answer & { sent: number }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await postLargeOnce(url, head, total, chunked);
    } catch (error) {
      if (attempt >= 3 || total <= OVERSIZE_DRAIN_LIMIT || (error as NodeJS.ErrnoException).code !== "ECONNRESET") throw error;
    }
  }
}

function postLargeOnce(url: string, head: string, total: number, chunked: boolean): Promise<Answer & { sent: number }> {
  return new Promise((resolvePost, reject) => {
    const started = performance.now();
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const first = Buffer.from(head);
    let sent = 0;
    let answered = false;
    const headers: Record<string, string> = { "Content-Type": XML_TYPE };
    if (chunked) headers["Transfer-Encoding"] = "chunked";
    else headers["Content-Length"] = String(total);
    const request = http.request(url, { method: "POST", agent: false, headers }, (response) => {
      answered = true;
      const ms = performance.now() - started;
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (d: string) => (body += d));
      response.on("error", reject);
      response.on("end", () => {
        request.destroy();
        resolvePost({
          status: response.statusCode!,
          type: String(response.headers["content-type"] ?? ""),
          allow: String(response.headers.allow ?? ""),
          body,
          ms,
          sent,
        });
      });
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      while (!answered && sent < total) {
        const piece = sent === 0 ? first : chunk.subarray(0, Math.min(chunk.length, total - sent));
        sent += piece.length;
        if (!request.write(piece)) {
          request.once("drain", pump);
          return;
        }
      }
      if (!answered) request.end();
    };
    pump();
  });
}

describe("SOAP contract edges on the simulated release (raw requests)", () => {
  let served: ServedRelease;
  let soapUrl: string;
  let ambiguous: string;
  /** Measured answer times of the fault and hostile cases, reported at the end. */
  const timings: Array<[string, number]> = [];

  async function post(body: BodyInit | string, headers: Record<string, string> = { "Content-Type": XML_TYPE }, url = soapUrl): Promise<Answer> {
    const started = performance.now();
    const res = await fetch(url, { method: "POST", body, headers });
    const ms = performance.now() - started;
    const text = await res.text();
    return { status: res.status, type: res.headers.get("Content-Type"), allow: res.headers.get("Allow"), body: text, ms };
  }

  /** A successful raw call: the response element's parts. */
  async function rawCall(operation: string, parts: string, wrap = envelope): Promise<any> {
    const answer = await post(wrap(operation, parts));
    expect(answer.status, answer.body.slice(0, 400)).toBe(200);
    expect(answer.type).toBe(XML_TYPE);
    const env = xmlParser.parse(answer.body)["soap:Envelope"];
    expect(env["@_xmlns:soap"]).toBe(SOAP11);
    const response = env["soap:Body"][`ns:${operation}Response`];
    expect(response["@_xmlns:ns"]).toBe("urn:ORTH");
    return response;
  }

  /** A fault answer, timed, and then a normal call still answered. */
  async function expectFault(label: string, answer: Answer, code: string, message: RegExp | string) {
    const fault = faultOf(answer);
    expect(fault.code, label).toBe(`soap:${code}`);
    if (typeof message === "string") expect(fault.string, label).toBe(message);
    else expect(fault.string, label).toMatch(message);
    timings.push([label, Math.round(answer.ms)]);
    expect(answer.ms, `${label} took ${answer.ms} ms`).toBeLessThan(QUICK_MS);
    const after = await rawCall("GetMatrixInfo", "");
    expect(rawText(after.Name)).toBe(served.manifest.name);
  }

  beforeAll(async () => {
    served = await serveRelease("sim");
    soapUrl = `${served.origin}/soap`;
    const xrefs = parseTsv(readFileSync(resolve(TEST_BUILD, "sim-input/annotations/xrefs.tsv"), "utf8"));
    const owners = new Map<string, Set<string>>();
    for (const row of xrefs.filter((r) => r.source === "Gene Name")) owners.set(row.xref, (owners.get(row.xref) ?? new Set()).add(row.protein_id));
    ambiguous = [...owners].find(([, proteins]) => proteins.size > 1)![0];
    const res = await fetch(`${served.base}/protein/${ambiguous}/`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as any).detail).toBe(`requested id '${ambiguous}' is not unique`);
  });
  afterAll(async () => {
    console.log(`SOAP fault answer times (ms):\n${timings.map(([label, ms]) => `  ${String(ms).padStart(5)}  ${label}`).join("\n")}`);
    await served?.dispose();
  });

  describe("the WSDL", () => {
    const wsdlParser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => ["message", "part", "operation", "xsd:complexType"].includes(name) });

    async function wsdlOf(path: string, headers: Record<string, string> = {}): Promise<any> {
      const res = await fetch(`${served.origin}${path}`, { headers });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Content-Type")).toBe(XML_TYPE);
      return wsdlParser.parse(await res.text()).definitions;
    }

    it("publishes the outline of reference D.3: urn:ORTH, ORTHPort, ORTHBinding, rpc/encoded, soapAction \"\"", async () => {
      const wsdl = await wsdlOf("/soap?wsdl");
      expect(wsdl["@_name"]).toBe("ORTH");
      expect(wsdl["@_targetNamespace"]).toBe("urn:ORTH");
      expect(wsdl["@_xmlns:tns"]).toBe("urn:ORTH");
      const schema = wsdl.types["xsd:schema"];
      expect(schema["@_targetNamespace"]).toBe("urn:ORTH");
      const arrayTypes = Object.fromEntries(
        schema["xsd:complexType"].map((t: any) => [t["@_name"], t["xsd:complexContent"]?.["xsd:restriction"]?.["xsd:attribute"]?.["@_wsdl:arrayType"] ?? null]),
      );
      expect(arrayTypes).toEqual({
        ArrayOfString: "xsd:string[]",
        ArrayOfArrayOfString: "tns:ArrayOfString[]",
        IDType: null,
        ArrayOfIDType: "tns:IDType[]",
      });
      const messages = Object.fromEntries(wsdl.message.map((m: any) => [m["@_name"], (m.part ?? []).map((p: any) => `${p["@_name"]}:${p["@_type"]}`)]));
      expect(messages).toEqual({
        TestOrthologyRequest: ["EntryID1:xsd:string", "EntryID2:xsd:string"],
        TestOrthologyResponse: ["OrthoType:xsd:string"],
        ListOrthologsRequest: ["EntryID:xsd:string"],
        ListOrthologsResponse: ["IDs:tns:ArrayOfString"],
        GetOrthGroupRequest: ["GroupNr:xsd:int"],
        GetOrthGroupResponse: ["IDs:tns:ArrayOfString"],
        GetEntryRequest: ["EntryID:xsd:string"],
        GetEntryResponse: ["IDs:tns:ArrayOfString", "Sequence:xsd:string", "Organism:xsd:string", "OrthGroup:xsd:int"],
        IdentifySequenceRequest: ["Sequence:xsd:string"],
        IdentifySequenceResponse: ["IDs:tns:ArrayOfString"],
        GetMatrixInfoRequest: [],
        GetMatrixInfoResponse: ["Name:xsd:string", "NumSpecies:xsd:int", "NumGroups:xsd:int"],
        ListIDTypesRequest: [],
        ListIDTypesResponse: ["IDLists:tns:ArrayOfIDType"],
        MapIDsRequest: ["InIDs:tns:ArrayOfString", "OutType:xsd:int"],
        MapIDsResponse: ["OutIDs:tns:ArrayOfArrayOfString"],
      });
      const operations = ["TestOrthology", "ListOrthologs", "GetOrthGroup", "GetEntry", "IdentifySequence", "GetMatrixInfo", "ListIDTypes", "MapIDs"];
      expect(wsdl.portType["@_name"]).toBe("ORTHPort");
      expect(wsdl.portType.operation.map((o: any) => [o["@_name"], o.input["@_message"], o.output["@_message"]])).toEqual(
        operations.map((n) => [n, `tns:${n}Request`, `tns:${n}Response`]),
      );
      const binding = wsdl.binding;
      expect(binding["@_name"]).toBe("ORTHBinding");
      expect(binding["@_type"]).toBe("tns:ORTHPort");
      expect(binding["soap:binding"]["@_style"]).toBe("rpc");
      expect(binding["soap:binding"]["@_transport"]).toBe("http://schemas.xmlsoap.org/soap/http");
      expect(binding.operation.map((o: any) => o["@_name"])).toEqual(operations);
      for (const operation of binding.operation) {
        expect(operation["soap:operation"]["@_soapAction"]).toBe("");
        for (const direction of ["input", "output"]) {
          const body = operation[direction]["soap:body"];
          expect(body["@_use"]).toBe("encoded");
          expect(body["@_namespace"]).toBe("urn:ORTH");
          expect(body["@_encodingStyle"]).toBe(SOAPENC);
        }
      }
      expect(wsdl.service["@_name"]).toBe("ORTHService");
      expect(wsdl.service.port["@_name"]).toBe("ORTHPort");
      expect(wsdl.service.port["@_binding"]).toBe("tns:ORTHBinding");
      expect(wsdl.service.port["soap:address"]["@_location"]).toBe(soapUrl);
    });

    it("is served at GET /soap, /soap?wsdl and /soap/orth.wsdl alike (HEAD too)", async () => {
      const texts = await Promise.all(["/soap", "/soap?wsdl", "/soap/orth.wsdl"].map(async (p) => (await fetch(`${served.origin}${p}`)).text()));
      expect(texts[1]).toBe(texts[0]);
      expect(texts[2]).toBe(texts[0]);
      const head = await fetch(`${served.origin}/soap/orth.wsdl`, { method: "HEAD" });
      expect(head.status).toBe(200);
      expect(head.headers.get("Content-Type")).toBe(XML_TYPE);
    });

    it("builds soap:address from the request origin, behind a proxy and under /release/{name}", async () => {
      const proxied = await wsdlOf("/soap?wsdl", { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "orth.example.org" });
      expect(proxied.service.port["soap:address"]["@_location"]).toBe("https://orth.example.org/soap");
      const hostOnly = await wsdlOf("/soap/orth.wsdl", { "X-Forwarded-Host": "mirror.example.net:8443" });
      expect(hostOnly.service.port["soap:address"]["@_location"]).toBe(`http://mirror.example.net:8443/soap`);
      const name = served.manifest.name;
      const named = await wsdlOf(`/release/${name}/soap?wsdl`);
      expect(named.service.port["soap:address"]["@_location"]).toBe(`${served.origin}/release/${name}/soap`);
      // A client built from that WSDL calls the named release's endpoint.
      const client = await createClientAsync(`${served.origin}/release/${name}/soap?wsdl`);
      const [answer] = await client.GetMatrixInfoAsync(null);
      expect(textOf(answer.Name)).toBe(name);
      expect((client as any).lastEndpoint).toBe(`${served.origin}/release/${name}/soap`);
    });

    it("imports the SOAP encoding schema from the service's own origin, which serves it (offline clients)", async () => {
      const importsOf = (wsdl: any): Array<{ namespace: string; location?: string }> => {
        const list = wsdl.types["xsd:schema"]["xsd:import"];
        return (Array.isArray(list) ? list : [list]).map((i: any) => ({ namespace: i["@_namespace"], location: i["@_schemaLocation"] }));
      };
      const name = served.manifest.name;
      const cases: Array<[string, Record<string, string>, string]> = [
        ["/soap?wsdl", {}, `${served.origin}/soap/encoding/`],
        ["/soap/orth.wsdl", { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "orth.example.org" }, "https://orth.example.org/soap/encoding/"],
        [`/release/${name}/soap?wsdl`, {}, `${served.origin}/release/${name}/soap/encoding/`],
      ];
      for (const [path, headers, location] of cases) {
        const imports = importsOf(await wsdlOf(path, headers));
        expect(imports.find((i) => i.namespace === SOAPENC), path).toEqual({ namespace: SOAPENC, location });
        // Every import that names a location names one on the service: nothing to fetch elsewhere.
        for (const i of imports) if (i.location !== undefined) expect(i.location.startsWith(location.replace(/\/soap\/encoding\/$/, "/")), path).toBe(true);
      }

      const schemaParser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (_name, _path, _leaf, isAttribute) => !isAttribute });
      for (const path of ["/soap/encoding/", `/release/${name}/soap/encoding/`]) {
        const res = await fetch(`${served.origin}${path}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get("Content-Type")).toBe(XML_TYPE);
        expect(res.headers.get("ETag")).toBeTruthy();
        expect(res.headers.get("Cache-Control")).toBe(path.startsWith("/release/") ? "public, max-age=31536000, immutable" : "public, max-age=300");
        const text = await res.text();
        const schema = schemaParser.parse(text)["xs:schema"][0];
        expect(schema["@_targetNamespace"]).toBe(SOAPENC);
        // No prefix is bound to the schema's own namespace, so nothing in it names a component of
        // that namespace (zeep would fetch the namespace URL to resolve such a name); the member
        // groups of Array and Struct come from a namespace of their own, served beside it.
        expect(text.match(/xmlns(:\w+)?="[^"]*"/g)).toEqual(['xmlns:xs="http://www.w3.org/2001/XMLSchema"', 'xmlns:g="urn:ORTH:soap-encoding-groups"']);
        expect(schema["xs:import"]).toEqual([{ "@_namespace": "urn:ORTH:soap-encoding-groups", "@_schemaLocation": "groups/" }]);
        const named = (kind: string) => (schema[kind] ?? []).map((d: any) => d["@_name"]);
        // What the WSDL and RPC/encoded clients use: soapenc:Array and its arrayType attribute, and
        // the standard value types (SOAP 1.1 section 5).
        expect(named("xs:complexType")).toEqual(expect.arrayContaining(["Array", "Struct", "string", "int", "boolean", "double", "base64Binary", "anyType"]));
        expect(named("xs:element")).toEqual(expect.arrayContaining(["Array", "Struct", "string", "int", "anyType"]));
        expect(named("xs:attribute")).toEqual(expect.arrayContaining(["root", "arrayType", "offset", "position"]));
        expect(named("xs:attributeGroup")).toEqual(expect.arrayContaining(["commonAttributes", "arrayAttributes", "arrayMemberAttributes"]));
        const array = schema["xs:complexType"].find((t: any) => t["@_name"] === "Array");
        expect(array["xs:group"]).toEqual([{ "@_ref": "g:Array", "@_minOccurs": "0" }]);
        expect(array["xs:attribute"].map((a: any) => [a["@_name"], a["@_form"]])).toEqual([["arrayType", "qualified"], ["offset", "qualified"], ["id", undefined], ["href", undefined]]);

        const groups = await fetch(`${served.origin}${path}groups/`);
        expect(groups.status, `${path}groups/`).toBe(200);
        expect(groups.headers.get("Content-Type")).toBe(XML_TYPE);
        const groupSchema = schemaParser.parse(await groups.text())["xs:schema"][0];
        expect(groupSchema["@_targetNamespace"]).toBe("urn:ORTH:soap-encoding-groups");
        expect(named("xs:group")).toEqual(["Array", "Struct"]);
        expect(groupSchema["xs:group"].map((g: any) => g["@_name"])).toEqual(["Array", "Struct"]);
      }
      const again = await fetch(`${served.origin}/soap/encoding/`, { headers: { "If-None-Match": (await fetch(`${served.origin}/soap/encoding/`)).headers.get("ETag")! } });
      expect(again.status).toBe(304);
      const head = await fetch(`${served.origin}/soap/encoding/`, { method: "HEAD" });
      expect(head.status).toBe(200);
      const post = await fetch(`${served.origin}/soap/encoding/`, { method: "POST", body: "x" });
      expect(post.status).toBe(405);
      expect(post.headers.get("Allow")).toBe("GET, HEAD");
    });
  });

  describe("faults", () => {
    it("unknown operation, missing and mistyped parts", async () => {
      const cases: Array<[string, string, RegExp | string]> = [
        ["unknown operation", envelope("Frobnicate", str("EntryID", "1")), "Unknown operation: Frobnicate"],
        ["missing part (GetEntry)", envelope("GetEntry"), "Malformed request: missing part EntryID"],
        ["missing second part (TestOrthology)", envelope("TestOrthology", str("EntryID1", "1")), "Malformed request: missing part EntryID2"],
        ["missing part (MapIDs OutType)", envelope("MapIDs", strArray("InIDs", ["1"])), "Malformed request: missing part OutType"],
        ["missing part (GetOrthGroup)", envelope("GetOrthGroup"), "Malformed request: missing part GroupNr"],
        ["non-integer GroupNr", envelope("GetOrthGroup", int("GroupNr", "abc")), /^Malformed request: part GroupNr must be an integer \(xsd:int\), not 'abc'$/],
        ["fractional GroupNr", envelope("GetOrthGroup", int("GroupNr", "1.5")), /^Malformed request: part GroupNr must be an integer/],
        ["non-integer OutType", envelope("MapIDs", strArray("InIDs", ["1"]) + int("OutType", "one")), /^Malformed request: part OutType must be an integer/],
        ["sequence too short (IdentifySequence)", envelope("IdentifySequence", str("Sequence", "MK 12 v")), "Malformed request: the sequence must have at least 5 amino acids"],
        ["array where a string belongs", envelope("GetEntry", strArray("EntryID", ["1", "2"])), "Malformed request: part EntryID must be a string"],
        ["nested too deep for InIDs", envelope("MapIDs", `<InIDs><item><item><item>1</item></item></item></InIDs>${int("OutType", 0)}`), "Malformed request: part InIDs must be an array of strings"],
      ];
      for (const [label, body, message] of cases) await expectFault(label, await post(body), "Client", message);
    });

    it("unknown and ambiguous ids where one entry is needed, unknown group and OutType", async () => {
      const groups = served.manifest.counts.groups;
      const types = rawItems((await rawCall("ListIDTypes", "")).IDLists).length;
      const cases: Array<[string, string, string]> = [
        ["unknown id (GetEntry)", envelope("GetEntry", str("EntryID", "NOPE00001")), "Unknown entry id: NOPE00001"],
        ["entry number 0 (GetEntry)", envelope("GetEntry", str("EntryID", "0")), "Unknown entry id: 0"],
        ["entry number past the end (GetEntry)", envelope("GetEntry", str("EntryID", String(served.manifest.counts.proteins + 1))), `Unknown entry id: ${served.manifest.counts.proteins + 1}`],
        ["orthid past its genome (GetEntry)", envelope("GetEntry", str("EntryID", "HUMAN99999")), "Unknown entry id: HUMAN99999"],
        ["unknown first id (TestOrthology)", envelope("TestOrthology", str("EntryID1", "NO-SUCH") + str("EntryID2", "1")), "Unknown entry id: NO-SUCH"],
        ["unknown second id (TestOrthology)", envelope("TestOrthology", str("EntryID1", "1") + str("EntryID2", "NO-SUCH")), "Unknown entry id: NO-SUCH"],
        ["ambiguous id (GetEntry)", envelope("GetEntry", str("EntryID", ambiguous)), `Ambiguous entry id: ${ambiguous}`],
        ["ambiguous id (TestOrthology)", envelope("TestOrthology", str("EntryID1", ambiguous) + str("EntryID2", "1")), `Ambiguous entry id: ${ambiguous}`],
        ["group 0", envelope("GetOrthGroup", int("GroupNr", 0)), "Unknown group: 0"],
        ["negative group", envelope("GetOrthGroup", int("GroupNr", -3)), "Unknown group: -3"],
        ["group past the end", envelope("GetOrthGroup", int("GroupNr", groups + 1)), `Unknown group: ${groups + 1}`],
        ["unknown OutType", envelope("MapIDs", strArray("InIDs", ["1"]) + int("OutType", 99)), `Unknown id type: 99 (ListIDTypes names 0 to ${types - 1})`],
        ["negative OutType", envelope("MapIDs", strArray("InIDs", ["1"]) + int("OutType", -1)), `Unknown id type: -1 (ListIDTypes names 0 to ${types - 1})`],
        ["unknown release (/release/{name}/soap)", "", "Unknown release: NoSuchRelease"],
      ];
      for (const [label, body, message] of cases) {
        const answer = body
          ? await post(body)
          : await post(envelope("GetMatrixInfo"), { "Content-Type": XML_TYPE }, `${served.origin}/release/NoSuchRelease/soap`);
        await expectFault(label, answer, "Client", message);
      }
    });

    it("list operations answer an empty list for unknown and ambiguous ids", async () => {
      for (const id of ["NO-SUCH-ID", ambiguous, "0"]) {
        const answer = await rawCall("ListOrthologs", str("EntryID", id));
        expect(answer.IDs["@_soapenc:arrayType"]).toBe("xsd:string[0]");
        expect(rawItems(answer.IDs)).toEqual([]);
      }
      const answer = await rawCall("MapIDs", strArray("InIDs", ["NO-SUCH-ID", "HUMAN00001", ambiguous]) + int("OutType", 0));
      expect(answer.OutIDs["@_soapenc:arrayType"]).toBe("xsd:string[][3]");
      expect(rawItems(answer.OutIDs).map((list) => rawItems(list).map(rawText))).toEqual([[], ["HUMAN00001"], []]);
      expect(rawItems(answer.OutIDs).map((list) => list["@_soapenc:arrayType"])).toEqual(["xsd:string[0]", "xsd:string[1]", "xsd:string[0]"]);
      const none = await rawCall("IdentifySequence", str("Sequence", "WWWWWWWWWWWWWWWWWWWWHHHHH"));
      expect(rawItems(none.IDs)).toEqual([]);
    });

    it("bad bodies: malformed XML, not SOAP, empty, not UTF-8, wrong Content-Type, SOAP 1.2", async () => {
      const get = envelope("GetEntry", str("EntryID", "1"));
      const cases: Array<[string, BodyInit, Record<string, string>, string, RegExp | string]> = [
        ["malformed XML", get.replace("</soap:Body>", ""), {}, "Client", /^Malformed request: not well-formed XML/],
        ["unclosed tag", `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body>`, {}, "Client", /^Malformed request: not well-formed XML/],
        ["not XML at all", "GetEntry(1)", {}, "Client", /^Malformed request: /],
        ["XML, not SOAP", `<?xml version="1.0"?><GetEntry><EntryID>1</EntryID></GetEntry>`, {}, "Client", "Malformed request: no SOAP Envelope"],
        ["Envelope of another namespace", `<e:Envelope xmlns:e="urn:other"><e:Body><GetMatrixInfo/></e:Body></e:Envelope>`, {}, "Client", /^Malformed request: the Envelope's namespace is urn:other/],
        ["Envelope without Body", `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Header/></soap:Envelope>`, {}, "Client", "Malformed request: the Envelope has no Body"],
        ["empty Body", `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body/></soap:Envelope>`, {}, "Client", "Malformed request: the Body holds no operation"],
        ["empty body", "", {}, "Client", /^Malformed request: /],
        ["not UTF-8", new Uint8Array([...new TextEncoder().encode(get.slice(0, -30)), 0xff, 0xfe, ...new TextEncoder().encode(get.slice(-30))]), {}, "Client", "Malformed request: the body is not UTF-8"],
        ["application/json", JSON.stringify({ EntryID: "1" }), { "Content-Type": "application/json" }, "Client", "Malformed request: SOAP 1.1 requests are text/xml, not 'application/json'"],
        ["no Content-Type", new Blob([get]), { "Content-Type": "" }, "Client", "Malformed request: SOAP 1.1 requests are text/xml, not '(none)'"],
        [
          "SOAP 1.2 envelope",
          `<env:Envelope xmlns:env="${SOAP12}"><env:Body><ns:GetMatrixInfo xmlns:ns="urn:ORTH"/></env:Body></env:Envelope>`,
          {},
          "VersionMismatch",
          "SOAP 1.1 envelope expected",
        ],
      ];
      for (const [label, body, headers, code, message] of cases) {
        const h: Record<string, string> = { "Content-Type": XML_TYPE, ...headers };
        if (h["Content-Type"] === "") delete h["Content-Type"];
        await expectFault(label, await post(body, h), code, message);
      }
    });

    it("bodies over the 1 MiB cap, with Content-Length and streamed (50 MB), quickly", async () => {
      const head = envelope("GetMatrixInfo");
      // Exactly at the cap: a valid call padded with whitespace is answered.
      const atCap = await post(head + " ".repeat(1024 * 1024 - head.length));
      expect(atCap.status).toBe(200);
      const over = await postLarge(soapUrl, head, 1024 * 1024 + 1, false);
      await expectFault("1 MiB + 1 byte (Content-Length)", over, "Client", "Malformed request: the body is larger than 1048576 bytes");
      const streamed = await postLarge(soapUrl, head, 50_000_000, true);
      await expectFault("50 MB streamed (chunked)", streamed, "Client", "Malformed request: the body is larger than 1048576 bytes");
      // The answer came long before the body could have been sent whole.
      expect(streamed.sent).toBeLessThan(50_000_000);
      const declared = await postLarge(soapUrl, head, 50_000_000, false);
      await expectFault("50 MB with Content-Length", declared, "Client", "Malformed request: the body is larger than 1048576 bytes");
    });

    it("hostile XML: external entity, entity expansion, deep nesting, huge attributes", async () => {
      const lol =
        `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">` +
        Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i || ""};`.repeat(10)}">`).join("") +
        `]>`;
      const get = (entryId: string, prolog = "") => envelope("GetEntry", str("EntryID", entryId).replace(/&amp;/g, "&")).replace(/^<\?xml[^>]*\?>/, prolog);
      const cases: Array<[string, string, RegExp | string]> = [
        [
          "external entity (file:///etc/passwd)",
          get("&e;", `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>`),
          "Malformed request: document type declarations and entities are not allowed",
        ],
        ["entity expansion (billion laughs)", get("&lol9;", lol), "Malformed request: document type declarations and entities are not allowed"],
        ["DOCTYPE without entities", get("1", `<!DOCTYPE soap:Envelope SYSTEM "http://example.org/x.dtd">`), "Malformed request: document type declarations and entities are not allowed"],
        ["10,000-deep nesting", envelope("GetEntry", `<EntryID>${"<a>".repeat(10_000)}1${"</a>".repeat(10_000)}</EntryID>`), "Malformed request: elements nested deeper than 32 levels"],
        ["10,000 unclosed elements", envelope("GetEntry", `<EntryID>${"<a>".repeat(10_000)}</EntryID>`), /^Malformed request: /],
        // Under the cap, a huge attribute is read past and ignored: the unknown id is what is wrong.
        ["900 kB attribute", envelope("GetEntry", `<EntryID junk="${"A".repeat(900_000)}">NO-SUCH-ID</EntryID>`), "Unknown entry id: NO-SUCH-ID"],
        ["50,000 attributes", envelope("GetEntry", `<EntryID ${Array.from({ length: 50_000 }, (_, i) => `a${i}="1"`).join(" ")}>NO-SUCH-ID</EntryID>`), "Unknown entry id: NO-SUCH-ID"],
        ["900 kB attribute, unterminated", envelope("GetEntry", `<EntryID junk="${"A".repeat(900_000)}>1</EntryID>`), /^Malformed request: not well-formed XML/],
      ];
      for (const [label, body, message] of cases) {
        const answer = await post(body);
        await expectFault(label, answer, "Client", message);
        expect(answer.body).not.toMatch(/root:|lollol/);
      }
      const big = await postLarge(soapUrl, envelope("GetEntry", `<EntryID junk="`), 2 * 1024 * 1024, false);
      await expectFault("2 MiB attribute (over the cap)", big, "Client", "Malformed request: the body is larger than 1048576 bytes");
      // A huge attribute on a good call does not stop it.
      const ok = await post(envelope("GetEntry", `<EntryID junk="${"A".repeat(900_000)}">HUMAN00001</EntryID>`));
      expect(ok.status).toBe(200);
      expect(ok.ms).toBeLessThan(QUICK_MS);
    });

    it("internal errors are soap:Server faults (a worker with no release published)", async () => {
      const mf = new TestMiniflare({
        modules: true,
        scriptPath: resolve(TEST_BUILD, "worker/index.js"),
        compatibilityDate: "2026-04-26",
        r2Buckets: ["RELEASES"],
      });
      try {
        const origin = (await mf.ready).origin;
        const answer = await post(envelope("GetMatrixInfo"), { "Content-Type": XML_TYPE }, `${origin}/soap`);
        const fault = faultOf(answer);
        expect(fault).toEqual({ code: "soap:Server", string: "No release is published yet." });
        timings.push(["no release published (soap:Server)", Math.round(answer.ms)]);
      } finally {
        await mf.dispose();
      }
    });

    it("other methods: 405 with Allow", async () => {
      for (const method of ["PUT", "DELETE", "PATCH"]) {
        const res = await fetch(soapUrl, { method, body: envelope("GetMatrixInfo"), headers: { "Content-Type": XML_TYPE } });
        expect(res.status, method).toBe(405);
        expect(res.headers.get("Allow")).toBe("GET, HEAD, POST");
        expect(await res.json()).toEqual({ detail: `Method "${method}" not allowed.` });
      }
      const wsdlPost = await fetch(`${served.origin}/soap/orth.wsdl`, { method: "POST", body: envelope("GetMatrixInfo"), headers: { "Content-Type": XML_TYPE } });
      expect(wsdlPost.status).toBe(405);
      expect(wsdlPost.headers.get("Allow")).toBe("GET, HEAD");
      // Answers and faults name the same methods.
      const answer = await post(envelope("GetMatrixInfo"));
      expect(answer.allow).toBe("GET, HEAD, POST");
      const fault = await post(envelope("Nope"));
      expect(fault.allow).toBe("GET, HEAD, POST");
    });
  });

  describe("tolerance: what clients send is read whatever its form", () => {
    const bodyOf = (entryId: string) => `<ns:GetEntry xmlns:ns="urn:ORTH"><EntryID>${entryId}</EntryID></ns:GetEntry>`;

    it("accepts any envelope prefix, a default namespace, no xsi:type and any SOAPAction", async () => {
      const expected = (await rawCall("GetEntry", str("EntryID", "HUMAN00001"))).IDs;
      const forms = [
        `<SOAP-ENV:Envelope xmlns:SOAP-ENV="${SOAP11}"><SOAP-ENV:Body>${bodyOf("HUMAN00001")}</SOAP-ENV:Body></SOAP-ENV:Envelope>`,
        `<Envelope xmlns="${SOAP11}"><Body><GetEntry xmlns="urn:ORTH"><EntryID>HUMAN00001</EntryID></GetEntry></Body></Envelope>`,
        `<?xml version="1.0"?>\n<s:Envelope xmlns:s='${SOAP11}'>\n  <s:Header/>\n  <s:Body>\n    <m:GetEntry xmlns:m="urn:ORTH">\n      <EntryID>HUMAN00001</EntryID>\n    </m:GetEntry>\n  </s:Body>\n</s:Envelope>\n`,
        `<soap:Envelope xmlns:soap="${SOAP11}"><soap:Body><tns:GetEntry xmlns:tns="urn:ORTH"><tns:EntryID xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:type="xsd:string">HUMAN00001</tns:EntryID></tns:GetEntry></soap:Body></soap:Envelope>`,
      ];
      for (const [i, form] of forms.entries()) {
        const variants: Array<Record<string, string>> = [
          { "Content-Type": "text/xml" },
          { "Content-Type": XML_TYPE, SOAPAction: '"urn:ORTH#GetEntry"' },
          { "Content-Type": "TEXT/XML; charset=UTF-8", SOAPAction: "" },
        ];
        for (const headers of variants) {
          const answer = await post(form, headers);
          expect(answer.status, `form ${i}: ${answer.body.slice(0, 300)}`).toBe(200);
          const response = xmlParser.parse(answer.body)["soap:Envelope"]["soap:Body"]["ns:GetEntryResponse"];
          expect(rawItems(response.IDs).map(rawText)).toEqual(rawItems(expected).map(rawText));
        }
      }
    });

    it("matches parts by position when their names differ", async () => {
      const named = await rawCall("TestOrthology", str("EntryID1", "HUMAN00001") + str("EntryID2", "PANTR00001"));
      const positional = await rawCall("TestOrthology", str("first", "HUMAN00001") + str("second", "PANTR00001"));
      expect(rawText(positional.OrthoType)).toBe(rawText(named.OrthoType));
      expect(rawText(named.OrthoType)).not.toBe("not orthologous");
      const reversed = await rawCall("TestOrthology", str("a", "PANTR00001") + str("b", "HUMAN00001"));
      const back = await rawCall("TestOrthology", str("EntryID1", "PANTR00001") + str("EntryID2", "HUMAN00001"));
      expect(rawText(reversed.OrthoType)).toBe(rawText(back.OrthoType));
      const group = await rawCall("GetOrthGroup", int("number", 3));
      expect(rawItems(group.IDs).map(rawText)).toEqual((await getJson(`${served.base}/group/3/`)).members.map((m: any) => m.orthid));
      const mapped = await rawCall("MapIDs", strArray("ids", ["HUMAN00002", "NOPE"]) + int("type", 0));
      expect(rawItems(mapped.OutIDs).map((l) => rawItems(l).map(rawText))).toEqual([["HUMAN00002"], []]);
    });

    it("reads MapIDs' InIDs as xsd:string[n], as a list of lists (xsd:string[][1], soapenc:Array[1]) and untyped", async () => {
      const ids = ["HUMAN00001", "NO-SUCH-ID", "PANTR00002"];
      const expected = [["HUMAN00001"], [], ["PANTR00002"]];
      const items = ids.map((id) => str("item", id)).join("");
      const forms = [
        strArray("InIDs", ids),
        `<InIDs xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[][1]"><item xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[3]">${items}</item></InIDs>`,
        `<InIDs xsi:type="soapenc:Array" soapenc:arrayType="soapenc:Array[1]"><item xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[3]">${items}</item></InIDs>`,
        `<InIDs>${ids.map((id) => `<string>${id}</string>`).join("")}</InIDs>`,
        `<InIDs soapenc:arrayType="xsd:string[3]" xsi:type="tns:ArrayOfString" xmlns:tns="urn:ORTH">${ids.map((id) => `<InIDs>${id}</InIDs>`).join("")}</InIDs>`,
      ];
      for (const form of forms) {
        const answer = await rawCall("MapIDs", form + int("OutType", 0));
        expect(rawItems(answer.OutIDs).map((l) => rawItems(l).map(rawText)), form).toEqual(expected);
      }
      const empty = await rawCall("MapIDs", `<InIDs xsi:type="soapenc:Array" soapenc:arrayType="xsd:string[0]"/>` + int("OutType", 0));
      expect(rawItems(empty.OutIDs)).toEqual([]);
    });

    it("decodes the predefined escapes and character references, once, and escapes what it sends back", async () => {
      const answer = await post(envelope("GetEntry", str("EntryID", "<&'\">")));
      expect(faultOf(answer)).toEqual({ code: "soap:Client", string: "Unknown entry id: <&'\">" });
      const once = await post(envelope("GetEntry", "<EntryID>&amp;#72;UMAN00001</EntryID>"));
      expect(faultOf(once)).toEqual({ code: "soap:Client", string: "Unknown entry id: &#72;UMAN00001" });
      // `&#x48;` is H and `&#48;` is 0: node-soap writes a newline in a string as `&#xA;`.
      const expected = rawItems((await rawCall("GetEntry", str("EntryID", "HUMAN00001"))).IDs).map(rawText);
      for (const id of ["&#x48;UMAN00001", "HUMAN&#48;0001", "&#72;&#x55;MAN00001"]) {
        const ids = rawItems((await rawCall("GetEntry", `<EntryID>${id}</EntryID>`)).IDs).map(rawText);
        expect(ids, id).toEqual(expected);
      }
    });
  });
});
