/**
 * A Miniflare R2 bucket reached from Node over HTTP: a small worker bound to the bucket, asked
 * through `dispatchFetch`.
 *
 * Why not Miniflare's own `getR2Bucket()` proxy: every call that returns an object, and every
 * property read on what it returns (`head(key).size`), goes through Miniflare's
 * `SynchronousFetcher`, whose handshake with its worker thread races: a wake-up that comes late
 * from one call is taken for the next call's answer, an assertion fails
 * (`AssertionError: false == true` in fetch-sync.ts), and the proxy stays out of step for the
 * rest of the instance's life. Seen in CI on `npm run rollback`; fixed upstream
 * (cloudflare/workers-sdk#15552) after the newest miniflare on npm. `dispatchFetch` is
 * asynchronous and has no such handshake.
 *
 * The worker answers only requests for `BUCKET_HOST` (a route), so beside the service's worker
 * every other request still reaches the service.
 */
import type { Miniflare, WorkerOptions } from "miniflare";
import type { BucketLike } from "./r2-loader.js";
import type { R2BucketLike } from "./store.js";

/** The host the bucket worker is routed on; no real request names it. */
export const BUCKET_HOST = "bucket.miniflare.invalid";
const BUCKET_WORKER = "orth-bucket";

/**
 * The bucket worker: `/list`, and `/object/<key>` for GET, HEAD, PUT and DELETE. A PUT's body
 * is streamed into R2 (its length is known), so sixteen 64 MiB packs in flight hold workerd at
 * 270 MiB rather than 1 GiB; its `x-md5` is checked by R2, and `x-content-type` and
 * `x-custom-metadata` (JSON) are stored with it.
 */
const SCRIPT = `
const json = (value, status = 200) => new Response(JSON.stringify(value), { status, headers: { "content-type": "application/json" } });
export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname === "/list") {
      const page = await env.BUCKET.list({ prefix: url.searchParams.get("prefix") ?? undefined, cursor: url.searchParams.get("cursor") ?? undefined });
      return json({ objects: page.objects.map((o) => ({ key: o.key, size: o.size, etag: o.etag })), truncated: page.truncated, cursor: page.truncated ? page.cursor : undefined });
    }
    if (!url.pathname.startsWith("/object/")) return json({ detail: "no such path" }, 404);
    const key = decodeURIComponent(url.pathname.slice("/object/".length));
    try {
      switch (request.method) {
        case "GET": {
          const object = await env.BUCKET.get(key);
          return object ? new Response(object.body) : json(null, 404);
        }
        case "HEAD": {
          const object = await env.BUCKET.head(key);
          return new Response(null, object ? { headers: { "x-size": String(object.size), "x-etag": object.etag } } : { status: 404 });
        }
        case "PUT": {
          const md5 = request.headers.get("x-md5");
          const contentType = request.headers.get("x-content-type");
          const custom = request.headers.get("x-custom-metadata");
          const object = await env.BUCKET.put(key, request.body ?? new Uint8Array(0), {
            ...(md5 ? { md5 } : {}),
            ...(contentType ? { httpMetadata: { contentType } } : {}),
            ...(custom ? { customMetadata: JSON.parse(custom) } : {}),
          });
          return json(object ? { size: object.size, etag: object.etag } : null);
        }
        case "DELETE":
          await env.BUCKET.delete(key);
          return json(null);
      }
      return json({ detail: "method not allowed" }, 405);
    } catch (error) {
      return json({ detail: String(error && error.message ? error.message : error) }, 500);
    }
  },
};
`;

/** The worker to add beside others (`workers: [...]`), bound to the bucket `bucketId` names; `r2Persist` and the like stay shared options. */
export function bucketWorker(bucketId: string): WorkerOptions {
  return { name: BUCKET_WORKER, modules: true, script: SCRIPT, r2Buckets: { BUCKET: bucketId }, routes: [`${BUCKET_HOST}/*`] };
}

export interface PutOptions {
  /** Checked by R2 against the bytes (hex). */
  md5?: string;
  contentType?: string;
  customMetadata?: Record<string, string>;
}

/** What tests and tools do with a bucket from Node. */
export interface MiniflareBucket extends Omit<R2BucketLike, "put">, Omit<BucketLike, "put"> {
  head(key: string): Promise<{ size: number; etag: string } | null>;
  get(key: string): Promise<{ arrayBuffer(): Promise<ArrayBuffer>; text(): Promise<string> } | null>;
  put(key: string, value: Uint8Array | string, options?: PutOptions): Promise<{ size: number; etag: string } | null>;
  delete(key: string): Promise<void>;
}

/** The bucket of `mf`'s bucket worker (`bucketWorker`), over `dispatchFetch`. */
export function miniflareBucket(mf: Miniflare): MiniflareBucket {
  const ask = async (path: string, init: { method: string; headers?: Record<string, string>; body?: Uint8Array }) => {
    const response = await mf.dispatchFetch(`http://${BUCKET_HOST}${path}`, init);
    if (response.status >= 500 || response.status === 405) {
      const { detail } = (await response.json()) as { detail: string };
      throw new Error(`Miniflare's R2: ${init.method} ${path}: ${detail}`);
    }
    return response;
  };
  const objectPath = (key: string) => `/object/${encodeURIComponent(key)}`;
  return {
    async list({ prefix, cursor }) {
      const query = new URLSearchParams();
      if (prefix !== undefined) query.set("prefix", prefix);
      if (cursor !== undefined) query.set("cursor", cursor);
      return (await ask(`/list?${query}`, { method: "GET" })).json() as ReturnType<R2BucketLike["list"]>;
    },
    async get(key) {
      const response = await ask(objectPath(key), { method: "GET" });
      if (response.status === 404) {
        await response.arrayBuffer();
        return null;
      }
      const bytes = await response.arrayBuffer();
      return { arrayBuffer: async () => bytes, text: async () => new TextDecoder().decode(bytes) };
    },
    async head(key) {
      const response = await ask(objectPath(key), { method: "HEAD" });
      if (response.status === 404) return null;
      return { size: Number(response.headers.get("x-size")), etag: response.headers.get("x-etag") ?? "" };
    },
    async put(key, value, options = {}) {
      const body = typeof value === "string" ? new TextEncoder().encode(value) : value;
      // A known length lets the worker stream the body into R2 rather than hold it whole.
      const headers: Record<string, string> = { "content-length": String(body.byteLength) };
      if (options.md5) headers["x-md5"] = options.md5;
      if (options.contentType) headers["x-content-type"] = options.contentType;
      if (options.customMetadata) headers["x-custom-metadata"] = JSON.stringify(options.customMetadata);
      return (await ask(objectPath(key), { method: "PUT", headers, body })).json() as Promise<{ size: number; etag: string } | null>;
    },
    async delete(key) {
      await (await ask(objectPath(key), { method: "DELETE" })).arrayBuffer();
    },
  };
}
