/**
 * The edge cache's copy of an answer (src/middleware/stored-copy.ts): whole, its length known,
 * for an answer within the limit; a stream of every byte past it; none for an answer cut short
 * or failed, whichever side of the limit, so nothing partial is stored. The body sent is the
 * answer's bytes in every case.
 */
import { describe, expect, it } from "vitest";
import { storedCopy, type StoredBody } from "../../src/middleware/stored-copy.js";

/** An answer of `chunks` chunks of `size` bytes (byte k of chunk c is (c + k) % 251), produced as pulled; `cancelled` tells whether its producer was stopped. */
function answer(chunks: number, size: number, failAt = -1) {
  let c = 0;
  const state = { cancelled: false, pulled: 0 };
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (c === failAt) return controller.error(new Error("storage fault"));
      if (c === chunks) return controller.close();
      controller.enqueue(Uint8Array.from({ length: size }, (_, k) => (c + k) % 251));
      c++;
      state.pulled = c;
    },
    cancel() {
      state.cancelled = true;
    },
  });
  const bytes = new Uint8Array(chunks * size);
  for (let i = 0; i < chunks; i++) for (let k = 0; k < size; k++) bytes[i * size + k] = (i + k) % 251;
  return { body, bytes, state };
}

const bytesOf = async (body: Blob | ReadableStream<Uint8Array>) => new Uint8Array(await new Response(body).arrayBuffer());

/** The sent body and the copy read side by side, as the worker's client and the cache's put read them. */
async function readBoth(sent: ReadableStream<Uint8Array>, stored: Promise<StoredBody>) {
  const copy = stored.then((body) => (body === undefined ? undefined : bytesOf(body)));
  return { sent: await bytesOf(sent), copy: await copy, kind: (await stored) instanceof Blob ? "whole" : "stream" };
}

describe("the edge cache's copy of an answer", () => {
  it("is the whole answer, its length known, within the limit; a stream of every byte past it", async () => {
    for (const [chunks, size, limit, kind] of [
      [0, 0, 100, "whole"],
      [1, 100, 100, "whole"],
      [10, 10, 100, "whole"],
      [11, 10, 100, "stream"],
      [40, 1000, 100, "stream"],
      [3, 5000, 100, "stream"],
    ] as const) {
      const { body, bytes } = answer(chunks, size);
      const { sent, stored } = storedCopy(body, { limit });
      const read = await readBoth(sent, stored);
      expect(read.sent, `${chunks} × ${size}`).toEqual(bytes);
      expect(read.copy, `${chunks} × ${size}`).toEqual(bytes);
      expect(read.kind, `${chunks} × ${size}`).toBe(kind);
      if (kind === "whole") expect(((await stored) as Blob).size).toBe(bytes.length);
    }
  });

  it("is none when the body is cut short within the limit, and the answer stops being produced", async () => {
    const { body, state } = answer(50, 10);
    const { sent, stored } = storedCopy(body, { limit: 1000 });
    const reader = sent.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel("client went away");
    expect(await stored).toBeUndefined();
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(50);
  });

  it("errors the copy's stream when the body is cut short past the limit, so the cache never stores part of it", async () => {
    const { body, state } = answer(50, 10);
    const { sent, stored } = storedCopy(body, { limit: 30 });
    const reader = sent.getReader();
    const copy = (async () => {
      const streamed = await stored;
      expect(streamed).toBeInstanceOf(ReadableStream);
      return bytesOf(streamed!);
    })();
    for (let i = 0; i < 6; i++) await reader.read();
    await reader.cancel("client went away");
    await expect(copy).rejects.toThrow();
    expect(state.cancelled).toBe(true);
  });

  it("sends the whole body when the copy's reader goes away past the limit (the cache refused it)", async () => {
    const { body, bytes } = answer(40, 10);
    const { sent, stored, abandon } = storedCopy(body, { limit: 30 });
    const streamed = stored.then((copy) => {
      expect(copy).toBeInstanceOf(ReadableStream);
      abandon(new Error("the cache refused it"));
    });
    expect(await bytesOf(sent)).toEqual(bytes);
    await streamed;
  });

  it("errors the body and leaves no copy when the answer fails, on either side of the limit", async () => {
    for (const limit of [1000, 30]) {
      const { body } = answer(10, 10, 6);
      const { sent, stored } = storedCopy(body, { limit });
      const copy = stored.then((s): Promise<Uint8Array | "none"> => (s === undefined ? Promise.resolve("none") : bytesOf(s)));
      await expect(bytesOf(sent)).rejects.toThrow("storage fault");
      if (limit === 1000) expect(await copy).toBe("none");
      else await expect(copy).rejects.toThrow();
    }
  });
});
