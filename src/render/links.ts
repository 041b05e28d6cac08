/**
 * Absolute hyperlinks built from the request's origin (honouring a proxy's forwarded
 * scheme and host), under the base path the request came in on, always with a trailing
 * slash, and carrying `format=api` when the request did.
 */
export interface Links {
  /** `{origin}{prefix}/api`, e.g. `https://host/api`. */
  base: string;
  /** The request's own URL rebuilt on the public origin, for pagination links. */
  self: URL;
  browsable: boolean;
  /** Absolute URL of an API path (`/protein/42/`) with optional query parameters. */
  api(path: string, query?: Record<string, string | undefined>): string;
  /** Appends `format=api` to any absolute URL when browsable. */
  mark(url: string): string;
}

export function linksFor(request: Request, prefix: string): Links {
  const url = new URL(request.url);
  const proto = request.headers.get("X-Forwarded-Proto")?.split(",")[0].trim();
  const host = request.headers.get("X-Forwarded-Host")?.split(",")[0].trim();
  const scheme = proto && /^https?$/.test(proto) ? proto : url.protocol.slice(0, -1);
  const origin = `${scheme}://${(host && forwardedHost(scheme, host)) || url.host}`;
  const base = `${origin}${prefix}/api`;
  const browsable = url.searchParams.get("format") === "api";
  const mark = (u: string) => (browsable ? `${u}${u.includes("?") ? "&" : "?"}format=api` : u);
  // The request's path holds the `/release/{name}` prefix when it named its release.
  const self = new URL(`${origin}${url.pathname}${url.search}`);
  // A list's items repeat their links' query (a page of 5,000 HOGs at one level: 10,000 links
  // with `level=`), so each query is encoded once a request; a few dozen are kept at most.
  const queries = new Map<string, string>();
  const encoded = (query: Record<string, string | undefined>): string => {
    let key = "";
    // Each name and value with its length before it: no two queries share a key.
    for (const [k, v] of Object.entries(query)) if (v !== undefined) key += `${k.length}:${k}${v.length}:${v}`;
    let qs = queries.get(key);
    if (qs === undefined) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v);
      qs = params.toString();
      if (queries.size < 64) queries.set(key, qs);
    }
    return qs;
  };
  return {
    base,
    self,
    browsable,
    mark,
    api(path, query) {
      // Most links have no query: a page of 5,000 proteins makes ~40,000 of them.
      const qs = query ? encoded(query) : "";
      return mark(`${base}${path}${qs ? `?${qs}` : ""}`);
    },
  };
}

/** A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * The `X-Forwarded-Host` value as a URL host, or undefined when it is not one: anything else
 * (a path, `#`, userinfo, spaces, `>`) would make every link ill-formed, or not parse at all.
 */
function forwardedHost(scheme: string, host: string): string | undefined {
  if (host.length > 255 || !HOST.test(host)) return undefined;
  try {
    return new URL(`${scheme}://${host}`).host;
  } catch {
    return undefined;
  }
}

/** Text that is its own segment: what encodeURIComponent leaves as it is, and the `:` and `|` a segment keeps. */
const LITERAL = /^[A-Za-z0-9\-_.!~*'():|]*$/;

/**
 * A path segment with the characters of ids that must not be taken literally escaped (`/`, `?`,
 * `#`, spaces). Most ids (entry numbers, HOG ids, accessions) are their own segment, found by one
 * test rather than escaped and unescaped twice: the HOG ids' links of a page of 5,000 HOGs took a
 * fifth of its CPU that way.
 */
export function segment(id: string | number): string {
  const text = String(id);
  return LITERAL.test(text) ? text : encodeURIComponent(text).replace(/%3A/gi, ":").replace(/%7C/gi, "|");
}
