import { ApiError, badRequest } from "../errors.js";
import type { Links } from "./links.js";

export const DEFAULT_PER_PAGE = 100;
export const MAX_PER_PAGE = 10_000_000;

export interface Page {
  page: number;
  perPage: number;
  /** Item range [from, to) of this page within the whole list. */
  from: number;
  to: number;
  total: number;
  headers: Record<string, string>;
}

const POSITIVE = /^[1-9][0-9]*$/;

function positive(params: URLSearchParams, name: string, fallback: number): number {
  const raw = params.get(name);
  if (raw === null) return fallback;
  if (!POSITIVE.test(raw) || raw.length > 16) throw badRequest(`Invalid ${name}.`);
  return Number(raw);
}

/**
 * The requested page of a list of `total` items, with the `X-Total-Count` and `Link`
 * headers. `page` past the last page is a 404; page 1 of an empty list is an empty page.
 */
export function paginate(links: Links, total: number): Page {
  const params = links.self.searchParams;
  const page = positive(params, "page", 1);
  const perPage = Math.min(positive(params, "per_page", DEFAULT_PER_PAGE), MAX_PER_PAGE);
  const last = Math.max(1, Math.ceil(total / perPage));
  if (page > last) throw new ApiError(404, "Invalid page.");
  const headers: Record<string, string> = { "X-Total-Count": String(total) };
  if (last > 1) {
    const to = (n: number) => {
      const url = new URL(links.self);
      url.searchParams.delete("page");
      if (n > 1) url.searchParams.set("page", String(n));
      return url.toString();
    };
    const rels: string[] = [];
    if (page > 1) rels.push(`<${to(1)}>; rel="first"`, `<${to(page - 1)}>; rel="prev"`);
    if (page < last) rels.push(`<${to(page + 1)}>; rel="next"`, `<${to(last)}>; rel="last"`);
    headers.Link = rels.join(", ");
  }
  const from = (page - 1) * perPage;
  return { page, perPage, from, to: Math.min(total, from + perPage), total, headers };
}
