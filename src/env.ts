/** Bindings of the worker (see wrangler.toml). */
export interface Env {
  /** Object storage holding blobs, manifests and the current-release pointer. */
  RELEASES: R2Bucket;
}
