import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, speciesFile } from "../../../release-compiler/config.js";
import { data, hasSharedData } from "./data-path.js";
import { messages, tempDir } from "./tmp.js";

/** A release folder with the files a config can name. */
function releaseDir(): string {
  const dir = tempDir();
  for (const f of ["species_info.tsv", "tree.nwk", "hogs.orthoxml", "groups.tsv", "pairs.tsv", "a.gaf", "b.gaf", "go.obo", "x.tsv", "sp.dat", "dom.tsv"]) {
    writeFileSync(path.join(dir, f), "");
  }
  for (const d of ["proteome", "cdna", "gff", "splice"]) mkdirSync(path.join(dir, d));
  writeFileSync(path.join(dir, "proteome", "HUMAN.fa.gz"), "");
  writeFileSync(path.join(dir, "proteome", "MOUSE.fa"), "");
  return dir;
}

function writeConfig(dir: string, config: unknown, name = "release.json"): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof config === "string" ? config : JSON.stringify(config, null, 2));
  return file;
}

const MINIMAL = {
  name: "Test.release",
  species_info: "species_info.tsv",
  species_tree: "tree.nwk",
  proteomes: "proteome",
  hogs: "hogs.orthoxml",
};

describe("loadConfig", () => {
  it("resolves paths relative to the config file's folder; optional lists default to []", async () => {
    const dir = releaseDir();
    const { config, problems } = await loadConfig(writeConfig(dir, MINIMAL));
    expect(messages(problems)).toEqual([]);
    expect(config).toEqual({
      configPath: path.join(dir, "release.json"),
      name: "Test.release",
      speciesInfo: path.join(dir, "species_info.tsv"),
      speciesTree: path.join(dir, "tree.nwk"),
      proteomes: path.join(dir, "proteome"),
      hogs: path.join(dir, "hogs.orthoxml"),
      goAnnotations: [],
      xrefs: [],
      uniprot: [],
    });
  });

  it("reads every key", async () => {
    const dir = releaseDir();
    mkdirSync(path.join(dir, "conf"));
    const full = {
      ...Object.fromEntries(Object.entries(MINIMAL).map(([k, v]) => [k, k === "name" ? v : `../${v}`])),
      hog_release_letter: "B",
      cdna: "../cdna",
      groups: "../groups.tsv",
      pairs: "../pairs.tsv",
      loci: "../gff",
      isoforms: "../splice",
      go_annotations: ["../a.gaf", "../b.gaf"],
      go_ontology: "../go.obo",
      xrefs: ["../x.tsv"],
      uniprot: ["../sp.dat"],
      domains: "../dom.tsv",
    };
    const { config, problems } = await loadConfig(writeConfig(path.join(dir, "conf"), full));
    expect(messages(problems)).toEqual([]);
    expect(config).toMatchObject({
      hogReleaseLetter: "B",
      cdna: path.join(dir, "cdna"),
      groups: path.join(dir, "groups.tsv"),
      pairs: path.join(dir, "pairs.tsv"),
      loci: path.join(dir, "gff"),
      isoforms: path.join(dir, "splice"),
      goAnnotations: [path.join(dir, "a.gaf"), path.join(dir, "b.gaf")],
      goOntology: path.join(dir, "go.obo"),
      xrefs: [path.join(dir, "x.tsv")],
      uniprot: [path.join(dir, "sp.dat")],
      domains: path.join(dir, "dom.tsv"),
      proteomes: path.join(dir, "proteome"),
    });
  });

  it("reads the naming profile field_names: orth or oma, nothing else", async () => {
    const dir = releaseDir();
    for (const names of ["orth", "oma"]) {
      const { config, problems } = await loadConfig(writeConfig(dir, { ...MINIMAL, field_names: names }));
      expect(messages(problems)).toEqual([]);
      expect(config?.fieldNames).toBe(names);
    }
    expect((await loadConfig(writeConfig(dir, MINIMAL))).config?.fieldNames).toBeUndefined();
    const { config, problems } = await loadConfig(writeConfig(dir, { ...MINIMAL, field_names: "OMA" }));
    expect(config).toBeUndefined();
    expect(messages(problems)).toEqual(['7: "field_names" must be "orth" or "oma", found string "OMA"']);
  });

  it("refuses a release name that cannot be a storage key's or a path's segment", async () => {
    for (const name of ["Primates chr12", "releases/2026", "", "Prímates"]) {
      const { config, problems } = await loadConfig(writeConfig(releaseDir(), { ...MINIMAL, name }));
      expect(config, name).toBeUndefined();
      expect(messages(problems)).toEqual([`2: "name" must be letters, digits, '.', '_' and '-' (it names the release in storage keys and in /release/{name}/ paths), found string ${JSON.stringify(name)}`]);
    }
  });

  it("reports the line of a JSON syntax error", async () => {
    const dir = releaseDir();
    const file = writeConfig(dir, '{\n  "name": "x",\n  "hogs": "h"\n  "proteomes": "p"\n}\n');
    const { config, problems } = await loadConfig(file);
    expect(config).toBeUndefined();
    expect(problems.list).toHaveLength(1);
    expect(problems.list[0]).toMatchObject({ file, line: 4 });
    expect(problems.list[0].message).toMatch(/^not valid JSON: /);
  });

  it("reports unknown keys, missing keys, wrong types, bad letters and missing files", async () => {
    const dir = releaseDir();
    const file = writeConfig(dir, {
      name: 42,
      hog_release_letter: "ab",
      species_tree: "nope.nwk",
      proteomes: "tree.nwk",
      hogs: "proteome",
      go_annotations: "a.gaf",
      xrefs: ["x.tsv", 3],
      uniprot: ["missing.dat"],
      colour: "blue",
    });
    const { config, problems } = await loadConfig(file);
    expect(config).toBeUndefined();
    expect(problems.list.every((p) => p.file === file)).toBe(true);
    expect(messages(problems)).toEqual([
      '15: unknown key "colour"',
      `2: "name" must be letters, digits, '.', '_' and '-' (it names the release in storage keys and in /release/{name}/ paths), found number 42`,
      '3: "hog_release_letter" must be a single capital letter A-Z, found string "ab"',
      '0: missing required key "species_info"',
      `4: species_tree: file not found: ${path.join(dir, "nope.nwk")}`,
      `5: proteomes: ${path.join(dir, "tree.nwk")} is a file, expected a folder`,
      `6: hogs: ${path.join(dir, "proteome")} is a folder, expected a file`,
      '7: "go_annotations" must be a list of file paths (non-empty strings), found string "a.gaf"',
      '8: "xrefs" must be a list of file paths (non-empty strings), found a list containing number 3',
      `12: uniprot: file not found: ${path.join(dir, "missing.dat")}`,
    ]);
  });

  it("reports a missing config file and a config that is not an object", async () => {
    expect(messages((await loadConfig("/nonexistent/release.json")).problems)).toEqual(["0: config file not found"]);
    const dir = tempDir();
    expect(messages((await loadConfig(writeConfig(dir, "[1, 2]"))).problems)).toEqual(["1: the config must be a JSON object, found a list"]);
  });
});

describe("speciesFile", () => {
  it("joins folder, code and extension; prefers CODE.ext.gz when only that exists", () => {
    const dir = releaseDir();
    const proteome = path.join(dir, "proteome");
    expect(speciesFile(proteome, "MOUSE", ".fa")).toBe(path.join(proteome, "MOUSE.fa"));
    expect(speciesFile(proteome, "HUMAN", ".fa")).toBe(path.join(proteome, "HUMAN.fa.gz"));
    expect(speciesFile(proteome, "RATNO", "fa")).toBe(path.join(proteome, "RATNO.fa"));
  });
});

describe.skipIf(!hasSharedData)("loadConfig on real data", () => {
  it("accepts a config pointing into ../shared/data/primates-chr12", async () => {
    const dir = tempDir();
    const rel = (p: string) => path.relative(dir, data("primates-chr12", p));
    const { config, problems } = await loadConfig(
      writeConfig(dir, {
        name: "primates.chr12",
        species_info: rel("species_info.tsv"),
        species_tree: rel("species_tree.nwk"),
        proteomes: rel("proteome"),
        hogs: rel("FastOMA_HOGs.orthoxml"),
        loci: rel("gff3"),
        go_annotations: [rel("annotations/HUMAN.gaf")],
        go_ontology: rel("annotations/go-basic.obo"),
        xrefs: [rel("annotations/HUMAN.xrefs.tsv")],
      }),
    );
    expect(messages(problems)).toEqual([]);
    expect(config?.proteomes).toBe(data("primates-chr12/proteome"));
    expect(speciesFile(config!.loci!, "HUMAN", ".gff")).toBe(data("primates-chr12/gff3/HUMAN.gff"));
  });
});
