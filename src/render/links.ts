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
  return {
    base,
    self,
    browsable,
    mark,
    api(path, query) {
      // Most links have no query: a page of 5,000 proteins makes ~40,000 of them.
      let qs = "";
      if (query) {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v);
        qs = params.toString();
      }
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

/** A path segment with the characters of ids that must not be taken literally escaped (`/`, `?`, `#`, spaces). */
export function segment(id: string | number): string {
  return encodeURIComponent(String(id)).replace(/%3A/gi, ":").replace(/%7C/gi, "|");
}
