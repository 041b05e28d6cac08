// The bindings tests see through `env` from cloudflare:test.
declare namespace Cloudflare {
  interface Env {
    RELEASES: R2Bucket;
    RELEASE_FILES: Fetcher;
  }
}
