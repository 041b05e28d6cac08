import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { pathParam, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { linksFor } from "../render/links.js";
import { familyOrthoXml } from "../render/orthoxml.js";
import { resolveHog } from "../release/resolve.js";

const XML_TYPE = "application/xml";

async function orthoXml(c: AppContext, augmented: boolean): Promise<Response> {
  const release = releaseOf(c);
  const { family } = await resolveHog(release, pathParam(c, "hog_id"));
  return new Response(familyOrthoXml(release, family, augmented), { headers: { "Content-Type": XML_TYPE } });
}

/**
 * OrthoXML export of the root HOG holding a HOG id (or a protein's HOG), under `/api/hog/…` and
 * under `/orth/hog/…`, the path client libraries build themselves.
 */
export function orthoXmlRoutes(app: Hono<AppEnv>) {
  // The /api/* conventions give links; the /orth/* paths need them too.
  app.use("/orth/*", async (c, next) => {
    c.set("links", linksFor(c.req.raw, c.var.scope.prefix));
    await next();
  });

  for (const prefix of ["/api", "/orth"]) {
    getEndpoint(
      app,
      `${prefix}/hog/:hog_id/orthoxml/`,
      "HOG OrthoXML",
      "The OrthoXML document of the root HOG holding a HOG id or a protein's HOG.",
      (c) => orthoXml(c, false),
    );
    getEndpoint(
      app,
      `${prefix}/hog/:hog_id/orthoxml/augmented/`,
      "HOG OrthoXML (augmented)",
      "The OrthoXML document of the root HOG holding a HOG id, naming the HOG on every orthologGroup.",
      (c) => orthoXml(c, true),
    );
  }
}
