/**
 * Requests to the worker inside workerd (vitest-pool-workers' SELF). Keep their number per
 * test file small: SELF.fetch slows down as requests accumulate in one workerd instance
 * (workers-sdk#15446); volume tests run in test/e2e over Miniflare instead.
 */
import { SELF } from "cloudflare:test";
import { jsonClient } from "../json-client.js";

export const { get, getJson, getAllPages } = jsonClient((url, init) => SELF.fetch(url, init));
