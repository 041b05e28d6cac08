/**
 * HOG families read on worker threads (derive/hog-families.ts, readers/orthoxml-runs.ts): the
 * text of `<groups>` cut into runs of whole top-level groups, whatever the chunks it comes in;
 * cutting gives up on what it does not expect; the families the workers build equal one
 * thread's on the simulated and primates-chr12 HOGs, cut into many runs; and an orthoXML with
 * problems in its groups is read again on one thread, with the same problems in the same order.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../release-compiler/config.js";
import { readHogFamilies } from "../../release-compiler/derive/hog-families.js";
import { readProteomes } from "../../release-compiler/derive/proteins.js";
import { buildTaxonomy } from "../../release-compiler/derive/taxonomy.js";
import { Problems } from "../../release-compiler/problems.js";
import { readNewick } from "../../release-compiler/readers/newick.js";
import { groupRuns, type RunOrEnd } from "../../release-compiler/readers/orthoxml-runs.js";
import { readSpeciesInfo } from "../../release-compiler/readers/species-info.js";
import { TEST_BUILD } from "../build-dir.js";
import { hasSharedData, warnWithoutSharedData } from "../shared-data.js";

// Small inputs run on worker threads all the same (workers.ts threadsAlways): the threads are what these tests compare.
process.env.ORTH_THREADS_ALWAYS = "1";

const ROOT = resolve(import.meta.dirname, "../..");

async function cut(text: string, chunk: number, runChars: number, rootName = "orthoXML"): Promise<RunOrEnd[]> {
  async function* chunks() {
    for (let i = 0; i < text.length; i += chunk) yield text.slice(i, i + chunk);
  }
  const out: RunOrEnd[] = [];
  for await (const run of groupRuns(chunks(), rootName, runChars)) out.push(run);
  return out;
}

const GROUPS = [
  `<orthologGroup id="A"><geneRef id="1"/><paralogGroup><geneRef id="2"/><geneRef id="3"/></paralogGroup></orthologGroup>`,
  `<!-- a comment with <orthologGroup> inside -->`,
  `<paralogGroup note="a > b and 'quoted'" other='say "x"'><orthologGroup><geneRef id="4"/></orthologGroup><geneRef id="5"/></paralogGroup>`,
  `<?pi <orthologGroup>?>`,
  `<ox:orthologGroup><notes><![CDATA[ </orthologGroup> ]]></notes><ox:geneRef id="6"/></ox:orthologGroup>`,
  `<notes>not a family</notes>`,
  `<orthologGroup id="B"><geneRef id="7" /></orthologGroup>`,
];
const BODY = `\n  ${GROUPS.join("\n  ")}\n`;
const DOCUMENT_REST = `${BODY}</groups>\n</orthoXML>\n<!-- after -->\n`;

describe("cutting <groups> into runs", () => {
  it("gives whole top-level elements, all the text of <groups>, and its families, in any chunks", async () => {
    for (const chunk of [1, 2, 7, 64, 100_000]) {
      for (const runChars of [1, 50, 200, 100_000]) {
        const runs = await cut(DOCUMENT_REST, chunk, runChars);
        expect(runs.at(-1), `chunk ${chunk}, run ${runChars}`).toBe(true);
        const texts = runs.slice(0, -1) as Array<{ text: string; groups: number }>;
        expect(texts.map((r) => r.text).join("")).toBe(BODY);
        expect(texts.reduce((n, r) => n + r.groups, 0)).toBe(4);
        // Each run ends where a top-level element does: every group of the body lies whole in one run.
        for (const group of GROUPS) expect(texts.some((r) => r.text.includes(group)), group).toBe(true);
        // Five elements, a run each, comments and instructions with the element after them; then the text before </groups>.
        if (runChars === 1) expect(texts.length).toBe(6);
      }
    }
  });

  it("takes a prefixed root and an empty <groups>", async () => {
    expect(await cut(`${BODY}</ox:groups></ox:orthoXML>`, 5, 10, "ox:orthoXML")).toContain(true);
    expect(await cut(`</groups></orthoXML>`, 3, 10)).toEqual([true]);
  });

  it("gives up on what it does not expect", async () => {
    const cases = {
      "the end inside a family": `<orthologGroup><geneRef id="1"/>`,
      "the end inside a tag": `<orthologGroup id="1`,
      "the end inside a comment": `<!-- never closed`,
      "an end tag without its start": `</orthologGroup></groups></orthoXML>`,
      "a declaration": `<!DOCTYPE x></groups></orthoXML>`,
      "another root end tag": `</groups></other>`,
      "no root end tag": `</groups>`,
      "an element after <groups>": `</groups><notes/></orthoXML>`,
      "text after the root": `</groups></orthoXML>trailing`,
    };
    for (const [what, text] of Object.entries(cases)) expect((await cut(text, 4, 10)).at(-1), what).toBe(false);
  });
});

/** The families of a release's HOGs read on one thread, and on two workers in runs of `runChars`. */
async function bothWays(configPath: string, runChars: number, hogs?: string) {
  const { config } = await loadConfig(configPath);
  const problems = new Problems();
  const species = await readSpeciesInfo(config!.speciesInfo!, problems);
  const tree = await readNewick(config!.speciesTree!, problems);
  const taxonomy = buildTaxonomy(tree!, species, config!.speciesTree!, config!.speciesInfo!, problems);
  const proteins = await readProteomes(species, config!.proteomes, problems, { keepStops: false, jobs: 1, sequenceFolder: mkdtempSync(join(tmpdir(), "orth-hog-runs-")) });
  expect(problems.list).toEqual([]);
  const read = async (onWorkers: boolean) => {
    const problems = new Problems();
    const families = await readHogFamilies(hogs ?? config!.hogs!, config!.hogReleaseLetter ?? "", taxonomy, proteins, problems, { jobs: 2, onWorkers, runChars });
    return { ...families, problems: problems.list, warnings: problems.warnings };
  };
  return { here: await read(false), onWorkers: await read(true) };
}

describe("HOG families on worker threads", () => {
  const SIM = join(TEST_BUILD, "sim-input/release.json");

  it("equal one thread's on the simulated HOGs, in runs of 4 kB", async () => {
    const { here, onWorkers } = await bothWays(SIM, 4096);
    expect(here.families.count).toBeGreaterThan(100);
    expect(here.problems).toEqual([]);
    expect(onWorkers.onWorkers).toBe(true);
    expect({ ...onWorkers, onWorkers: false }).toEqual(here);
  });

  warnWithoutSharedData("the primates-chr12 HOGs on worker threads");
  it.skipIf(!hasSharedData)("equal one thread's on the primates-chr12 HOGs, in runs of 64 kB", async () => {
    const { here, onWorkers } = await bothWays(join(ROOT, "test/fixtures/primates-chr12.release.json"), 1 << 16);
    expect(here.families.count).toBeGreaterThan(1000);
    expect(onWorkers.onWorkers).toBe(true);
    expect({ ...onWorkers, onWorkers: false }).toEqual(here);
  });

  it("are read again on one thread when the groups have problems, which come as one reading gives them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "orth-hog-runs-"));
    const original = readFileSync(join(TEST_BUILD, "sim-input/hogs.orthoxml"), "utf8");
    const refs = [...original.matchAll(/<geneRef id="([^"]+)"/g)];
    const variants: Record<string, string> = {
      // A gene in two families far apart (so in two runs): the second reference is the problem.
      "a gene referenced in two runs": original.replace(refs.at(-1)![0], `<geneRef id="${refs[0][1]}"`),
      "an unknown gene": original.replace(refs[Math.floor(refs.length / 2)][0], `<geneRef id="no-such-gene"`),
      "a tag left open": original.replace(/<\/orthologGroup>(?![\s\S]*<\/orthologGroup>)/, ""),
    };
    for (const [what, text] of Object.entries(variants)) {
      const hogs = join(dir, `${what.replaceAll(" ", "-")}.orthoxml`);
      writeFileSync(hogs, text);
      const { here, onWorkers } = await bothWays(SIM, 4096, hogs);
      expect(here.problems.length, what).toBeGreaterThan(0);
      expect(onWorkers.onWorkers, what).toBe(false);
      expect(onWorkers, what).toEqual(here);
    }
  });
});
