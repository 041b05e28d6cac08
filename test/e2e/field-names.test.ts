/**
 * The `oma` naming profile (config `"field_names": "oma"`): the simulated release compiled a
 * second time with the key (`sim-oma`, test/global-setup.ts), served over HTTP beside the
 * default one (`sim`), both reached as at the edge (`X-Forwarded-Proto: https`, one public
 * host) with the R client's `Accept: application/json; version=1.6`. What OMA's R and Python
 * clients rely on: every answer of the interface under the original names and no `orth` name
 * left, each equal to the default profile's answer renamed (so paths, ids, links, pagination
 * and errors are the same), proteins by every id kind and in bulk (the R client's body),
 * `per_page=5000` and `10000` paged to the end, the WSDL and a SOAP client under the original
 * names, and the OpenAPI document valid and held to the answers in both profiles.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { createClientAsync } from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkResponse, loadSchema, type OpenApiDocument } from "../openapi-check.js";
import { serveRelease, type ServedRelease } from "./serve.js";

/** The public host both servers are reached by, over HTTPS as at the edge. */
const PUBLIC = "https://mirror.example.org";
/** What the R client sends with every request (OmaDB always pins version 1.6). */
const R_CLIENT = { "X-Forwarded-Proto": "https", "X-Forwarded-Host": "mirror.example.org", Accept: "application/json; version=1.6" };

/** JSON fields the specification renamed: orth name → the original interface's name. */
const FIELDS: Record<string, string> = {
  orthid: "omaid",
  orth_group: "oma_group",
  orth_hog_id: "oma_hog_id",
  orth_version: "oma_version",
  orth_group_url: "oma_group_url",
  orth_hog_members: "oma_hog_members",
};
/** Values the specification named the same way, as JSON text. */
const VALUES: Record<string, string> = {
  '"orth_FastMap"': '"OMA_FastMap"',
  '"orth_Fun:002"': '"OMA_Fun:002"',
  '"source":"orthid"': '"source":"omaid"',
};
/** Any orth name of any answer (JSON fields and values, the pairs header, SOAP names). */
const ORTH_NAME = /\b(orthid|orthid_[12]|orth_group|orth_hog_id|orth_version|orth_group_url|orth_hog_members|orth_FastMap|orth_Fun|OrthGroup|GetOrthGroup|ORTHPort|ORTHBinding|ORTHService)\b|urn:ORTH\b|orth-Pairs/;

/** The default profile's JSON text as the `oma` profile must write it. */
function renamed(orthText: string): string {
  let text = orthText.replace(/([{,])"(orth[a-z_]*)":/g, (whole, before: string, key: string) => (FIELDS[key] ? `${before}"${FIELDS[key]}":` : whole));
  for (const [orth, oma] of Object.entries(VALUES)) text = text.split(orth).join(oma);
  return text;
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

describe("the oma naming profile", () => {
  let orth: ServedRelease;
  let oma: ServedRelease;
  /** A request to a server, as the public URL `path` (relative to the origin, or a public link). */
  const request = async (server: ServedRelease, path: string, init: RequestInit = {}): Promise<Answer> => {
    const url = path.startsWith(PUBLIC) ? server.origin + path.slice(PUBLIC.length) : server.origin + path;
    const res = await fetch(url, { redirect: "manual", ...init, headers: { ...R_CLIENT, ...(init.headers as Record<string, string>) } });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  /** The same request to both servers. */
  const both = (path: string, init?: RequestInit) => Promise.all([request(orth, path, init), request(oma, path, init)]);

  let samples: { entry: number; omaid: string; canonical: string; group: number; hog: string; level: string; code: string; other: string; sequence: string };
  let docs: { orth: OpenApiDocument; oma: OpenApiDocument };

  beforeAll(async () => {
    [orth, oma] = await Promise.all([serveRelease("sim"), serveRelease("sim-oma")]);
    expect(oma.manifest.fieldNames).toBe("oma");
    expect(orth.manifest).not.toHaveProperty("fieldNames");
    docs = { orth: await loadSchema(orth.base), oma: await loadSchema(oma.base) };
    const [genome, other] = oma.manifest.genomes;
    const proteins = JSON.parse((await request(oma, `/api/genome/${genome.code}/proteins/?per_page=500`)).text);
    const p = proteins.find((x: any) => x.oma_hog_id.includes(".") && x.oma_group) ?? proteins.find((x: any) => x.oma_hog_id && x.oma_group);
    const [hog] = JSON.parse((await request(oma, `/api/hog/${p.oma_hog_id}/`)).text);
    const { sequence } = JSON.parse((await request(oma, `/api/protein/${p.entry_nr}/`)).text);
    samples = { entry: p.entry_nr, omaid: p.omaid, canonical: p.canonicalid, group: p.oma_group, hog: p.oma_hog_id, level: hog.level, code: genome.code, other: other.code, sequence };
  });
  afterAll(() => Promise.all([orth?.dispose(), oma?.dispose()]));

  /** Every GET endpoint once (the conformance walk's table), with the OpenAPI template it answers. */
  const walk = (): Array<[template: string, path: string]> => {
    const { entry: e, omaid, canonical, group, hog, level, code, other, sequence } = samples;
    const lv = encodeURIComponent(level);
    return [
      ["/", "/"],
      ["/genome/", "/genome/"],
      ["/genome/{genome_id}/", `/genome/${code}/`],
      ["/genome/{genome_id}/proteins/", `/genome/${code}/proteins/`],
      ["/genome/{genome_id}/genes/", `/genome/${code}/genes/`],
      ["/protein/{entry_id}/", `/protein/${e}/`],
      ["/protein/{entry_id}/", `/protein/${omaid}/`],
      ["/protein/{entry_id}/", `/protein/${encodeURIComponent(canonical)}/`],
      ["/protein/{entry_id}/orthologs/", `/protein/${e}/orthologs/`],
      ["/protein/{entry_id}/hog_derived_orthologs/", `/protein/${e}/hog_derived_orthologs/`],
      ["/protein/{entry_id}/gene_ontology/", `/protein/${e}/gene_ontology/`],
      ["/protein/{entry_id}/domains/", `/protein/${e}/domains/`],
      ["/protein/{entry_id}/xref/", `/protein/${e}/xref/`],
      ["/protein/{entry_id}/isoforms/", `/protein/${e}/isoforms/`],
      ["/group/", "/group/"],
      ["/group/{group_id}/", `/group/${group}/`],
      ["/group/{group_id}/", `/group/${omaid}/`],
      ["/group/{group_id}/close_groups/", `/group/${group}/close_groups/`],
      ["/hog/", "/hog/"],
      ["/hog/", `/hog/?level=${lv}`],
      ["/hog/{hog_id}/", `/hog/${hog}/`],
      ["/hog/{hog_id}/", `/hog/${omaid}/?level=root`],
      ["/hog/{hog_id}/members/", `/hog/${hog}/members/`],
      ["/hog/{hog_id}/gene_ontology/", `/hog/${hog}/gene_ontology/`],
      ["/hog/{hog_id}/similar_profile_hogs/", `/hog/${hog}/similar_profile_hogs/?max_results=5`],
      ["/pairs/{genome_id1}/{genome_id2}/", `/pairs/${code}/${other}/`],
      ["/pairs/{genome_id1}/{genome_id2}/", `/pairs/${code}/${code}/?xrefs=SourceID`],
      ["/pairs/{genome_id1}/{genome_id2}/minimal/", `/pairs/${code}/${other}/minimal/`],
      ["/summary/shared_ancestry/{genome_id1}/{genome_id2}/", `/summary/shared_ancestry/${code}/${other}/`],
      ["/sequence/", `/sequence/?query=${sequence.slice(0, 60)}`],
      ["/function/", `/function/?query=${sequence}`],
      ["/xref/", `/xref/?search=${omaid.slice(0, 8)}`],
      ["/xref/", `/xref/?search=${encodeURIComponent(canonical.slice(0, 6))}`],
      ["/taxonomy/", "/taxonomy/"],
    ];
  };

  it("answers the whole interface under the original names, each answer the default one renamed, valid in its profile's document", async () => {
    const seen = new Set<string>();
    const collectKeys = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(collectKeys);
      else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) (seen.add(k), collectKeys(x));
    };
    for (const [template, path] of walk()) {
      const [a, b] = await both(`/api${path}`);
      expect([a.status, b.status], `${path}: ${b.text.slice(0, 200)}`).toEqual([200, 200]);
      expect(ORTH_NAME.test(b.text), `${path}: ${b.text.match(ORTH_NAME)?.[0]}`).toBe(false);
      // Everything but the names is the same: values, ids, links (on the public HTTPS host), pagination.
      expect(b.text, path).toBe(renamed(a.text));
      for (const h of ["Content-Type", "Link", "X-Total-Count", "Allow", "Vary"]) expect(b.headers.get(h), `${path} ${h}`).toBe(a.headers.get(h));
      const body = JSON.parse(b.text);
      checkResponse(docs.oma, "get", template, 200, body, `oma ${path}`);
      checkResponse(docs.orth, "get", template, 200, JSON.parse(a.text), `orth ${path}`);
      for (const link of b.text.match(/"https?:\/\/[^"]*"/g) ?? []) expect(link.startsWith(`"${PUBLIC}/`), `${path}: ${link}`).toBe(true);
      collectKeys(body);
    }
    for (const [orthName, original] of Object.entries(FIELDS).filter(([k]) => k !== "orth_version")) {
      expect(seen.has(original), original).toBe(true);
      expect(seen.has(orthName), orthName).toBe(false);
    }
    // The GAF of the function search names OMA's database, the xref search the entry id's source.
    const [gaf] = JSON.parse((await request(oma, `/api/function/?query=${samples.sequence}`)).text);
    if (gaf) expect([gaf.DB, gaf["DB:Reference"], gaf.Assigned_By]).toEqual(["OMA_FastMap", "OMA_Fun:002", "OMA_FastMap"]);
    const hits = JSON.parse((await request(oma, `/api/xref/?search=${samples.omaid}`)).text);
    expect(hits).toContainEqual(expect.objectContaining({ xref: samples.omaid, source: "omaid", omaid: samples.omaid }));
  });

  it("says which profile in /api/version/ (oma_version for the clients' caches)", async () => {
    const [a, b] = await both("/api/version/");
    expect(JSON.parse(a.text)).toEqual({ orth_version: orth.manifest.name, api_version: "1.11", field_names: "orth" });
    expect(JSON.parse(b.text)).toEqual({ oma_version: oma.manifest.name, api_version: "1.11", field_names: "oma" });
    checkResponse(docs.orth, "get", "/version/", 200, JSON.parse(a.text));
    checkResponse(docs.oma, "get", "/version/", 200, JSON.parse(b.text));
  });

  it("writes the pairs tables, OrthoXML, browsable pages and errors with the original names, the rest unchanged", async () => {
    const { code, other, hog, entry } = samples;
    for (const format of ["csv", "tsv"]) {
      const [a, b] = await both(`/api/pairs/${code}/${other}/?format=${format}&xrefs=SourceID&per_page=20`);
      const sep = format === "csv" ? "," : "\t";
      expect(b.text.split("\r\n")[0]).toBe(["OMAid_1", "SourceID_1", "OMAid_2", "SourceID_2", "RelType", "OmaGroup"].join(sep));
      expect(b.text.split("\r\n").slice(1)).toEqual(a.text.split("\r\n").slice(1));
      expect(b.headers.get("Content-Disposition")).toMatch(new RegExp(`^attachment; filename=OMA-Pairs_${code}-${other}_[0-9-]+_[0-9]{6}\\.${format}$`));
      expect(b.headers.get("Link")).toBe(a.headers.get("Link"));
    }
    const [x, y] = await both(`/api/hog/${hog}/orthoxml/`);
    expect(y.text).toContain('origin="OMA"');
    expect(y.text.replace('origin="OMA"', 'origin="orth"').replaceAll('<database name="OMA"', '<database name="orth"')).toBe(x.text);
    // A browser's pages of a record (its page, and the API view showing the JSON) and the documentation page.
    for (const path of [`/api/protein/${entry}/`, `/api/protein/${entry}/?format=api`]) {
      const page = await request(oma, path, { headers: { Accept: "text/html" } });
      expect(page.headers.get("Content-Type"), path).toMatch(/^text\/html/);
      expect(page.text.match(ORTH_NAME)?.[0], path).toBeUndefined();
      if (path.includes("format=api")) expect(page.text).toContain("&quot;omaid&quot;");
    }
    const docsPage = await request(oma, "/api/docs/", { headers: { Accept: "text/html" } });
    expect(docsPage.status).toBe(200);
    expect(docsPage.text).toContain("omaid");
    expect(docsPage.text.match(ORTH_NAME)?.[0]).toBeUndefined();
    // Errors are the same in both profiles.
    for (const path of ["/api/protein/NOPE/", "/api/group/0/", "/api/genome/?page=999", "/api/version/?format=xml"]) {
      const [a, b] = await both(path);
      expect([b.status, b.text], path).toEqual([a.status, a.text]);
    }
  });

  it("finds proteins by every id kind and in bulk as the R client asks (its extra body key ignored)", async () => {
    const { entry, omaid, canonical } = samples;
    const xrefs = JSON.parse((await request(oma, `/api/protein/${entry}/xref/`)).text) as Array<{ xref: string; source: string; omaid: string }>;
    expect(xrefs.every((x) => x.omaid === omaid)).toBe(true);
    const ids: string[] = [String(entry), omaid, canonical];
    for (const x of xrefs.filter((x) => x.xref !== canonical && x.xref !== omaid)) {
      if ((await request(oma, `/api/protein/${encodeURIComponent(x.xref)}/`)).status === 200) {
        ids.push(x.xref);
        break;
      }
    }
    expect(ids.length).toBe(4);
    for (const id of ids) {
      const record = JSON.parse((await request(oma, `/api/protein/${encodeURIComponent(id)}/`)).text);
      expect([record.entry_nr, record.omaid], id).toEqual([entry, omaid]);
      // What the R client builds a locus from.
      expect(record).toMatchObject({ chromosome: expect.any(String), locus: { start: expect.any(Number), end: expect.any(Number), strand: expect.any(Number) } });
    }
    const body = JSON.stringify({ ids: [...ids, "NOPE"], auto_unbox: [true] });
    const post = (accept: string) =>
      both("/api/protein/bulk_retrieve/", { method: "POST", body, headers: { "Content-Type": "application/json", Accept: accept } });
    // 1.6 (the R client): the plain list of the records found.
    const [a16, b16] = await post("application/json; version=1.6");
    expect([a16.status, b16.status]).toEqual([200, 200]);
    expect(b16.text).toBe(renamed(a16.text));
    const records = JSON.parse(b16.text);
    expect(records.map((r: any) => r.omaid)).toEqual(ids.map(() => omaid));
    checkResponse(docs.oma, "post", "/protein/bulk_retrieve/", 200, records, "bulk 1.6", { mediaType: "application/json; version=1.6" });
    // 1.7 and later (the Python client): one {query_id, target} per id.
    const [a, b] = await post("application/json");
    expect(b.text).toBe(renamed(a.text));
    const answers = JSON.parse(b.text);
    expect(answers.map((x: any) => [x.query_id, x.target?.omaid ?? null])).toEqual([...ids.map((id) => [id, omaid]), ["NOPE", null]]);
    checkResponse(docs.oma, "post", "/protein/bulk_retrieve/", 200, answers, "bulk");
  });

  it("pages lists with per_page=5000 and 10000 to the end by X-Total-Count and Link (https links followed)", async () => {
    const { code, other } = samples;
    for (const list of [`/api/genome/${code}/proteins/`, `/api/genome/${code}/genes/`, `/api/pairs/${code}/${other}/`, "/api/group/", "/api/hog/"]) {
      const pages = async (perPage: number) => {
        const items: any[] = [];
        let total = -1;
        for (let next: string | undefined = `${list}?per_page=${perPage}`; next; ) {
          const answer = await request(oma, next);
          expect(answer.status, next).toBe(200);
          total = Number(answer.headers.get("X-Total-Count"));
          items.push(...JSON.parse(answer.text));
          next = /<([^>]+)>; rel="next"/.exec(answer.headers.get("Link") ?? "")?.[1];
          if (next) expect(next.startsWith(`${PUBLIC}/`), next).toBe(true);
        }
        expect(items.length, `${list} per_page=${perPage}`).toBe(total);
        return items;
      };
      const [big, bigger, small] = [await pages(5000), await pages(10000), await pages(Math.max(2, Math.ceil((await pages(10000)).length / 3)))];
      expect(bigger).toEqual(big);
      expect(small).toEqual(big);
      expect(JSON.stringify(big)).not.toMatch(ORTH_NAME);
    }
  });

  it("serves the WSDL and answers a SOAP client under the original names", async () => {
    const wsdl = await request(oma, "/soap?wsdl");
    expect(wsdl.status).toBe(200);
    expect(wsdl.text.match(ORTH_NAME)?.[0]).toBeUndefined();
    for (const name of ['name="OMA"', 'targetNamespace="urn:OMA"', 'portType name="OMAPort"', 'binding name="OMABinding" type="tns:OMAPort"', 'service name="OMAService"', 'operation name="GetOMAGroup"', 'part name="OMAGroup"']) {
      expect(wsdl.text, name).toContain(name);
    }
    expect(wsdl.text).toContain(`<soap:address location="${PUBLIC}/soap"/>`);
    // The default profile's WSDL is the same document under the orth names.
    const [orthWsdl] = await both("/soap/orth.wsdl");
    const orthNames: Array<[RegExp, string]> = [[/GetOMAGroup/g, "GetOrthGroup"], [/OMAGroup/g, "OrthGroup"], [/urn:OMA/g, "urn:ORTH"], [/"OMA(Port|Binding|Service)?"/g, '"ORTH$1"'], [/tns:OMA(Port|Binding)/g, "tns:ORTH$1"]];
    expect(orthNames.reduce((t, [from, to]) => t.replace(from, to), wsdl.text)).toBe(orthWsdl.text);

    // npm `soap` reads the WSDL (from the server's own origin: the encoding schema it imports is fetched too).
    const client = await createClientAsync(`${oma.origin}/soap?wsdl`);
    const described = client.describe();
    expect(Object.keys(described)).toEqual(["OMAService"]);
    expect(Object.keys(described.OMAService)).toEqual(["OMAPort"]);
    expect(Object.keys(described.OMAService.OMAPort)).toContain("GetOMAGroup");
    expect(Object.keys(described.OMAService.OMAPort)).not.toContain("GetOrthGroup");
    const text = (v: any): string => (v && typeof v === "object" ? String(v.$value ?? "") : String(v ?? ""));
    const items = (v: any): string[] => (v?.item === undefined ? [] : [].concat(v.item).map(text));
    const group = JSON.parse((await request(oma, `/api/group/${samples.group}/`)).text);
    const [members] = await client.GetOMAGroupAsync({ GroupNr: samples.group });
    expect(items(members.IDs)).toEqual(group.members.map((m: any) => m.omaid));
    const [entry] = await client.GetEntryAsync({ EntryID: samples.omaid });
    expect(items(entry.IDs)[0]).toBe(samples.omaid);
    expect(Number(text(entry.OMAGroup))).toBe(samples.group);
    expect((client as any).lastResponse).toContain('xmlns:ns="urn:OMA"');
    expect((client as any).lastResponse.match(ORTH_NAME)?.[0]).toBeUndefined();
    const [types] = await client.ListIDTypesAsync(null);
    expect(text([].concat(types.IDLists.item)[0]?.["TypeName"])).toBe("omaid");

    // Raw calls: the orth operation is unknown here, and faults carry the profile's namespace.
    const call = async (operation: string, ns: string, parts: string) =>
      request(oma, "/soap", {
        method: "POST",
        headers: { "Content-Type": "text/xml; charset=utf-8" },
        body: `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ns:${operation} xmlns:ns="${ns}">${parts}</ns:${operation}></soap:Body></soap:Envelope>`,
      });
    const unknown = await call("GetOrthGroup", "urn:ORTH", "<GroupNr>1</GroupNr>");
    expect(unknown.status).toBe(500);
    expect(unknown.text).toContain("<faultstring>Unknown operation: GetOrthGroup</faultstring>");
    expect(unknown.text).toContain('xmlns:tns="urn:OMA"');
    const raw = await call("GetOMAGroup", "urn:OMA", "<GroupNr>1</GroupNr>");
    expect(raw.status).toBe(200);
    expect(raw.text).toContain('<ns:GetOMAGroupResponse xmlns:ns="urn:OMA">');
  });

  it("publishes a valid OpenAPI document in both profiles, the oma one under the original names", async () => {
    for (const doc of [docs.orth, docs.oma]) {
      const validator = new Validator();
      const result = await validator.validate(structuredClone(doc));
      expect(result.errors, JSON.stringify(result.errors)?.slice(0, 1000)).toBeUndefined();
    }
    const omaText = JSON.stringify(docs.oma);
    expect(omaText.match(ORTH_NAME)?.[0]).toBeUndefined();
    const summary = docs.oma.components.schemas.ProteinSummary;
    expect(summary.required).toEqual(expect.arrayContaining(["omaid", "oma_group", "oma_hog_id"]));
    expect(docs.oma.components.schemas.Version.required).toEqual(["oma_version", "api_version", "field_names"]);
    // Paths are the same in both profiles, the servers too (each its own origin).
    expect(Object.keys(docs.oma.paths)).toEqual(Object.keys(docs.orth.paths));
    expect(JSON.stringify(docs.orth)).toMatch(ORTH_NAME);
  });
});
