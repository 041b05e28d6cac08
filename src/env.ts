/** Bindings of the worker (see wrangler.toml). */
export interface Env {
  /** Object storage holding packs, manifests and the current-release pointer. */
  RELEASES: R2Bucket;
  /** Seconds an isolate trusts its reading of the current-release pointer (default 30). */
  RELEASE_POINTER_TTL_SECONDS?: string;
}
