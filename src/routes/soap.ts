import type { Hono } from "hono";
import { releaseOf, type AppContext, type AppEnv } from "../context.js";
import { declareAllow } from "./endpoint.js";
import { fieldNamesOf, orthNameOf } from "../render/field-names.js";
import { linksFor } from "../render/links.js";
import { malformed, parseEnvelope, SoapFault } from "../soap/envelope.js";
import { encodingSchemaRoutes } from "../soap/encoding-schema.js";
import { operations } from "../soap/operations.js";
import { wsdl } from "../soap/wsdl.js";
import { soapResponse } from "../soap/xml-out.js";

const ALLOW = "GET, HEAD, POST";

/** `{origin}{prefix}/soap`: the endpoint's address as the client reached it. */
function soapUrl(c: AppContext): string {
  return linksFor(c.req.raw, c.var.scope.prefix).base.replace(/\/api$/, "/soap");
}

/** The WSDL of the release answering (app.ts opens it for these GETs), in its naming profile. */
function wsdlResponse(c: AppContext): Response {
  return new Response(wsdl(soapUrl(c), fieldNamesOf(releaseOf(c).manifest)), { headers: { "Content-Type": "text/xml; charset=utf-8", Allow: ALLOW } });
}

/** One SOAP call on the body the entry read: checked, parsed, answered; a fault is thrown (see soap/faults.ts). */
async function call(c: AppContext): Promise<Response> {
  const type = (c.req.header("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "text/xml") throw malformed(`SOAP 1.1 requests are text/xml, not '${type.slice(0, 100) || "(none)"}'`);
  let xml: string;
  try {
    xml = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(c.var.body);
  } catch {
    throw malformed("the body is not UTF-8");
  }
  const request = parseEnvelope(xml);
  const release = releaseOf(c);
  // Operations are named as the release's profile names them (GetOMAGroup under `oma`, where GetOrthGroup is unknown).
  const names = fieldNamesOf(release.manifest);
  const name = orthNameOf(names, "soap", request.operation);
  const operation = name === undefined || !Object.hasOwn(operations, name) ? undefined : operations[name];
  if (!operation) throw new SoapFault("Client", `Unknown operation: ${request.operation.slice(0, 100)}`);
  return soapResponse(name!, await operation(release, request), names);
}

export function soapRoutes(app: Hono<AppEnv>) {
  // GET /soap/encoding/: the SOAP encoding schema the WSDL imports, served here so clients stay offline.
  encodingSchemaRoutes(app);
  // GET /soap and /soap?wsdl give the WSDL, as does /soap/orth.wsdl.
  for (const path of ["/soap", "/soap/orth.wsdl"]) {
    declareAllow(app, path, path === "/soap" ? ALLOW : "GET, HEAD");
    app.get(path, (c) => wsdlResponse(c));
    app.on(["PUT", "PATCH", "DELETE", "OPTIONS"], path, (c) =>
      c.json({ detail: `Method "${c.req.method}" not allowed.` }, 405, { Allow: path === "/soap" ? ALLOW : "GET, HEAD" }),
    );
  }
  app.post("/soap", (c) => call(c));
  app.post("/soap/orth.wsdl", (c) => c.json({ detail: 'Method "POST" not allowed.' }, 405, { Allow: "GET, HEAD" }));
}
