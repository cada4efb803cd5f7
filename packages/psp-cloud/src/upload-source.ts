import { sha256Hex } from './signature.js';

/** A body to upload, read as a stream; `sha256` and `size` are needed up front for the signature. */
export interface UploadSource {
  size: number;
  /** lowercase hex SHA-256 of the whole content */
  sha256: string;
  /** A fresh stream of the content; called again for each attempt. */
  open(): ReadableStream<Uint8Array>;
}

/** An upload source over bytes already in memory (streamed in 64 KiB chunks). */
export function bytesUploadSource(bytes: Uint8Array, chunkSize = 64 * 1024): UploadSource {
  return {
    size: bytes.length,
    sha256: sha256Hex(bytes),
    open: () => {
      let at = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (at >= bytes.length) {
            controller.close();
            return;
          }
          controller.enqueue(bytes.slice(at, at + chunkSize));
          at += chunkSize;
        },
      });
    },
  };
}
