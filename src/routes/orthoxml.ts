import type { Hono } from "hono";
import { getEndpoint, pathParam, releaseOf, type AppContext, type AppEnv } from "../app.js";
import { linksFor } from "../render/links.js";
import { familyOrthoXml } from "../render/orthoxml.js";
import { openRelease } from "../release/release.js";
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
  // What the /api/* middleware provides, for the paths outside /api/: links and the release.
  app.use("/orth/*", async (c, next) => {
    c.set("links", linksFor(c.req.raw, c.env.prefix));
    if (c.req.method !== "OPTIONS") c.set("release", await openRelease(c.env.RELEASES, c.env.releaseName));
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
