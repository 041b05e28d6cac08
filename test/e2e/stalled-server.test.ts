/**
 * The test servers' one restart: a workerd that stops answering (stopped here with SIGSTOP, as
 * a spinning one was seen to stop in CI) is replaced on the same port over the same storage,
 * and every request that stalled with it is asked again, those whose connections the old
 * workerd's end cut included; a server that stalls a second time fails the request.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonClient } from "../json-client.js";
import { askedAgain, getJson, restartStalled, serveRelease, type ServedRelease } from "./serve.js";

/** The pid of the process listening on a loopback port (ss from iproute2). */
function listenerOf(port: string): number {
  const line = execFileSync("ss", ["-Hltnp", `sport = :${port}`], { encoding: "utf8" });
  const pid = /pid=(\d+)/.exec(line)?.[1];
  if (!pid) throw new Error(`nothing listens on port ${port}: ${line}`);
  return Number(pid);
}

describe("a test server that stalls", () => {
  let served: ServedRelease;
  beforeAll(async () => {
    served = await serveRelease("sim");
  });
  afterAll(() => served?.dispose());

  it("is restarted once, and the requests that stalled with it answered as before; a second stall fails", async () => {
    const url = `${served.base}/protein/1/`;
    const urls = [1, 2, 3, 4, 5, 6].map((entry) => `${served.base}/protein/${entry}/`);
    const before = await Promise.all(urls.map((u) => getJson(u)));
    const quick = jsonClient(fetch, { onStall: restartStalled, answerWithinMs: 3_000 });
    const port = new URL(served.origin).port;
    const stopped = listenerOf(port);
    process.kill(stopped, "SIGSTOP");
    // Sent over 2.5 s: the first to time out has workerd restarted, and the old one's end cuts the connections of those still waiting.
    const asked = urls.map((u, i) => new Promise((r) => setTimeout(r, i * 500)).then(() => quick.getJson(u)));
    expect(await Promise.all(asked)).toEqual(before);
    expect(askedAgain.map((a) => a.url).sort()).toEqual([...urls].sort());
    expect(askedAgain[0].why).toBe("stall");
    expect(askedAgain.some((a) => a.why === "reset")).toBe(true);
    expect(listenerOf(port)).not.toBe(stopped);
    process.kill(listenerOf(port), "SIGSTOP");
    await expect(quick.getJson(url)).rejects.toThrow(`${url}: no answer within 3 s`);
    process.kill(listenerOf(port), "SIGCONT");
  });
});
