import { sha256Hex } from './signature.js';

/**
 * A file to upload in chunks: its size and SHA-256 are known up front (the server checks the whole
 * file against them), and any range can be read again to resume after a cut.
 */
export interface UploadSource {
  size: number;
  /** lowercase hex SHA-256 of the whole content */
  sha256: string;
  /** Reads `length` bytes at `offset`; exactly `length` unless the content ends first. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** An upload source over bytes already in memory. */
export function bytesUploadSource(bytes: Uint8Array): UploadSource {
  return {
    size: bytes.length,
    sha256: sha256Hex(bytes),
    read: async (offset, length) => bytes.subarray(offset, Math.min(bytes.length, offset + length)),
  };
}
