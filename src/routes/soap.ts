import type { Hono } from "hono";
import type { AppContext, AppEnv } from "../app.js";
import { ApiError } from "../errors.js";
import { linksFor } from "../render/links.js";
import { readCapped } from "../render/capped-body.js";
import { openRelease } from "../release/release.js";
import { malformed, parseEnvelope, SoapFault } from "../soap/envelope.js";
import { operations } from "../soap/operations.js";
import { wsdl } from "../soap/wsdl.js";
import { soapFault, soapResponse } from "../soap/xml-out.js";

/** Largest request body: a MapIDs call of 1000 ids is some 60 kB. */
export const MAX_SOAP_BODY = 1024 * 1024;
const ALLOW = "GET, HEAD, POST";

/** `{origin}{prefix}/soap`: the endpoint's address as the client reached it. */
function soapUrl(c: AppContext): string {
  return linksFor(c.req.raw, c.env.prefix).base.replace(/\/api$/, "/soap");
}

function wsdlResponse(c: AppContext): Response {
  return new Response(wsdl(soapUrl(c)), { headers: { "Content-Type": "text/xml; charset=utf-8", Allow: ALLOW } });
}

/** One SOAP call: the body read with a cap, checked, parsed, and answered or faulted. */
async function call(c: AppContext): Promise<Response> {
  try {
    const type = (c.req.header("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "text/xml") throw malformed(`SOAP 1.1 requests are text/xml, not '${type.slice(0, 100) || "(none)"}'`);
    const body = await readCapped(c.req.raw.body, MAX_SOAP_BODY);
    if (body.kind === "over") throw malformed(`the body is larger than ${MAX_SOAP_BODY} bytes`);
    if (body.kind === "broken") throw malformed("the body was cut short");
    let xml: string;
    try {
      xml = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(body.bytes);
    } catch {
      throw malformed("the body is not UTF-8");
    }
    const request = parseEnvelope(xml);
    const operation = operations[request.operation];
    if (!operation) throw new SoapFault("Client", `Unknown operation: ${request.operation.slice(0, 100)}`);
    const release = await openRelease(c.env.RELEASES, c.env.releaseName);
    c.set("release", release);
    return soapResponse(request.operation, await operation(release, request));
  } catch (error) {
    if (error instanceof SoapFault) return soapFault(error);
    if (error instanceof ApiError && error.status === 503) return soapFault(new SoapFault("Server", error.detail));
    // The caller's mistake, e.g. `/release/{name}/soap` naming no release: "Unknown release: {name}".
    if (error instanceof ApiError && error.status < 500) return soapFault(new SoapFault("Client", error.detail));
    console.error("SOAP call failed:", error);
    return soapFault(new SoapFault("Server", "Internal server error."));
  }
}

export function soapRoutes(app: Hono<AppEnv>) {
  // GET /soap and /soap?wsdl give the WSDL, as does /soap/orth.wsdl.
  for (const path of ["/soap", "/soap/orth.wsdl"]) {
    app.get(path, (c) => wsdlResponse(c));
    app.on(["PUT", "PATCH", "DELETE", "OPTIONS"], path, (c) =>
      c.json({ detail: `Method "${c.req.method}" not allowed.` }, 405, { Allow: path === "/soap" ? ALLOW : "GET, HEAD" }),
    );
  }
  app.post("/soap", async (c) => {
    const response = await call(c);
    response.headers.set("Allow", ALLOW);
    return response;
  });
  app.post("/soap/orth.wsdl", (c) => c.json({ detail: 'Method "POST" not allowed.' }, 405, { Allow: "GET, HEAD" }));
}
