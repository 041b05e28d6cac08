/**
 * A release store on any S3-compatible object store, Cloudflare R2 first
 * (`https://<account id>.r2.cloudflarestorage.com`), through aws4fetch: requests signed with
 * AWS Signature V4, path-style URLs (`endpoint/bucket/key`), and the three S3 calls publishing
 * needs: ListObjectsV2, GetObject, PutObject (a pack, at most 64 MiB, is far below a single PUT's 5 GB).
 *
 * Every upload carries `Content-MD5`, which the store checks against the bytes it received
 * (`BadDigest` otherwise), and its `ETag` answer is the MD5 of what it stored.
 */
import { AwsClient } from "aws4fetch";
import { XMLParser } from "fast-xml-parser";
import { StoreError, type ReleaseStore, type StoredObject } from "./store.js";

export interface S3Options {
  /** `https://<account id>.r2.cloudflarestorage.com`, or any S3 endpoint. */
  endpoint: string;
  bucket: string;
  /** `auto` for R2. */
  region?: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** One request's time limit (default 60 s, plus 1 s per 100 kB sent); a request over it is a transient fault. */
  timeoutMs?: number;
}

const xml = new XMLParser({ parseTagValue: false, isArray: (name) => name === "Contents" });

/** Codes that mean the store will not take these credentials, whatever the retry. */
const CREDENTIAL_CODES = new Set(["InvalidAccessKeyId", "SignatureDoesNotMatch", "AccessDenied", "InvalidToken", "ExpiredToken", "Unauthorized"]);
/** 4xx codes that a new attempt may clear. */
const TRANSIENT_CODES = new Set(["BadDigest", "RequestTimeout", "SlowDown", "IncompleteBody", "InternalError"]);

const plainMd5 = (etag: string | null): string | null => {
  const hex = (etag ?? "").replace(/"/g, "").toLowerCase();
  return /^[0-9a-f]{32}$/.test(hex) ? hex : null;
};

/** RFC 3986 encoding of each path segment of a key. */
const encodeKey = (key: string): string =>
  key
    .split("/")
    .map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`))
    .join("/");

export function s3Store(options: S3Options): ReleaseStore {
  const endpoint = options.endpoint.replace(/\/+$/, "");
  if (!/^https?:\/\/[^/]+$/.test(endpoint)) throw new StoreError(`--endpoint must be a URL such as https://<account id>.r2.cloudflarestorage.com, not '${options.endpoint}'`, false);
  const where = `bucket ${options.bucket} at ${endpoint}`;
  const timeoutMs = options.timeoutMs ?? 60_000;
  // Retries are publishing's (store.ts), with backoff and a count the progress line shows.
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    sessionToken: options.sessionToken,
    service: "s3",
    region: options.region ?? "auto",
    retries: 0,
  });
  const base = `${endpoint}/${encodeURIComponent(options.bucket)}`;

  /** One signed request; the answer's body is read inside, so a connection lost mid-body is a fault of this call. */
  async function request(what: string, url: string, init: RequestInit = {}, missingIsNull = false): Promise<{ status: number; headers: Headers; body: Uint8Array }> {
    let res: Response;
    let body: Uint8Array;
    const limit = timeoutMs + (init.body instanceof Uint8Array ? Math.ceil(init.body.length / 100_000) * 1000 : 0);
    try {
      res = await client.fetch(url, { ...init, signal: AbortSignal.timeout(limit) });
      body = new Uint8Array(await res.arrayBuffer());
    } catch (error) {
      const e = error as Error & { cause?: { code?: string; message?: string } };
      if (e.name === "TimeoutError" || e.name === "AbortError") throw new StoreError(`${where}: ${what} timed out after ${limit / 1000} s`, true);
      throw new StoreError(`${where} did not answer ${what} (${e.cause?.code ?? e.cause?.message ?? e.message})`, true);
    }
    if (res.status < 300) return { status: res.status, headers: res.headers, body };
    const text = new TextDecoder().decode(body).trim();
    const parsed = text.startsWith("<") ? (xml.parse(text) as { Error?: { Code?: string; Message?: string } }).Error : undefined;
    const code = parsed?.Code ?? `HTTP ${res.status}`;
    if (missingIsNull && res.status === 404 && code !== "NoSuchBucket") return { status: 404, headers: res.headers, body };
    const detail = `${code}${parsed?.Message ? `: ${parsed.Message}` : ""}`;
    if (CREDENTIAL_CODES.has(code) || res.status === 401 || res.status === 403) {
      throw new StoreError(
        `${where} refused the credentials (${detail}); check AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (for R2: an API token with Object Read & Write on this bucket)`,
        false,
      );
    }
    if (code === "NoSuchBucket") throw new StoreError(`${where}: the bucket does not exist (create it first: npx wrangler r2 bucket create ${options.bucket})`, false);
    const transient = res.status >= 500 || res.status === 429 || TRANSIENT_CODES.has(code);
    throw new StoreError(`${where}: ${what} failed (${detail})`, transient);
  }

  return {
    where,
    async list(prefix) {
      const out = new Map<string, StoredObject>();
      let token: string | undefined;
      do {
        const query = new URLSearchParams({ "list-type": "2", prefix, "max-keys": "1000" });
        if (token) query.set("continuation-token", token);
        const { body } = await request(`a listing of ${prefix}`, `${base}?${query}`);
        const page = (xml.parse(new TextDecoder().decode(body)) as { ListBucketResult?: ListResult }).ListBucketResult;
        if (!page) throw new StoreError(`${where}: the listing of ${prefix} is not a ListBucketResult`, true);
        for (const o of page.Contents ?? []) out.set(String(o.Key), { size: Number(o.Size), md5: plainMd5(String(o.ETag ?? "")) });
        token = String(page.IsTruncated) === "true" ? String(page.NextContinuationToken ?? "") || undefined : undefined;
        if (String(page.IsTruncated) === "true" && !token) throw new StoreError(`${where}: a truncated listing without a continuation token`, false);
      } while (token);
      return out;
    },
    async get(key) {
      const { status, body } = await request(`reading ${key}`, `${base}/${encodeKey(key)}`, {}, true);
      return status === 404 ? null : body;
    },
    async put(key, bytes, md5) {
      const { headers } = await request(`writing ${key}`, `${base}/${encodeKey(key)}`, {
        method: "PUT",
        body: bytes,
        headers: { "Content-MD5": Buffer.from(md5, "hex").toString("base64") },
      });
      return { size: bytes.length, md5: plainMd5(headers.get("ETag")) };
    },
  };
}

interface ListResult {
  Contents?: Array<{ Key: unknown; Size: unknown; ETag?: unknown }>;
  IsTruncated?: unknown;
  NextContinuationToken?: unknown;
}
