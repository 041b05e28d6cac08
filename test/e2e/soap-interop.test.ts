/**
 * SOAP interoperability with independent clients: Python zeep and Perl SOAP::Lite read the
 * served WSDL and call all eight operations (test/interop/soap-clients.sh), and their answers
 * must equal the expected answers computed here over REST. Skipped, with a message, when
 * Debian's python3-zeep or libsoap-lite-perl is not installed. Both clients run offline (they
 * refuse every host but loopback) with no schema of their own: the SOAP encoding schema the WSDL
 * imports must come from the service.
 */
import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getJson, serveRelease, type ServedRelease } from "./serve.js";

const SCRIPT = resolve(import.meta.dirname, "../interop/soap-clients.sh");
/** Debian's python3 sees python3-zeep; a pyenv python3 earlier on PATH may not. */
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const works = (command: string, args: string[]) => spawnSync(command, args, { stdio: "ignore" }).status === 0;
const missing = [
  works(PYTHON, ["-c", "import zeep"]) ? undefined : `python3-zeep (\`${PYTHON} -c "import zeep"\` failed)`,
  works("perl", ["-MSOAP::Lite", "-e1"]) ? undefined : "libsoap-lite-perl (`perl -MSOAP::Lite -e1` failed)",
].filter((m): m is string => m !== undefined);
if (missing.length) {
  console.warn(`Skipping the SOAP interoperability test: missing ${missing.join(" and ")}; apt-get install python3-zeep libsoap-lite-perl`);
}

const ORTHO_TYPES: Record<string, string> = { "1:1": "1:1 orthologs", "1:n": "1:many orthologs", "m:1": "many:1 orthologs", "m:n": "many:many orthologs" };
/** The reference's recommended order of id types after the orthid (D.2); the rest by name. */
const PREFERRED = ["UniProtKB/SwissProt", "UniProtKB/TrEMBL", "Ensembl Protein", "Ensembl Gene", "RefSeq", "EntrezGene"];

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string; ms: number }> {
  const started = performance.now();
  return new Promise((done) => {
    execFile(command, args, { env, maxBuffer: 16 * 1024 * 1024, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as any).code === "number" ? (error as any).code : 1) : 0;
      done({ code, output: `${stdout}${stderr}`, ms: performance.now() - started });
    });
  });
}

describe.skipIf(missing.length > 0)("SOAP interoperability: zeep and SOAP::Lite on the simulated release", () => {
  let served: ServedRelease;
  let dir: string;
  let expectedFile: string;
  let expected: any;

  beforeAll(async () => {
    served = await serveRelease("sim");
    const api = (path: string) => `${served.base}${path}`;
    const { counts, genomes } = served.manifest;

    // Every protein's cross-references and orthologs, a batch at a time.
    const xrefs = new Map<number, Array<{ xref: string; source: string }>>();
    for (let from = 1; from <= counts.proteins; from += 100) {
      const batch = Array.from({ length: Math.min(100, counts.proteins - from + 1) }, (_, i) => from + i);
      const lists = await Promise.all(batch.map((entry) => getJson(api(`/protein/${entry}/xref/`))));
      batch.forEach((entry, i) => xrefs.set(entry, lists[i]));
    }
    const sources = [...new Set([...xrefs.values()].flat().map((x) => x.source))];
    const types = ["orthid", ...PREFERRED.filter((s) => sources.includes(s)), ...sources.filter((s) => !PREFERRED.includes(s)).sort()];

    const picks = [1, genomes[1].firstEntry + 3, genomes[5].firstEntry + 10, genomes.at(-1)!.firstEntry + 7];
    const records = await Promise.all(picks.map((entry) => getJson(api(`/protein/${entry}/`))));
    const orthologs = await Promise.all(picks.map((entry) => getJson(api(`/protein/${entry}/orthologs/`))));
    /** An id of every kind, one per pick: entry number, orthid, canonical id, a unique cross-reference. */
    const uniqueXref = async (entry: number) => {
      for (const x of xrefs.get(entry)!.filter((x) => x.source !== "SourceID" && !/^\d+$/.test(x.xref))) {
        const res = await fetch(api(`/protein/${encodeURIComponent(x.xref)}/`));
        if (res.status === 200 && ((await res.json()) as any).entry_nr === entry) return x.xref;
      }
      throw new Error(`no unique cross-reference for entry ${entry}`);
    };
    const ids = [String(picks[0]), records[1].orthid, records[2].canonicalid, await uniqueXref(picks[3])];

    // One partner of each ortholog type, seen from the first pick that has it.
    const testOrthology: any[] = [];
    for (const type of Object.keys(ORTHO_TYPES)) {
      for (let entry = 1; entry <= counts.proteins; entry += 13) {
        const partner = (await getJson(api(`/protein/${entry}/orthologs/`))).find((o: any) => o.rel_type === type);
        if (partner) {
          testOrthology.push({ EntryID1: String(entry), EntryID2: partner.orthid, OrthoType: ORTHO_TYPES[type] });
          break;
        }
      }
    }
    const notPartner = records.find((r) => !orthologs[0].some((o: any) => o.entry_nr === r.entry_nr))!;
    testOrthology.push({ EntryID1: records[0].orthid, EntryID2: notPartner.orthid, OrthoType: "not orthologous" });

    const groups = [1, Math.ceil(counts.groups / 2), counts.groups];
    const members = await Promise.all(groups.map(async (nr) => (await getJson(api(`/group/${nr}/`))).members.map((m: any) => m.orthid)));
    const queries = [records[1].sequence.slice(20, 36), records[3].sequence, "WWWWWWWWWWHHHHHHHHHHWWWWW"];
    const exact = await Promise.all(queries.map(async (q) => (await getJson(api(`/sequence/?search=exact&query=${q}`))).targets.map((t: any) => t.orthid)));
    const inIds = [ids[0], "NO-SUCH-ID", ids[1], ids[2], ids[3], ids[1]];
    const mapped = (type: number) =>
      inIds.map((id) => {
        const i = ids.indexOf(id);
        if (i < 0) return [];
        return type === 0 ? [records[i].orthid] : [...new Set(xrefs.get(picks[i])!.filter((x) => x.source === types[type]).map((x) => x.xref))];
      });

    expected = {
      GetMatrixInfo: { Name: (await getJson(api("/version/"))).orth_version, NumSpecies: genomes.length, NumGroups: counts.groups },
      ListIDTypes: types.map((name, nr) => ({ TypeNr: nr, TypeName: name })),
      GetEntry: ids.map((id, i) => ({
        EntryID: id,
        IDs: [...new Set([records[i].orthid, records[i].canonicalid, ...xrefs.get(picks[i])!.map((x) => x.xref)].filter(Boolean))],
        Sequence: records[i].sequence,
        Organism: records[i].species.species,
        OrthGroup: records[i].orth_group,
      })),
      ListOrthologs: [
        ...ids.map((id, i) => ({ EntryID: id, IDs: orthologs[i].map((o: any) => o.orthid) })),
        { EntryID: "NO-SUCH-ID", IDs: [] },
      ],
      TestOrthology: testOrthology,
      GetOrthGroup: groups.map((nr, i) => ({ GroupNr: nr, IDs: members[i] })),
      IdentifySequence: queries.map((q, i) => ({ Sequence: q, IDs: exact[i] })),
      MapIDs: types.map((_, type) => ({ InIDs: inIds, OutType: type, OutIDs: mapped(type) })),
      Faults: [
        { Operation: "GetEntry", Args: ["NO-SUCH-ID"], FaultCode: "Client", FaultString: "Unknown entry id: NO-SUCH-ID" },
        { Operation: "GetOrthGroup", Args: [0], FaultCode: "Client", FaultString: "Unknown group: 0" },
        { Operation: "MapIDs", Args: [["1"], types.length], FaultCode: "Client", FaultString: `Unknown id type: ${types.length} (ListIDTypes names 0 to ${types.length - 1})` },
      ],
    };
    dir = await mkdtemp(join(tmpdir(), "soap-interop-"));
    expectedFile = join(dir, "expected.json");
    await writeFile(expectedFile, JSON.stringify(expected, null, 1));
  });
  afterAll(async () => {
    await served?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("has expected answers of every kind to check", () => {
    expect(expected.TestOrthology.map((c: any) => c.OrthoType)).toEqual([...Object.values(ORTHO_TYPES), "not orthologous"]);
    expect(expected.ListOrthologs.filter((c: any) => c.IDs.length).length).toBeGreaterThan(2);
    expect(expected.IdentifySequence[0].IDs.length).toBeGreaterThan(0);
    expect(expected.MapIDs.slice(1).some((c: any) => c.OutIDs.some((l: string[]) => l.length))).toBe(true);
  });

  for (const where of ["the server root", "a named release (/release/{name})"]) {
    it(`both clients read the WSDL and get the REST answers, at ${where}`, async () => {
      const url = where.startsWith("a named") ? `${served.origin}/release/${served.manifest.name}` : served.origin;
      const result = await run("bash", [SCRIPT, url, expectedFile], { ...process.env, PYTHON });
      console.log(`soap-clients.sh ${url} (${Math.round(result.ms)} ms):\n${result.output.split("\n").filter((l) => /^==|MISMATCH|REFUSED|fetched|checks|expected|got/.test(l)).join("\n")}`);
      expect(result.output).not.toMatch(/MISMATCH/);
      // Offline: neither client reached past loopback, and zeep, which holds no schema of its own,
      // read the SOAP encoding schema the WSDL imports from the service.
      expect(result.output).not.toMatch(/REFUSED/);
      expect(result.output).toContain(`zeep  fetched   GET ${url}/soap/encoding/\n`);
      expect(result.output).toContain(`zeep  fetched   GET ${url}/soap/encoding/groups/\n`);
      expect(result.output).toMatch(/^zeep {2}ok {8}SOAP encoding schema read from the service/m);
      expect(result.output).toMatch(/^perl {2}ok {8}nothing read from outside the service/m);
      expect(result.output).toMatch(/^zeep: all \d+ checks passed$/m);
      expect(result.output).toMatch(/^SOAP::Lite: all \d+ checks passed$/m);
      expect(result.code, result.output.slice(-3000)).toBe(0);
    });
  }

  it("the script fails when an answer differs from what it is told to expect", async () => {
    const wrong = structuredClone(expected);
    wrong.GetMatrixInfo.NumGroups += 1;
    wrong.ListOrthologs[0].IDs.push("NOPE00001");
    const file = join(dir, "wrong.json");
    await writeFile(file, JSON.stringify(wrong));
    const result = await run("bash", [SCRIPT, served.origin, file], { ...process.env, PYTHON });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/^zeep {2}MISMATCH {2}GetMatrixInfo\(\)/m);
    expect(result.output).toMatch(/^perl {2}MISMATCH {2}GetMatrixInfo\(\)/m);
    expect(result.output).toMatch(/^zeep: 2 of \d+ checks FAILED$/m);
    expect(result.output).toMatch(/^SOAP::Lite: 2 of \d+ checks FAILED$/m);
  });
});
