/**
 * A real S3-compatible server for the publish tests: s3rver on loopback, over real HTTP, its
 * objects in a folder, so it can be stopped mid-upload and started again on the same port
 * with what it held. s3rver checks the access key id (only `S3RVER` is known) but not the
 * SigV4 signature itself, and computes an MD5 ETag of what it stores, as R2 and S3 do.
 */
import type { Server } from "node:http";
import { createRequire } from "node:module";

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  on(event: "event", listener: (event: { Records: Array<{ eventName: string; s3: { object: { key: string } } }> }) => void): void;
  httpServer?: Server;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  configureBuckets: Array<{ name: string }>;
}) => S3rverInstance;

const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;

export const S3_CREDENTIALS = { AWS_ACCESS_KEY_ID: "S3RVER", AWS_SECRET_ACCESS_KEY: "S3RVER" };

export interface S3Server {
  endpoint: string;
  port: number;
  /** Keys written since the start (PUTs the server completed). */
  onPut(listener: (key: string) => void): void;
  /** Stops at once: no new connections, and every open one cut (uploads in flight included). */
  stop(): Promise<void>;
}

export async function startS3(directory: string, bucket: string, port = 0): Promise<S3Server> {
  const server = new S3rver({ address: "127.0.0.1", port, silent: true, directory, configureBuckets: [{ name: bucket }] });
  const address = await server.run();
  let stopped: Promise<void> | undefined;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    port: address.port,
    onPut(listener) {
      server.on("event", (event) => {
        for (const record of event.Records) if (record.eventName.startsWith("ObjectCreated")) listener(record.s3.object.key);
      });
    },
    stop() {
      stopped ??= (async () => {
        const closing = server.close();
        server.httpServer?.closeAllConnections();
        await closing;
      })();
      return stopped;
    },
  };
}
