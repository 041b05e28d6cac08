import { defineConfig } from "vitest/config";

// Two projects: the compiler (and everything else that runs in Node), and the worker inside workerd.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "compiler",
          environment: "node",
          include: ["test/compiler/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
