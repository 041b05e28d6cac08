import { ApiError } from "../errors.js";

/**
 * Content negotiation on the `Accept` header (RFC 9110 §12.5.1): the quality a header gives a
 * media type is the `q` of the most specific range that matches it.
 */

interface Range {
  type: string;
  subtype: string;
  q: number;
}

function parse(accept: string): Range[] {
  const ranges: Range[] = [];
  for (const part of accept.split(",")) {
    const [mediaRange, ...params] = part.split(";");
    const [type, subtype] = mediaRange.trim().toLowerCase().split("/");
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split("=").map((s) => s.trim());
      if (name.toLowerCase() === "q") {
        const n = Number(value);
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 1;
      }
    }
    ranges.push({ type, subtype, q });
  }
  return ranges;
}

/** Quality in [0, 1] that `accept` gives `mediaType` (`text/html`); no header accepts everything. */
export function acceptQuality(accept: string | undefined | null, mediaType: string): number {
  if (!accept || !accept.trim()) return 1;
  const [type, subtype] = mediaType.toLowerCase().split("/");
  let best = -1;
  let q = 0;
  for (const r of parse(accept)) {
    const specificity = r.type === type && r.subtype === subtype ? 2 : r.type === type && r.subtype === "*" ? 1 : r.type === "*" ? 0 : -1;
    if (specificity < 0) continue;
    if (specificity > best || (specificity === best && r.q > q)) {
      best = specificity;
      q = r.q;
    }
  }
  return q;
}

/** Whether `accept` ranks `preferred` strictly above `other` (a tie keeps the other, the default). */
export function prefers(accept: string | undefined | null, preferred: string, other: string): boolean {
  return acceptQuality(accept, preferred) > acceptQuality(accept, other);
}

/** A browser asking for a page: `text/html` ranked above JSON (`*\/*` alone, or no header, is an API client). */
export const prefersHtml = (accept: string | undefined | null): boolean => prefers(accept, "text/html", "application/json");

/** Interface versions a client may ask for with `Accept: application/json; version=1.6`. */
export const API_VERSIONS = ["1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "1.6", "1.7", "1.8", "1.9", "1.10", "1.11"];
export const LATEST_API_VERSION = API_VERSIONS[API_VERSIONS.length - 1];

/** The interface version an `Accept` header selects (the latest without one); unknown ones → 406. */
export function checkAcceptVersion(accept: string | undefined): string {
  const m = accept ? /(?:^|;)\s*version\s*=\s*"?([^;,"\s]+)/i.exec(accept) : null;
  if (!m) return LATEST_API_VERSION;
  if (!API_VERSIONS.includes(m[1])) throw new ApiError(406, 'Invalid version in "Accept" header.');
  return m[1];
}
