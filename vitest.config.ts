import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { readFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { defineConfig } from "vitest/config";
import { TEST_BUILD } from "./test/build-dir.js";

/**
 * Node-side service binding for worker tests: hands out files of compiled test releases
 * (`build/test/...`, see test/build-dir.ts) so tests inside workerd can load them into the R2 binding.
 */
async function releaseFiles(request: Request): Promise<Response> {
  const path = decodeURIComponent(new URL(request.url).pathname).replace(/^\/+/, "");
  const folder = TEST_BUILD;
  const file = resolve(folder, path);
  if (!file.startsWith(folder)) return new Response("outside the test folders", { status: 403 });
  try {
    return new Response(await readFile(file));
  } catch {
    return new Response(`no such file: ${path}`, { status: 404 });
  }
}

// Two projects: the compiler (and everything else that runs in Node), and the worker inside workerd.
export default defineConfig({
  test: {
    globalSetup: ["test/global-setup.ts"],
    // Vitest's default is one file fewer than the cores (so one at a time on two); most files wait
    // on child processes, workerd or the network as often as they compute, so run one a core.
    maxWorkers: availableParallelism(),
    reporters: ["default", "./test/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "compiler",
          environment: "node",
          include: ["test/compiler/**/*.test.ts", "test/app/**/*.test.ts", "test/e2e/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: { serviceBindings: { RELEASE_FILES: releaseFiles } },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          testTimeout: 60_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
