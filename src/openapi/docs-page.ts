/**
 * The human documentation page, rendered from the OpenAPI document: every endpoint with its
 * parameters, responses and example requests on this server, then the response schemas.
 */
import { esc, htmlPage } from "../render/html.js";
import { segment } from "../render/links.js";
import type { Schema } from "./schemas.js";

type Obj = Record<string, any>;

/** The little Markdown the document uses: paragraphs, `code`, **strong**, *emphasis*. */
function markdown(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((para) => `<p>${inline(para)}</p>`)
    .join("\n");
}
function inline(text: string): string {
  return text
    .split(/(`[^`]+`)/)
    .map((part, i) =>
      i % 2
        ? `<code>${esc(part.slice(1, -1))}</code>`
        : esc(part)
            .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
            .replace(/\*([^*]+)\*/g, "<em>$1</em>"),
    )
    .join("");
}

const refName = (ref: string): string => ref.slice(ref.lastIndexOf("/") + 1);

/** A path or URL, escaped, that may break after each `/`, `?` and `&` (long paths wrap in narrow columns). */
const breakable = (text: string): string => esc(text).replace(/(\/|\?|&amp;)/g, "$1<wbr>");

function resolve(doc: Obj, item: Obj): Obj {
  if (typeof item?.$ref !== "string") return item;
  const [, , section, name] = item.$ref.split("/");
  return doc.components[section][name];
}

/** A schema in a few words: `integer ≥ 1, default 100`, `array of ProteinSummary`, `one of …`. */
function typeText(schema: Obj | undefined): string {
  if (!schema) return "";
  if (schema.$ref) return `<a href="#schema-${esc(refName(schema.$ref))}">${esc(refName(schema.$ref))}</a>`;
  if (schema.oneOf) return `one of ${schema.oneOf.map((s: Obj) => typeText(s)).join(" | ")}`;
  if ("const" in schema) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  const types = ([] as string[]).concat(schema.type ?? "any");
  let text = types
    .map((t) => (t === "array" ? `array of ${schema.items ? typeText(schema.items) : schema.prefixItems ? "[" + schema.prefixItems.map(typeText).join(", ") + "]" : "any"}` : esc(t)))
    .join(" | ");
  if (schema.format) text += ` (${esc(schema.format)})`;
  if (schema.enum) text += `: ${schema.enum.map((v: unknown) => `<code>${esc(JSON.stringify(v))}</code>`).join(", ")}`;
  if (schema.minimum !== undefined) text += `, ≥ ${schema.minimum}`;
  if (schema.maximum !== undefined) text += `, ≤ ${schema.maximum}`;
  if (schema.default !== undefined) text += `, default <code>${esc(String(schema.default))}</code>`;
  return text;
}

/** Example URLs of a GET operation: path parameters from their examples, then one per optional query example. */
function examples(url: string, params: Obj[]): string[] {
  let path = url;
  for (const p of params.filter((p) => p.in === "path")) path = path.replace(`{${p.name}}`, segment(String(p.example ?? p.name)));
  const query = params.filter((p) => p.in === "query");
  const required = query.filter((p) => p.required && p.example !== undefined);
  const withQuery = (extra: Obj[]) => {
    const qs = new URLSearchParams();
    for (const p of [...required, ...extra]) qs.set(p.name, String(p.example));
    const s = qs.toString();
    return s ? `${path}?${s}` : path;
  };
  const out = [withQuery([])];
  for (const p of query) if (!p.required && p.example !== undefined) out.push(withQuery([p]));
  return out;
}

function parameterTable(params: Obj[]): string {
  if (!params.length) return "";
  const rows = params.map(
    (p) =>
      `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}${p.required ? ", required" : ""}</td><td>${typeText(p.schema)}</td><td>${inline(p.description ?? "")}</td></tr>`,
  );
  return `<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function responseList(doc: Obj, responses: Obj): string {
  const items = Object.entries(responses).map(([status, r]) => {
    const response = resolve(doc, r as Obj);
    const media = Object.entries((response.content ?? {}) as Obj)
      .map(([type, m]) => `<code>${esc(type)}</code>${(m as Obj).schema ? ` ${typeText((m as Obj).schema)}` : ""}`)
      .join("; ");
    return `<li><strong>${esc(status)}</strong> ${inline(response.description ?? "")}${media ? ` — ${media}` : ""}</li>`;
  });
  return `<ul>${items.join("")}</ul>`;
}

function operationHtml(doc: Obj, path: string, method: string, op: Obj, server: string): string {
  const params = ((op.parameters ?? []) as Obj[]).map((p) => resolve(doc, p));
  const url = `${server}${path}`;
  const tries =
    method === "get"
      ? examples(url, params)
          .map((u) => `<li><a href="${esc(u)}">${breakable(u)}</a></li>`)
          .join("")
      : `<li><code>curl -X POST -H 'Content-Type: application/json' -d '{"ids": ["${esc(String(params.find((p) => p.name === "entry_id")?.example ?? "1"))}", 2]}' ${esc(url)}</code></li>`;
  const body = op.requestBody ? `<p>Request body: ${Object.entries(op.requestBody.content as Obj).map(([type, m]) => `<code>${esc(type)}</code> ${typeText((m as Obj).schema)}`).join("; ")}</p>` : "";
  return `<section class="operation" id="${esc(op.operationId)}">
<h3>${esc(method.toUpperCase())} ${esc(url)}</h3>
<p><strong>${esc(op.summary ?? "")}</strong>${op.deprecated ? ' <span class="tag">deprecated</span>' : ""}</p>
${markdown(op.description ?? "")}
${parameterTable(params)}${body}
<p>Responses:</p>${responseList(doc, op.responses ?? {})}
<p>Try it:</p><ul class="examples">${tries}</ul>
</section>`;
}

function schemaHtml(name: string, schema: Obj): string {
  const props = Object.entries((schema.properties ?? {}) as Obj);
  const required = new Set<string>(schema.required ?? []);
  const table = props.length
    ? `<table><thead><tr><th>Field</th><th>Type</th><th>Description</th></tr></thead><tbody>${props
        .map(([k, s]) => `<tr><td><code>${esc(k)}</code>${required.has(k) ? "" : ' <span class="tag">optional</span>'}</td><td>${typeText(s as Obj)}</td><td>${inline((s as Obj).description ?? "")}</td></tr>`)
        .join("")}</tbody></table>`
    : `<p>${typeText(schema)}</p>`;
  return `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3>${markdown(schema.description ?? "")}${table}</section>`;
}

/** The documentation page of `doc` (an OpenAPI document as built by `openApiDocument`). */
export function docsPage(doc: Schema, base: string): string {
  const d = doc as Obj;
  const server: string = d.servers[0].url;
  const byTag = new Map<string, string[]>();
  const toc = new Map<string, string[]>();
  for (const [path, item] of Object.entries(d.paths as Obj)) {
    const pathServer = (item as Obj).servers?.[0]?.url ?? server;
    for (const method of ["get", "post"]) {
      const op = (item as Obj)[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? "Other";
      if (!byTag.has(tag)) {
        byTag.set(tag, []);
        toc.set(tag, []);
      }
      byTag.get(tag)!.push(operationHtml(d, path, method, op, pathServer));
      toc.get(tag)!.push(`<li><a href="#${esc(op.operationId)}">${esc(method.toUpperCase())} ${breakable(path)}</a> <span class="muted">${esc(op.summary ?? "")}</span></li>`);
    }
  }
  const tagDescription = new Map<string, string>((d.tags ?? []).map((t: Obj) => [t.name, t.description]));
  const sections = [...byTag].map(
    ([tag, ops]) => `<h2 id="tag-${esc(tag)}">${esc(tag)}</h2>${markdown(tagDescription.get(tag) ?? "")}${ops.join("\n")}`,
  );
  const schemas = Object.entries(d.components.schemas as Obj).map(([name, s]) => schemaHtml(name, s as Obj));
  const body = `<div class="docs"><h1>${esc(d.info.title)} <span class="muted">${esc(d.info.version)}</span></h1>
<p>Server: <code>${esc(server)}</code> · machine-readable: <a href="${esc(`${base}/schema/`)}">OpenAPI 3.1 document</a></p>
${markdown(d.info.description)}
<h2>Endpoints</h2>
<nav class="toc">${[...toc].map(([tag, items]) => `<h3>${esc(tag)}</h3><ul>${items.join("")}</ul>`).join("")}</nav>
${sections.join("\n")}
<h2 id="schemas">Schemas</h2>
${schemas.join("\n")}</div>`;
  return htmlPage(`${d.info.title} – documentation`, base, body);
}
