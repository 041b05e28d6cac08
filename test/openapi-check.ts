/**
 * Validates real responses against the OpenAPI document the service publishes: the body
 * against the schema of its operation's response (JSON Schema 2020-12 through ajv, formats
 * included), and the headers the response declares as required.
 */
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

export type OpenApiDocument = { openapi: string; paths: Record<string, any>; components: Record<string, any>; [key: string]: any };

/** The document a served API publishes at `{base}/schema/`. */
export async function loadSchema(base: string): Promise<OpenApiDocument> {
  const res = await fetch(`${base}/schema/`, { headers: { Accept: "application/json" } });
  if (res.status !== 200) throw new Error(`${base}/schema/ answered ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

export interface CheckOptions {
  /** Media type of the body (default `application/json`), e.g. `application/json; version=1.6`. */
  mediaType?: string;
  /** The response's headers: those the document marks `required` must be present. */
  headers?: Headers;
}

const SCHEMA_REF = "#/components/schemas/";
const idOf = (name: string) => `urn:orth-openapi:schema:${name}`;

/** A copy of a schema whose component `$ref`s point at the ids ajv knows them by. */
function rebase(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === "$ref" && typeof v === "string" && v.startsWith(SCHEMA_REF) ? idOf(v.slice(SCHEMA_REF.length)) : rebase(v);
  }
  return out;
}

interface Compiled {
  ajv: Ajv2020;
  validators: Map<unknown, ValidateFunction>;
}
const compiledDocs = new WeakMap<OpenApiDocument, Compiled>();

function compiledFor(doc: OpenApiDocument): Compiled {
  let compiled = compiledDocs.get(doc);
  if (!compiled) {
    // Strict: an unknown keyword in the document's schemas is an error, not silently ignored.
    const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
    addFormats(ajv);
    for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) ajv.addSchema(rebase(schema) as object, idOf(name));
    compiled = { ajv, validators: new Map() };
    compiledDocs.set(doc, compiled);
  }
  return compiled;
}

/** `{"$ref": "#/components/responses/NotFound"}` → the response it names. */
function resolve(doc: OpenApiDocument, item: any): any {
  if (typeof item?.$ref !== "string") return item;
  const [, , section, name] = item.$ref.split("/");
  return doc.components?.[section]?.[name];
}

/** The documented response of an operation for a status: exact, then `4XX`, then `default`. */
function documentedResponse(doc: OpenApiDocument, method: string, template: string, status: number): { response?: any; error?: string } {
  const item = doc.paths[template];
  if (!item) return { error: `the document has no path ${template}` };
  // HEAD is GET without the body: same status and headers.
  const op = item[method.toLowerCase() === "head" ? "get" : method.toLowerCase()];
  if (!op) {
    // A method a path does not define is answered 405 by the service, as the document's MethodNotAllowed describes.
    if (status === 405) return { response: resolve(doc, { $ref: "#/components/responses/MethodNotAllowed" }) };
    return { error: `the document has no ${method.toUpperCase()} ${template}` };
  }
  const r = op.responses?.[String(status)] ?? op.responses?.[`${String(status)[0]}XX`] ?? op.responses?.default;
  if (!r) return { error: `${method.toUpperCase()} ${template} documents no ${status} response` };
  return { response: resolve(doc, r) };
}

/**
 * Everything wrong with a response by the document: an empty list when the body (`undefined`
 * for none, as for HEAD) and the required headers are as documented.
 */
export function responseErrors(
  doc: OpenApiDocument,
  method: string,
  template: string,
  status: number,
  body: unknown,
  options: CheckOptions = {},
): string[] {
  const { response, error } = documentedResponse(doc, method, template, status);
  if (error) return [error];
  const errors: string[] = [];
  if (options.headers) {
    for (const [name, h] of Object.entries(response.headers ?? {})) {
      const header = resolve(doc, h);
      if (header?.required && !options.headers.has(name)) errors.push(`missing required header ${name}`);
    }
  }
  if (body === undefined) return errors;
  const mediaType = options.mediaType ?? "application/json";
  const schema = response.content?.[mediaType]?.schema;
  if (!schema) return [...errors, `${method.toUpperCase()} ${template} ${status} documents no ${mediaType} body`];
  const { ajv, validators } = compiledFor(doc);
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(rebase(schema) as object);
    validators.set(schema, validate);
  }
  if (!validate(body)) {
    for (const e of validate.errors ?? []) {
      const extra = e.keyword === "additionalProperties" ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : "";
      errors.push(`${e.instancePath || "(body)"} ${e.message}${extra}`);
    }
  }
  return errors;
}

/** Throws, listing every problem, unless the response is as the document describes it. */
export function checkResponse(
  doc: OpenApiDocument,
  method: string,
  template: string,
  status: number,
  body: unknown,
  label = `${method.toUpperCase()} ${template}`,
  options: CheckOptions = {},
): void {
  const errors = responseErrors(doc, method, template, status, body, options);
  if (errors.length) throw new Error(`${label} → ${status} does not match the OpenAPI document:\n  ${errors.slice(0, 20).join("\n  ")}`);
}

/**
 * The path template of the document that a request path (under the server's base, e.g.
 * `/protein/12/`) falls under: the matching template with the fewest parameters, so
 * `/protein/bulk_retrieve/` is not taken for `/protein/{entry_id}/`.
 */
export function templateOf(doc: OpenApiDocument, path: string): string | undefined {
  const candidates = Object.entries(doc.paths)
    .filter(([, item]) => !item.servers)
    .map(([template]) => template)
    .filter((template) => new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path));
  const params = (t: string) => (t.match(/\{/g) ?? []).length;
  return candidates.sort((a, b) => params(a) - params(b))[0];
}
