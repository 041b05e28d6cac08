/**
 * Pages for people: what a browser gets when it opens a resource (tables with the pager, the
 * protein card, a HOG's family drawn on the species tree, the species tree), the drawing alone
 * as SVG, and what stays as it was (`format=api` the JSON viewer, `format=json` and API clients
 * the JSON). Over HTTP on the served bundle, in headless Chromium (screenshots at 1280 and 390
 * px in `${TEST_BUILD}/artifacts/pages/`), and the drawing's bounds: the largest family of every
 * test release in process (its figures in `artifacts/hog-drawing-figures.json`), and a made-up
 * family of 2,500 genomes.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { XMLValidator } from "fast-xml-parser";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { folderStorage } from "../../release-compiler/local/folder-storage.js";
import type { FamilyRow, Manifest } from "../../release-format/format.js";
import { createApp } from "../../src/app.js";
import { familyHistory } from "../../src/release/family-history.js";
import { hogMembersPage, hogPage } from "../../src/render/pages/hog-pages.js";
import type { ProteinLine } from "../../src/render/pages/tables.js";
import { linksFor } from "../../src/render/links.js";
import { HOG_TREE_LIMITS, hogTreeSvg } from "../../src/render/pictures/hog-tree.js";
import { allRows, openedManifest } from "../release-folder.js";
import { flatFamily, syntheticFamily } from "../synthetic-family.js";
import { getJson, serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`${CHROMIUM} is missing: skipping the Chromium page tests (Debian: apt-get install -y chromium).`);
const ARTIFACTS = resolve(TEST_BUILD, "artifacts");
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8";

/** The bounds of a HOG drawing (README, "Pictures for people"). */
const DRAWING = {
  /** SVG bytes of the drawing of any family. */
  bytes: 250_000,
  /** Serving the drawing of a family whose blobs the isolate holds, in process (ms). */
  warmMs: 250,
  /** Serving it from cold: the manifest and the family's blobs read and decoded first (ms). */
  coldMs: 2_000,
  /** A HOG page with its drawing, loaded and drawn in Chromium (ms). */
  pageMs: 3_000,
};

/** HTML attribute text back to text. */
const unescape = (s: string): string => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** The family with the most members of a compiled release, read from its packs. */
async function largestFamily(dir: string): Promise<FamilyRow> {
  let best: FamilyRow | undefined;
  for (const f of await allRows(dir, (m) => m.tables.families)) if (!best || f.entries.length > best.entries.length) best = f;
  return best!;
}

/** The level of a family with the most HOGs (the widest drawing), by name. */
function widestLevel(manifest: Manifest, family: FamilyRow): string {
  const starts = manifest.genomes.map((g) => g.firstEntry);
  const levelOf = (entry: number) => {
    let i = 0;
    while (i + 1 < starts.length && starts[i + 1] <= entry) i++;
    return manifest.genomes[i].level;
  };
  const history = familyHistory(family, Int32Array.from(family.entries, levelOf), manifest.taxonomy);
  let widest = history.root;
  for (const [level, hogs] of history.hogsAt) if (hogs.length > (history.hogsAt.get(widest)?.length ?? 0)) widest = level;
  return manifest.taxonomy.names[widest];
}

/** What the drawing took and weighed, by release (README, "Pages for people"). */
const figures: Record<string, unknown> = {};
afterAll(() => {
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(resolve(ARTIFACTS, "hog-drawing-figures.json"), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`HOG drawing figures:\n${JSON.stringify(figures, null, 1)}`);
});

describe("the HOG drawing's bounds", () => {

  it("draws the largest family of every test release within its time and size", async () => {
    const releases = ["sim", "demo", "bacteria3", "primates"].filter((name) => existsSync(resolve(TEST_BUILD, name, "manifest.json")));
    for (const name of releases) {
      const dir = resolve(TEST_BUILD, name);
      const manifest = await openedManifest(dir);
      const family = await largestFamily(dir);
      const level = widestLevel(manifest, family);
      const app = createApp({ storage: () => folderStorage(dir) });
      const url = `http://in-process.test/api/hog/${encodeURIComponent(family.rootId)}/svg/?level=${encodeURIComponent(level)}`;
      const timed = async () => {
        const t0 = performance.now();
        const res = await app.request(url);
        const svg = await res.text();
        expect(res.status, `${name} ${url}`).toBe(200);
        return { ms: Math.round((performance.now() - t0) * 10) / 10, bytes: svg.length, svg };
      };
      const cold = await timed();
      const warm = await timed();
      expect(warm.svg).toBe(cold.svg);
      figures[name] = { family: family.rootId, members: family.entries.length, level, coldMs: cold.ms, warmMs: warm.ms, svgBytes: cold.bytes };
      expect(cold.bytes, `${name}: SVG bytes`).toBeLessThanOrEqual(DRAWING.bytes);
      expect(cold.ms, `${name}: cold`).toBeLessThanOrEqual(DRAWING.coldMs);
      expect(warm.ms, `${name}: warm`).toBeLessThanOrEqual(DRAWING.warmMs);
    }
  });

  /** A made-up family drawn at its widest level from scratch (history and SVG), timed. */
  function drawWidest({ family, taxonomy, genomes, speciesOf }: ReturnType<typeof syntheticFamily>) {
    const t0 = performance.now();
    const history = familyHistory(family, speciesOf, taxonomy);
    let widest = history.root;
    for (const [level, hogs] of history.hogsAt) if (hogs.length > (history.hogsAt.get(widest)?.length ?? 0)) widest = level;
    const picture = hogTreeSvg({
      family,
      history,
      taxonomy,
      genomes,
      level: widest,
      selected: [history.hogsAt.get(widest)![0].id],
      memberLabel: (m) => family.members![m].canonicalId,
      links: { hog: (id, level) => `https://h/api/hog/${id}/?level=${encodeURIComponent(level)}`, protein: (e) => `https://h/api/protein/${e}/`, genome: (c) => `https://h/api/genome/${c}/` },
      standalone: true,
      title: "synthetic",
    });
    return { history, widest, picture, ms: Math.round(performance.now() - t0) };
  }

  it("folds a family of 2,500 genomes and ~40,000 genes into a bounded drawing", () => {
    const { family, taxonomy, genomes, speciesOf } = syntheticFamily(2500, 0.3, 0.01);
    const { history, widest, picture, ms } = drawWidest({ family, taxonomy, genomes, speciesOf });
    figures.synthetic = { genomes: genomes.length, members: family.entries.length, levels: taxonomy.names.length, hogsOnWidestLevel: history.hogsAt.get(widest)!.length, ms, svgBytes: picture.svg.length, rows: picture.rows, columns: picture.columns };
    expect(family.entries.length).toBeGreaterThan(30_000);
    expect(picture.rows).toBeLessThanOrEqual(HOG_TREE_LIMITS.rows);
    expect(picture.columns).toBeLessThanOrEqual(HOG_TREE_LIMITS.columns);
    expect(history.hogsAt.get(widest)!.length).toBeGreaterThan(HOG_TREE_LIMITS.columns);
    expect(picture.svg.length).toBeLessThanOrEqual(DRAWING.bytes);
    expect(XMLValidator.validate(picture.svg)).toBe(true);
    // The widest drawing there is: every cell holds genes (one level, 60 HOGs, over 700 species).
    const flat = drawWidest(flatFamily(700, 60));
    figures.flat = { genomes: 700, members: 42_000, hogsOnWidestLevel: 60, ms: flat.ms, svgBytes: flat.picture.svg.length, rows: flat.picture.rows, columns: flat.picture.columns };
    expect(flat.picture.rows).toBeLessThanOrEqual(HOG_TREE_LIMITS.rows);
    expect(flat.picture.rows * flat.picture.columns).toBeLessThanOrEqual(HOG_TREE_LIMITS.cells + 2 * HOG_TREE_LIMITS.columns);
    expect(flat.picture.svg.length).toBeLessThanOrEqual(DRAWING.bytes);
    expect(flat.ms).toBeLessThanOrEqual(1_000);
    // Every HOG on every branch is accounted for: each level's HOGs = the parent's, minus losses, plus duplications.
    for (const [level, hogs] of history.hogsAt) {
      const parent = taxonomy.parents[level];
      if (level === history.root || parent < 0) continue;
      expect(hogs.length, taxonomy.names[level]).toBe((history.hogsAt.get(parent)?.length ?? 0) - history.losses[level] + history.duplications[level]);
    }
  });
});

describe("a HOG of more genes than a page's table shows", () => {
  const links = linksFor(new Request("https://h/api/hog/HOG:0000001/"), "");
  const line = (entry: number): ProteinLine => ({ entry, orthid: `SPECI${String(entry).padStart(5, "0")}`, canonicalId: `P${entry}`, species: "Species", code: "SPECI", chromosome: "1", locus: [entry, entry + 10, 1], length: 100, hog: "HOG:0000001", group: 0, isMain: true });
  const json: Array<[string, string]> = [["members", "https://h/api/hog/HOG%3A0000001/members/?level=root"]];
  const page = (members: ProteinLine[], memberCount: number) =>
    hogPage(links, new URL("https://h/api/hog/HOG:0000001/"), { asked: "HOG:0000001", level: "root", rootId: "HOG:0000001", description: "", records: [{ id: "HOG:0000001", level: "root", genes: memberCount, completeness: 1, parents: [], children: [], otherLevels: [] }], picture: "", pictureUrl: "https://h/api/hog/HOG%3A0000001/svg/", members, memberCount, json });
  const rows = (html: string) => (html.match(/<tr>/g) ?? []).length;

  it("lists the first 2,000 by entry number, counts them all, and links the JSON that lists them all", () => {
    const shown = Array.from({ length: 2000 }, (_, k) => line(k + 1));
    const cut = page(shown, 12_209);
    expect(cut).toContain("Members (12,209)");
    expect(cut).toContain("This table shows the first 2,000 of the HOG's 12,209 genes, by entry number;");
    expect(cut).toContain(`<a href="https://h/api/hog/HOG%3A0000001/members/?level=root&amp;format=json">the JSON</a> lists them all`);
    const members = hogMembersPage(links, new URL("https://h/api/hog/HOG:0000001/members/"), { id: "HOG:0000001", level: "root", rootId: "HOG:0000001", members: shown, memberCount: 12_209, hogUrl: "https://h/api/hog/HOG%3A0000001/" });
    expect(members).toContain("12,209 genes");
    expect(members).toContain(`<a href="https://h/api/hog/HOG:0000001/members/?format=json">the JSON</a> lists them all`);
    // The table's rows: a header and one per member shown.
    expect(rows(members)).toBe(2001);
    const whole = page(shown.slice(0, 40), 40);
    expect(whole).toContain("Members (40)");
    expect(whole).not.toContain("This table shows the first");
  });
});

/** Ids of the simulated release the pages are opened on. */
interface Samples {
  code: string;
  entry: number;
  group: number;
  /** A sub-HOG, its level, and its family's root id. */
  hog: string;
  hogLevel: string;
  /** The largest family and its widest level. */
  largest: string;
  largestLevel: string;
  internalLevel: string;
}

function pagesOf(s: Samples): Array<[string, string]> {
  const level = encodeURIComponent(s.hogLevel);
  return [
    ["genome-list", "/genome/"],
    ["genome", `/genome/${s.code}/`],
    ["genome-proteins", `/genome/${s.code}/proteins/?per_page=25`],
    ["genome-genes", `/genome/${s.code}/genes/?per_page=25&page=2`],
    ["protein", `/protein/${s.entry}/`],
    ["group", `/group/${s.group}/`],
    ["hog-list", `/hog/?level=${level}&per_page=30`],
    ["hog-roots", "/hog/?per_page=30"],
    ["hog", `/hog/${s.hog}/`],
    ["hog-level", `/hog/${s.hog}/?level=${level}`],
    ["hog-root", `/hog/${s.hog}/?level=root`],
    ["hog-largest", `/hog/${s.largest}/?level=${encodeURIComponent(s.largestLevel)}`],
    ["hog-members", `/hog/${s.hog}/members/?level=${level}`],
    ["species-tree", "/taxonomy/"],
    ["species-subtree", `/taxonomy/${encodeURIComponent(s.internalLevel)}/`],
  ];
}

async function samplesOf(served: ServedRelease): Promise<Samples> {
  const { base, manifest } = served;
  const code = manifest.genomes[0].code;
  const proteins = await getJson(`${base}/genome/${code}/proteins/?per_page=500`);
  // A protein in a sub-HOG and a group, with domains and GO terms where one has them.
  let sample = proteins.find((p: any) => p.orth_hog_id.includes(".") && p.orth_group);
  for (const p of proteins.filter((x: any) => x.orth_hog_id.includes(".") && x.orth_group).slice(0, 40)) {
    const [domains, go] = await Promise.all([getJson(`${base}/protein/${p.entry_nr}/domains/`), getJson(`${base}/protein/${p.entry_nr}/gene_ontology/`)]);
    if (domains.regions[0].source !== "n/a" && go.length) {
      sample = p;
      break;
    }
  }
  const [record] = await getJson(`${base}/hog/${sample.orth_hog_id}/`);
  const dir = resolve(TEST_BUILD, "sim");
  const family = await largestFamily(dir);
  const { taxonomy } = manifest;
  const internalLevel = taxonomy.names.find((_, l) => taxonomy.genomes[l] < 0 && taxonomy.parents[l] >= 0)!;
  return {
    code,
    entry: sample.entry_nr,
    group: sample.orth_group,
    hog: sample.orth_hog_id,
    hogLevel: record.level,
    largest: family.rootId,
    largestLevel: widestLevel(manifest, family),
    internalLevel,
  };
}

describe("pages for people over HTTP", () => {
  let served: ServedRelease;
  let base: string;
  let samples: Samples;

  beforeAll(async () => {
    served = await serveRelease("sim", {}, { edgeCache: true });
    base = served.base;
    samples = await samplesOf(served);
  });
  afterAll(() => served?.dispose());

  const get = (path: string, accept?: string, method = "GET") => fetch(`${base}${path}`, { method, headers: accept === undefined ? {} : { Accept: accept } });
  const withFormat = (path: string, format: string) => `${path}${path.includes("?") ? "&" : "?"}format=${format}`;

  it("answers a browser's navigation with a page for people; format=api, format=json and API clients as before", async () => {
    for (const [name, path] of pagesOf(samples)) {
      const res = await get(path, BROWSER_ACCEPT);
      const html = await res.text();
      expect(res.status, name).toBe(200);
      expect(res.headers.get("Content-Type"), name).toBe("text/html; charset=utf-8");
      expect(html, name).toContain('<nav class="crumbs"');
      expect(html, name).not.toMatch(/<script|<link|<img|<iframe|@import|url\(|<[a-z]+[^>]*\son[a-z]+=/i);
      expect(html, name).not.toMatch(/\sstyle=/i);
      const csp = res.headers.get("Content-Security-Policy")!;
      expect(csp, name).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*';/);
      expect(csp, name).toContain(`'sha256-${createHash("sha256").update(/<style>([\s\S]*?)<\/style>/.exec(html)![1]).digest("base64")}'`);
      // The JSON one click away, and the viewer.
      const json = await (await get(path)).text();
      const rawHref = unescape(/<a class="raw" href="([^"]*)">raw JSON<\/a>/.exec(html)![1]);
      const fromPage = await fetch(rawHref, { headers: { Accept: BROWSER_ACCEPT } });
      expect(await fromPage.text(), `${name}: ${rawHref}`).toBe(json);
      const viewHref = unescape(/<a class="api-view" href="([^"]*)">/.exec(html)![1]);
      const viewer = await (await fetch(viewHref, { headers: { Accept: BROWSER_ACCEPT } })).text();
      expect(viewer, name).toContain('id="response-body"');
      expect(viewer, name).not.toContain('<nav class="crumbs"');
      const raw = await get(withFormat(path, "json"), BROWSER_ACCEPT);
      expect(raw.headers.get("Content-Type"), name).toBe("application/json");
      expect(await raw.text(), name).toBe(json);
      for (const accept of ["*/*", "application/json"]) expect(await (await get(path, accept)).text(), `${name} ${accept}`).toBe(json);
      // HEAD: the page's headers, no body.
      const head = await get(path, BROWSER_ACCEPT, "HEAD");
      for (const header of ["Content-Type", "Content-Security-Policy", "Link", "X-Total-Count", "Vary", "Allow"]) {
        expect(head.headers.get(header), `${name} HEAD ${header}`).toBe(res.headers.get(header));
      }
      expect(await head.text()).toBe("");
    }
    // The pager of a list page stays on pages for people.
    const list = await (await get("/genome/?per_page=3&page=2", BROWSER_ACCEPT)).text();
    const total = served.manifest.counts.genomes;
    expect(list).toContain(`page 2 of ${Math.ceil(total / 3)} · ${total} items`);
    expect(list).toContain(`<a rel="next" href="${base}/genome/?per_page=3&amp;page=3">`);
    // Errors stay in the JSON viewer.
    const missing = await get("/protein/NOPE/", BROWSER_ACCEPT);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('id="response-body"');
  });

  it("serves the drawing alone as SVG, with the members' genes, cached like any answer", async () => {
    for (const [hog, level] of [
      [samples.hog, undefined],
      [samples.hog, samples.hogLevel],
      [samples.hog, "root"],
      [samples.largest, samples.largestLevel],
    ] as const) {
      const query = level ? `?level=${encodeURIComponent(level)}` : "";
      const res = await get(`/hog/${hog}/svg/${query}`, "image/svg+xml");
      const svg = await res.text();
      expect(res.status, `${hog} ${level}`).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("image/svg+xml");
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      const style = /<style>([\s\S]*?)<\/style>/.exec(svg)![1];
      expect(res.headers.get("Content-Security-Policy")).toBe(`default-src 'none'; style-src 'sha256-${createHash("sha256").update(style).digest("base64")}'; frame-ancestors *`);
      expect(XMLValidator.validate(svg), `${hog} ${level}: well-formed XML`).toBe(true);
      expect(svg).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      expect(svg).not.toMatch(/<script|<foreignObject|\son[a-z]+=/i);
      const genes = Number(/data-genes="(\d+)"/.exec(svg)![1]);
      const records = await getJson(`${base}/hog/${hog}/${query}`);
      if (records.length === 1) {
        const members = await getJson(`${base}/hog/${hog}/members/${query}`);
        expect(genes, `${hog} ${level}`).toBe(members.members.length);
      }
      expect(svg.length).toBeLessThanOrEqual(DRAWING.bytes);
    }
    const url = `/hog/${samples.hog}/svg/`;
    await (await get(url)).arrayBuffer();
    const again = await get(url);
    await again.arrayBuffer();
    expect(again.headers.get("X-Cache")).toBe("HIT");
    expect(again.headers.get("ETag")).toMatch(/^"/);
    expect((await get(`/hog/HOG:${served.manifest.hogPrefix}9999999/svg/`)).status).toBe(404);
    expect((await get(`/hog/HOG:${served.manifest.hogPrefix === "Q" ? "R" : "Q"}0000001/svg/`)).status).toBe(410);
    const unknownLevel = await get(`/hog/${samples.hog}/svg/?level=Nowhere`);
    expect(unknownLevel.status).toBe(404);
    expect(unknownLevel.headers.get("Content-Type")).toBe("application/json");
  });
});

describe.skipIf(!hasChromium)("pages for people in Chromium", () => {
  let served: ServedRelease;
  let base: string;
  let samples: Samples;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const shots = resolve(ARTIFACTS, "pages");

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    served = await serveRelease("sim");
    base = served.base;
    samples = await samplesOf(served);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("console", (m) => m.type() === "error" && problems.push(`${page.url()}: ${m.text()}`));
    page.on("pageerror", (e) => problems.push(`${page.url()}: ${e.message}`));
  });
  afterAll(async () => {
    await browser?.close();
    await served?.dispose();
  });

  it("draws every page type without a console or CSP error, at 1280 and 390 px", async () => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const [name, path] of pagesOf(samples)) {
        const res = await page.goto(`${base}${path}`);
        expect(res!.status(), name).toBe(200);
        // The stylesheet applied (the CSP hash matched), no script, no sideways scrolling of the page itself.
        expect(await page.evaluate('getComputedStyle(document.querySelector("header.bar")).display'), name).toBe("flex");
        expect(await page.evaluate("document.scripts.length"), name).toBe(0);
        const fit = (await page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")) as [number, number];
        expect(fit[0], `${name} at ${width} px: the page scrolls sideways`).toBeLessThanOrEqual(fit[1]);
        await page.screenshot({ path: resolve(shots, `${name}-${width}.png`), fullPage: true });
      }
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(problems).toEqual([]);
  });

  it("draws as many genes for the HOG in focus as its members answer holds", async () => {
    for (const query of ["", `?level=${encodeURIComponent(samples.hogLevel)}`, `?level=${samples.code}`, "?level=root"]) {
      await page.goto(`${base}/hog/${samples.hog}/${query}`);
      const drawn = (await page.evaluate(`(() => {
        const svg = document.querySelector("#hog-drawing svg.hog-tree");
        const cells = [...svg.querySelectorAll(".cell.mine")].reduce((n, g) => n + Number(g.dataset.n), 0);
        return { genes: Number(svg.dataset.genes), cells, rows: document.querySelectorAll("#members tbody tr").length };
      })()`)) as { genes: number; cells: number; rows: number };
      const answer = await fetch(`${base}/hog/${samples.hog}/members/${query}`);
      // Several HOGs of the id on the level: no members answer (404), the page lists the HOGs.
      if (answer.status === 404) continue;
      const members = (await answer.json()) as { members: unknown[] };
      expect(drawn.genes, query).toBe(members.members.length);
      expect(drawn.cells, query).toBe(members.members.length);
      expect(drawn.rows, query).toBe(members.members.length);
    }
  });

  it("links every node of the drawing to a 200 HOG page at that level", async () => {
    await page.goto(`${base}/hog/${samples.largest}/?level=${encodeURIComponent(samples.largestLevel)}`);
    const links = (await page.evaluate('[...new Set([...document.querySelectorAll("#hog-drawing svg.hog-tree a.hog-link")].map((a) => a.getAttribute("href")))]')) as string[];
    const squares = (await page.evaluate('document.querySelectorAll("#hog-drawing svg.hog-tree rect.hog").length')) as number;
    expect(squares).toBeGreaterThan(10);
    expect(links.length).toBeGreaterThan(squares / 2);
    const failures: string[] = [];
    for (let i = 0; i < links.length; i += 8) {
      await Promise.all(
        links.slice(i, i + 8).map(async (href) => {
          const url = new URL(href);
          const level = url.searchParams.get("level");
          const res = await fetch(href, { headers: { Accept: BROWSER_ACCEPT } });
          const html = await res.text();
          const drawnLevel = /<svg [^>]*class="pic hog-tree"[^>]*data-level="([^"]*)"/.exec(html)?.[1];
          if (res.status !== 200 || !url.pathname.startsWith(new URL(base).pathname + "/hog/") || !level) failures.push(`${href}: ${res.status}`);
          else if (drawnLevel === undefined || unescape(drawnLevel) !== level) failures.push(`${href}: drawn at ${drawnLevel}`);
        }),
      );
    }
    expect(failures).toEqual([]);
    // Gene squares lead to their proteins.
    const genes = (await page.evaluate('[...document.querySelectorAll("#hog-drawing svg.hog-tree g.cell a")].slice(0, 5).map((a) => a.getAttribute("href"))')) as string[];
    for (const href of genes) expect((await fetch(href)).status, href).toBe(200);
  });

  it("draws the largest family within its time and size", async () => {
    const path = `/hog/${samples.largest}/?level=${encodeURIComponent(samples.largestLevel)}`;
    const t0 = Date.now();
    const res = await page.goto(`${base}${path}`);
    await page.locator("#hog-drawing svg").waitFor();
    const ms = Date.now() - t0;
    expect(res!.status()).toBe(200);
    const bytes = (await page.evaluate('document.querySelector("#hog-drawing svg").outerHTML.length')) as number;
    figures.chromium = { release: "sim", page: path, loadMs: ms, svgBytes: bytes };
    expect(ms).toBeLessThanOrEqual(DRAWING.pageMs);
    expect(bytes).toBeLessThanOrEqual(DRAWING.bytes);
    const box = await page.locator("#hog-drawing").boundingBox();
    await page.screenshot({ path: resolve(shots, "hog-drawing-largest.png"), clip: { x: 0, y: box!.y, width: 1280, height: Math.min(box!.height, 1600) }, fullPage: true });
    expect(problems).toEqual([]);
  });
});
