import type { Hono } from "hono";
import { getEndpoint } from "./endpoint.js";
import { linksOf, releaseOf, type AppContext, type AppEnv } from "../context.js";
import { docsPage } from "../openapi/docs-page.js";
import { documentIn, openApiDocument, type Examples } from "../openapi/document.js";
import { fieldNamesOf } from "../render/field-names.js";
import { prefers } from "../render/accept.js";
import { htmlHeaders } from "../render/html.js";
import type { Manifest } from "../../release-format/format.js";

const OPENAPI_TYPE = "application/vnd.oai.openapi+json";

/** Example ids from the manifest alone (no blob read): the first genome, its first entry, group 1, family 1. */
function examplesOf(manifest: Manifest): Examples {
  const [first, second] = manifest.genomes;
  const { names, parents } = manifest.taxonomy;
  const parent = first ? parents[first.level] : -1;
  return {
    entry: first ? `${first.code}00001` : "1",
    genome: first?.code ?? "HUMAN",
    genome2: (second ?? first)?.code ?? "PANTR",
    group: "1",
    hog: `HOG:${manifest.hogPrefix}0000001`,
    level: parent >= 0 ? names[parent] : "root",
  };
}

/** The document of the release answering, in its naming profile. */
const documentOf = (c: AppContext) => {
  const { manifest } = releaseOf(c);
  return documentIn(fieldNamesOf(manifest), openApiDocument(linksOf(c).base, examplesOf(manifest)));
};

export function schemaRoutes(app: Hono<AppEnv>) {
  getEndpoint(app, "/api/schema/", "Schema", "The OpenAPI 3.1 document of the REST interface.", (c) => {
    // A client that asks for the OpenAPI media type by name gets it; everyone else plain JSON.
    const type = prefers(c.req.header("Accept"), OPENAPI_TYPE, "application/json") ? OPENAPI_TYPE : "application/json";
    return new Response(JSON.stringify(documentOf(c)), { headers: { "Content-Type": type } });
  });

  getEndpoint(app, "/api/docs/", "Documentation", "The interface documentation as an HTML page.", async (c) =>
    new Response(docsPage(documentOf(c), linksOf(c).base), { headers: await htmlHeaders() }),
  );
}
