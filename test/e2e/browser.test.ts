/**
 * The browsable API and the documentation page: what API clients and browsers get over plain
 * HTTP (content negotiation, security headers, streams, HEAD), the middleware's pieces on
 * their own, and real pages in headless Chromium (links, page controls, the docs page, a
 * hostile id rendered inert), with screenshots in `${TEST_BUILD}/artifacts/`.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acceptQuality, prefersHtml } from "../../src/render/accept.js";
import { readShownBody } from "../../src/middleware/browsable.js";
import { browsableHref, browsablePage, parseLinkHeader } from "../../src/render/html.js";
import { serveRelease, TEST_BUILD, type ServedRelease } from "./serve.js";

const CHROMIUM = "/usr/bin/chromium";
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(`${CHROMIUM} is missing: skipping the Chromium page tests (Debian: apt-get install -y chromium).`);
}
const ARTIFACTS = resolve(TEST_BUILD, "artifacts");

/** The Accept header Chromium sends for a navigation. */
const BROWSER_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7";
const HTML_HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};
const HOSTILE = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", '"><svg onload=alert(1)>'];

describe("browsable mode, piece by piece", () => {
  it("tells browsers from API clients by the Accept q-values", () => {
    expect(prefersHtml(BROWSER_ACCEPT)).toBe(true);
    expect(prefersHtml("text/html")).toBe(true);
    expect(prefersHtml("text/*, application/json;q=0.5")).toBe(true);
    for (const accept of [undefined, "", "*/*", "application/json", "application/json; version=1.6", "text/html;q=0.5, application/json", "text/html, application/json", "text/html;q=0.8, */*", "application/*, text/html;q=0.9", "text/html;q=0"]) {
      expect(prefersHtml(accept), String(accept)).toBe(false);
    }
    expect(acceptQuality("text/*;q=0.3, text/html;q=0.7, */*;q=0.1", "text/html")).toBe(0.7);
    expect(acceptQuality("text/*;q=0.3, */*;q=0.1", "text/plain")).toBe(0.3);
    expect(acceptQuality("image/png", "application/json")).toBe(0);
  });

  it("keeps links in browsable mode and reads Link headers", () => {
    const base = "https://h/api";
    expect(browsableHref(`${base}/genome/`, base)).toBe(`${base}/genome/?format=api`);
    expect(browsableHref(`${base}/hog/X/?level=root`, base)).toBe(`${base}/hog/X/?level=root&format=api`);
    expect(browsableHref(`${base}/hog/X/?format=api`, base)).toBe(`${base}/hog/X/?format=api`);
    expect(browsableHref("https://elsewhere.example/x", base)).toBe("https://elsewhere.example/x");
    const rels = parseLinkHeader(`<${base}/genome/>; rel="first", <${base}/genome/?page=3>; rel="next"`);
    expect(Object.fromEntries(rels)).toEqual({ first: `${base}/genome/`, next: `${base}/genome/?page=3` });
  });

  it("reads a body up to the cap, stops a stream past it, and reports cut or broken JSON", async () => {
    const encoder = new TextEncoder();
    let cancelled = false;
    const stream = (chunks: string[]) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          for (const c of chunks) controller.enqueue(encoder.encode(c));
          controller.close();
        },
        cancel() {
          cancelled = true;
        },
      });
    expect(await readShownBody(stream(['[{"a":', "1},", '{"b":"é"}]']), null, 100)).toEqual({ kind: "json", value: [{ a: 1 }, { b: "é" }] });
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(encoder.encode("[1,2,3,4,5,6,7,8,9],"));
      },
      cancel() {
        cancelled = true;
      },
    });
    expect(await readShownBody(endless, null, 100)).toEqual({ kind: "too-large", bytes: 120, cap: 100 });
    expect(cancelled).toBe(true);
    cancelled = false;
    expect(await readShownBody(stream(["[]"]), "5000", 100)).toEqual({ kind: "too-large", bytes: 5000, cap: 100 });
    expect(cancelled).toBe(true);
    let pulls = 0;
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(encoder.encode('[{"a":1},'));
        else controller.error(new Error("storage went away"));
      },
    });
    expect(await readShownBody(failing, null, 100)).toEqual({
      kind: "text",
      text: '[{"a":1},',
      note: "The response was cut short; this is what arrived.",
    });
    expect((await readShownBody(stream(["{nope"]), null, 100)).kind).toBe("text");
  });

  it("shows a notice with a link to the raw JSON instead of a body over the cap, keeping the page controls", () => {
    const base = "https://h/api";
    const html = browsablePage({
      method: "GET",
      url: new URL(`${base}/genome/HUMAN/proteins/?per_page=100000&format=api`),
      base,
      status: 200,
      statusText: "OK",
      headers: new Headers({ "Content-Type": "application/json", "X-Total-Count": "250000", Link: `<${base}/genome/HUMAN/proteins/?per_page=100000&format=api&page=2>; rel="next"` }),
      body: { kind: "too-large", bytes: 3_000_000, cap: 2_097_152 },
    });
    expect(html).toContain("3,000,000 bytes or more of JSON, more than the 2,097,152 this page shows.");
    expect(html).toContain(`<a href="${base}/genome/HUMAN/proteins/?per_page=100000&amp;format=json">Open the raw JSON</a>`);
    expect(html).toContain("page 1 of 3 · 250000 items");
    expect(html).toContain(`<a rel="next" href="${base}/genome/HUMAN/proteins/?per_page=100000&amp;format=api&amp;page=2">`);
  });
});

describe("browsable mode over HTTP", () => {
  let served: ServedRelease;
  let base: string;
  let code: string;

  beforeAll(async () => {
    served = await serveRelease("sim");
    base = served.base;
    code = served.manifest.genomes[0].code;
  });
  afterAll(() => served?.dispose());

  const get = (path: string, accept?: string, method = "GET") =>
    fetch(`${base}${path}`, { method, redirect: "manual", headers: accept === undefined ? {} : { Accept: accept } });

  it("gives API clients JSON, with and without format=api, errors and streamed lists included", async () => {
    for (const path of ["/genome/", `/genome/${code}/proteins/?per_page=3`, "/protein/1/", "/protein/NOPE/", "/version/"]) {
      for (const accept of [undefined, "*/*", "application/json", "application/json; version=1.6", "text/html;q=0.5, application/json"]) {
        for (const suffix of ["", `${path.includes("?") ? "&" : "?"}format=api`]) {
          const res = await get(`${path}${suffix}`, accept);
          const text = await res.text();
          const label = `${path}${suffix} Accept: ${accept}`;
          expect(res.headers.get("Content-Type"), label).toBe("application/json");
          expect(res.headers.get("Content-Security-Policy"), label).toBeNull();
          expect(() => JSON.parse(text), label).not.toThrow();
        }
      }
    }
  });

  it("gives browsers an HTML page with the status, the API headers and the security headers", async () => {
    for (const [path, status] of [
      ["/genome/?per_page=3&page=2", 200],
      [`/genome/${code}/proteins/?per_page=5&format=api`, 200],
      ["/protein/NOPE/", 404],
      ["/genome/?page=abc", 400],
      ["/protein/1/", 405],
      ["/hog/HOG:Q0000001/", 410],
      ["/protein/1/?format=xml", 404],
    ] as const) {
      const res = await get(path, BROWSER_ACCEPT, status === 405 ? "DELETE" : "GET");
      const html = await res.text();
      expect(res.status, path).toBe(status);
      for (const [name, value] of Object.entries(HTML_HEADERS)) expect(res.headers.get(name), `${path} ${name}`).toBe(value);
      expect(res.headers.get("Vary"), path).toBe("Accept");
      expect(res.headers.get("Allow"), path).toBe("GET, HEAD, OPTIONS");
      const csp = res.headers.get("Content-Security-Policy")!;
      expect(csp, path).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*';/);
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(html, path).toMatch(/^<!doctype html>/);
      expect(html, path).not.toMatch(/<script|<link|<img|<iframe|@import|url\(/i);
      // The one inline stylesheet is the one the CSP hash allows.
      const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1];
      expect(csp).toContain(`'sha256-${createHash("sha256").update(style).digest("base64")}'`);
    }
    // The JSON viewer (a browser's page for people has its own tests: pages.test.ts).
    const list = await get("/genome/?per_page=3&page=2&format=api", BROWSER_ACCEPT);
    const total = served.manifest.counts.genomes;
    expect(list.headers.get("X-Total-Count")).toBe(String(total));
    expect(list.headers.get("Link")).toContain('rel="next"');
    const page = await list.text();
    expect(page).toContain(`page 2 of ${Math.ceil(total / 3)} · ${total} items`);
    expect(page).toContain(`<a rel="next" href="${base}/genome/?per_page=3&amp;format=api&amp;page=3">`);
    expect(page).toContain(`href="${base}/genome/?per_page=3&amp;page=2&amp;format=json">raw JSON</a>`);
  });

  it("escapes everything a request can put in the page", async () => {
    for (const id of HOSTILE) {
      const res = await get(`/protein/${encodeURIComponent(id)}/?x=${encodeURIComponent(id)}`, BROWSER_ACCEPT);
      const html = await res.text();
      expect(res.status).toBe(404);
      const body = html.slice(html.indexOf("<body>"));
      expect(body).not.toContain(id);
      expect(body).not.toMatch(/<(script|img|svg)/i);
      expect(body).toContain(id.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"));
    }
  });

  it("answers format=json with raw JSON and HEAD with the page's headers and no body; leaves non-JSON alone", async () => {
    const raw = await get("/genome/?format=json", BROWSER_ACCEPT);
    expect(raw.headers.get("Content-Type")).toBe("application/json");
    await raw.json();
    const [page, head] = await Promise.all([get("/genome/?per_page=2", BROWSER_ACCEPT), get("/genome/?per_page=2", BROWSER_ACCEPT, "HEAD")]);
    await page.arrayBuffer();
    expect(head.status).toBe(200);
    for (const name of ["Content-Type", "Content-Security-Policy", "Link", "X-Total-Count", "Vary", "Allow"]) {
      expect(head.headers.get(name), name).toBe(page.headers.get(name));
    }
    expect(await head.text()).toBe("");
    const redirect = await get("/genome", BROWSER_ACCEPT);
    expect(redirect.status).toBe(301);
    const other = served.manifest.genomes[1].code;
    const csv = await get(`/pairs/${code}/${other}/?format=csv&per_page=2`, BROWSER_ACCEPT);
    expect(csv.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(await csv.text()).toMatch(/^orthid_1,/);
    const xml = await get(`/hog/HOG:${served.manifest.hogPrefix}0000001/orthoxml/`, BROWSER_ACCEPT);
    expect(xml.headers.get("Content-Type")).toMatch(/^application\/xml/);
    await xml.arrayBuffer();
    const docs = await get("/docs/", "*/*");
    expect(docs.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    expect(docs.headers.get("Content-Security-Policy")).toMatch(/^default-src 'none'/);
    expect(await docs.text()).toContain("SOAP");
  });
});

describe.skipIf(!hasChromium)("the browsable API in Chromium", () => {
  let served: ServedRelease;
  let base: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  let dialogs = 0;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    served = await serveRelease("sim");
    base = served.base;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    // Any CSP violation, script error or dialog is a failure of the page.
    // (A page answered with an error status logs "Failed to load resource"; that is the page's own status.)
    page.on("console", (m) => m.type() === "error" && !/^Failed to load resource/.test(m.text()) && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(e.message));
    page.on("dialog", async (d) => {
      dialogs += 1;
      await d.dismiss();
    });
  });
  afterAll(async () => {
    await browser?.close();
    await served?.dispose();
  });

  const shot = (name: string, fullPage = true) => page.screenshot({ path: resolve(ARTIFACTS, `${name}.png`), fullPage });
  const pager = () => page.locator("nav.pager").first();

  it("shows the genome list with its request, headers panel and linked JSON", async () => {
    const res = await page.goto(`${base}/genome/?format=api`);
    expect(res!.status()).toBe(200);
    expect(res!.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(res!.headers()["content-security-policy"]).toMatch(/^default-src 'none'/);
    expect(await page.locator(".request").textContent()).toContain(`GET ${base}/genome/`);
    const headers = await page.locator("#response-headers").textContent();
    expect(headers).toContain("HTTP 200 OK");
    expect(headers).toContain("Content-Type: application/json");
    expect(headers).toContain(`X-Total-Count: ${served.manifest.counts.genomes}`);
    expect(headers).toContain("Vary: Accept");
    expect(headers).toContain("Allow: GET, HEAD, OPTIONS");
    const json = JSON.parse((await page.locator("#response-body").textContent())!);
    expect(json.map((g: any) => g.code)).toEqual(served.manifest.genomes.map((g) => g.code));
    // The stylesheet applied: the CSP hash matched.
    expect(await page.evaluate('getComputedStyle(document.querySelector("header.bar")).display')).toBe("flex");
    expect(await page.evaluate("document.scripts.length")).toBe(0);
    await shot("genome-list");
  });

  it("follows a genome_url to that genome, still browsable", async () => {
    const genome = served.manifest.genomes[1];
    await page.goto(`${base}/genome/?format=api`);
    await Promise.all([page.waitForURL(`${base}/genome/${genome.code}/?format=api`), page.locator(`#response-body a[href="${base}/genome/${genome.code}/?format=api"]`).click()]);
    const body = JSON.parse((await page.locator("#response-body").textContent())!);
    expect(body.code).toBe(genome.code);
    expect(body.nr_entries).toBe(genome.nrEntries);
    // format=api: the URLs in the body carry it, and are links that keep it.
    expect(body.proteins).toBe(`${base}/genome/${genome.code}/proteins/?format=api`);
    expect(await page.locator(`#response-body a[href="${body.proteins}"]`).count()).toBe(1);
    await shot("genome-detail");
  });

  it("walks the pages with the page controls", async () => {
    const total = served.manifest.counts.genomes;
    const last = Math.ceil(total / 3);
    await page.goto(`${base}/genome/?per_page=3&format=api`);
    expect(await pager().locator(".position").textContent()).toBe(`page 1 of ${last} · ${total} items`);
    expect(await pager().locator('a[rel="prev"]').count()).toBe(0);
    await Promise.all([page.waitForURL(/page=2/), pager().locator('a[rel="next"]').click()]);
    expect(page.url()).toBe(`${base}/genome/?per_page=3&format=api&page=2`);
    expect(await pager().locator(".position").textContent()).toBe(`page 2 of ${last} · ${total} items`);
    const second = JSON.parse((await page.locator("#response-body").textContent())!);
    expect(second.map((g: any) => g.code)).toEqual(served.manifest.genomes.slice(3, 6).map((g) => g.code));
    await Promise.all([page.waitForURL(new RegExp(`page=${last}`)), pager().locator('a[rel="last"]').click()]);
    expect(await pager().locator(".position").textContent()).toBe(`page ${last} of ${last} · ${total} items`);
    expect(await pager().locator('a[rel="next"]').count()).toBe(0);
    await shot("genome-list-last-page");
    await Promise.all([page.waitForURL(`${base}/genome/?per_page=3&format=api`), pager().locator('a[rel="first"]').click()]);
    // A streamed list renders too.
    await page.goto(`${base}/genome/${served.manifest.genomes[0].code}/proteins/?per_page=20&page=2&format=api`);
    expect(JSON.parse((await page.locator("#response-body").textContent())!)).toHaveLength(20);
  });

  it("serves the documentation page, whose examples lead to browsable answers", async () => {
    const res = await page.goto(`${base}/docs/`);
    expect(res!.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toContain("Orthology database REST API");
    const text = (await page.locator("main").textContent())!;
    expect(text).toContain("SOAP");
    for (const id of ["readProtein", "listGenomes", "bulkRetrieveProteins", "listPairs", "readTaxonomy", "searchSequence"]) {
      expect(await page.locator(`section#${id}`).count(), id).toBe(1);
    }
    expect(await page.locator("#listGenomes .examples a").first().getAttribute("href")).toBe(`${base}/genome/`);
    await shot("docs", false);
    const example = page.locator("#readProtein .examples a").first();
    const href = (await example.getAttribute("href"))!;
    await Promise.all([page.waitForURL(href), example.click()]);
    // The example opens the protein's card; its JSON is one click away, in the viewer.
    const view = page.locator("a.api-view");
    await Promise.all([page.waitForURL(/format=api/), view.click()]);
    expect(await page.locator("#response-headers").textContent()).toContain("HTTP 200 OK");
    expect(JSON.parse((await page.locator("#response-body").textContent())!).entry_url).toMatch(/\/protein\/\d+\/\?format=api$/);
  });

  it("fits the documentation page's endpoint index in its columns, on a wide screen and a phone", async () => {
    // A long release name makes the example URLs long too.
    const docsUrl = `${served.origin}/release/${served.manifest.name}/api/docs/`;
    try {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        expect((await page.goto(docsUrl))!.status()).toBe(200);
        // (A string: the suite compiles without the DOM library.)
        const fit = await page.evaluate(`(() => {
          const toc = document.querySelector("nav.toc");
          const right = toc.getBoundingClientRect().right;
          const items = [...toc.querySelectorAll("li")];
          return {
            items: items.length,
            toc: { scrollWidth: toc.scrollWidth, clientWidth: toc.clientWidth },
            // An entry wider than its column (scrolled, or spilling past the index's edge) is cut off.
            clipped: items
              .filter((li) => li.scrollWidth > li.clientWidth || li.getBoundingClientRect().right > right + 0.5)
              .map((li) => li.textContent),
            page: { scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth },
          };
        })()`) as { items: number; toc: { scrollWidth: number; clientWidth: number }; clipped: string[]; page: { scrollWidth: number; clientWidth: number } };
        expect(fit.items, `${width} px`).toBeGreaterThan(30);
        expect(fit.toc.scrollWidth, `${width} px: the index scrolls sideways`).toBeLessThanOrEqual(fit.toc.clientWidth);
        expect(fit.clipped, `${width} px: index entries cut off`).toEqual([]);
        expect(fit.page.scrollWidth, `${width} px: the page scrolls sideways`).toBeLessThanOrEqual(fit.page.clientWidth);
        const toc = await page.locator("nav.toc").boundingBox();
        await page.screenshot({ path: resolve(ARTIFACTS, `docs-index-${width}.png`), clip: { x: 0, y: toc!.y, width, height: Math.min(toc!.height, 900) }, fullPage: true });
      }
    } finally {
      await page.setViewportSize({ width: 1200, height: 900 });
    }
  });

  it("renders a hostile id inert", async () => {
    for (const [i, id] of HOSTILE.entries()) {
      const res = await page.goto(`${base}/protein/${encodeURIComponent(id)}/`);
      expect(res!.status()).toBe(404);
      const detail = JSON.parse((await page.locator("#response-body").textContent())!).detail;
      expect(detail).toBe(`requested id '${id}' is unknown`);
      expect(await page.evaluate('document.querySelectorAll("script, img, svg, iframe").length')).toBe(0);
      if (i === 0) await shot("hostile-id-error");
    }
    expect(dialogs).toBe(0);
  });

  it("saw no script error, CSP violation or dialog on any page", () => {
    expect(problems).toEqual([]);
    expect(dialogs).toBe(0);
    for (const name of ["genome-list", "genome-detail", "genome-list-last-page", "docs", "hostile-id-error"]) {
      expect(existsSync(resolve(ARTIFACTS, `${name}.png`)), name).toBe(true);
    }
  });
});
