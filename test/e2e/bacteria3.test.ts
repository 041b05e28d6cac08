/**
 * The real bacteria3 release (UniProt-style FASTA headers, a given groups file and pairs file,
 * a UniProt flat file and a GAF) served over HTTP, checked against its input files.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hasSharedData, SHARED_DATA, warnWithoutSharedData } from "../shared-data.js";
import { md5Hex, parseFasta, parseTsv } from "./oracle.js";
import { getAllPages, getJson, serveRelease, type ServedRelease } from "./serve.js";

warnWithoutSharedData("the bacteria3 end-to-end tests");
const DATA = resolve(SHARED_DATA, "bacteria3");
const CODES = ["AQUAE", "MYCGE", "CHLTR"];

describe.skipIf(!hasSharedData)("bacteria3", () => {
  let served: ServedRelease;
  let base: string;
  beforeAll(async () => {
    served = await serveRelease("bacteria3");
    base = served.base;
  });
  afterAll(() => served?.dispose());

  it("uses the UniProt accession as canonical id and resolves every form of the header id", async () => {
    let entry = 0;
    for (const code of CODES) {
      const proteins = await getAllPages(`${base}/genome/${code}/proteins/`);
      const input = [...parseFasta(readFileSync(resolve(DATA, `proteome/${code}.fa`), "utf8"))];
      expect(proteins.length).toBe(input.length);
      for (const [i, [id, seq]] of input.entries()) {
        entry += 1;
        const [, accession, name] = id.split("|");
        const p = proteins[i];
        expect(p.entry_nr).toBe(entry);
        expect(p.canonicalid).toBe(accession);
        expect(p.sequence_md5).toBe(md5Hex(seq));
        // No loci in this release: the reference's sentinels.
        expect(p.chromosome).toBe("");
        expect(p.locus).toEqual({ start: 0, end: 0, strand: 0 });
        for (const key of [id, accession, name]) {
          const record = await getJson(`${base}/protein/${encodeURIComponent(key)}/`);
          expect(record.entry_nr, key).toBe(entry);
          expect(record.sequence).toBe(seq);
        }
      }
    }
  });

  it("numbers the groups of OrthologousGroups.tsv in file order with their members", async () => {
    const rows = parseTsv(readFileSync(resolve(DATA, "OrthologousGroups.tsv"), "utf8"));
    const groups = new Map<string, string[]>();
    for (const r of rows) groups.set(r.Group, [...(groups.get(r.Group) ?? []), r.Protein.split("|")[1]]);
    const list = await getAllPages(`${base}/group/`);
    expect(list.length).toBe(groups.size);
    for (const [nr, members] of [...groups.values()].entries()) {
      const group = await getJson(`${base}/group/${nr + 1}/`);
      expect(group.members.map((m: any) => m.canonicalid).sort()).toEqual([...members].sort());
      expect(group.related_groups).toBe(`${base}/group/${nr + 1}/close_groups/`);
      const viaMember = await getJson(`${base}/group/${members[0]}/`);
      expect(viaMember.group_nr).toBe(nr + 1);
    }
  });

  it("keeps the orthoXML HOG ids when the release has no letter, with levels from the species tree", async () => {
    const [hog] = await getJson(`${base}/hog/HOG:0000001/`);
    expect(hog.level).toBe("inter2");
    expect(hog.roothog_id).toBe(1);
    const members = await getJson(`${base}/hog/HOG:0000001/members/?level=inter1`);
    expect(members.members).toHaveLength(2);
    const record = await getJson(`${base}/protein/${members.members[0].entry_nr}/`);
    expect(record.hog_levels).toEqual([record.species.species, "inter1", "inter2"]);
    expect(record.orth_hog_members).toBe(`${base}/hog/HOG:0000001/members/`);
  });

  it("names species from the UniProt entries of their taxon when species_info has no names", async () => {
    const genome = await getJson(`${base}/genome/224324/`);
    const name = "Aquifex aeolicus (strain VF5)";
    expect(genome).toMatchObject({ code: "AQUAE", taxon_id: 224324, species: name, lineage: [name, "inter1", "inter2"] });
    expect(genome.chromosomes).toEqual([{ id: "", entry_ranges: [[1, genome.nr_entries]] }]);
    const genomes = await getJson(`${base}/genome/`);
    expect(genomes.map((g: any) => g.species)).toEqual([name, "Mycoplasma genitalium (strain ATCC 33530 / DSM 19775 / NCTC 10195 / G37) (Mycoplasmoides genitalium)", "Chlamydia trachomatis serovar D (strain ATCC VR-885 / DSM 19411 / UW-3/Cx)"]);
    const record = await getJson(`${base}/protein/LEPA_AQUAE/`);
    expect(record.species.species).toBe(name);
  });
});
