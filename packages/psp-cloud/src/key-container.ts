// Local key container, the `dilute_encryption_key` scheme.
import { nodeCrypto } from './builtins.js';
import { CloudError } from './errors.js';

export const KEY_CONTAINER_BYTES = 1024;
export const KEY_CONTAINER_KEY_BYTES = 32;
export const KEY_CONTAINER_MARKER = 0xaa;
/** DE AD BE EF 20 20 at 0x3FA..0x3FF. */
export const KEY_CONTAINER_MAGIC: readonly number[] = [0xde, 0xad, 0xbe, 0xef, 0x20, 0x20];
export const KEY_CONTAINER_MAGIC_OFFSET = 0x3fa;

/** Offset of the marker before key byte i: `i * 0x20 + (i & 7)`; the key byte follows it. */
export function keyContainerOffset(i: number): number {
  return i * 0x20 + (i & 7);
}

/** Hides a 32-byte key in 1024 bytes of random data. `random` is injectable for fixed vectors. */
export function encodeKeyContainer(
  key: Uint8Array,
  random: (n: number) => Uint8Array = nodeCrypto().randomBytes,
): Uint8Array {
  if (!(key instanceof Uint8Array) || key.length !== KEY_CONTAINER_KEY_BYTES) {
    throw new CloudError('CLOUD_KEY_LENGTH', `the key must be ${KEY_CONTAINER_KEY_BYTES} bytes`);
  }
  const out = new Uint8Array(KEY_CONTAINER_BYTES);
  const fill = random(KEY_CONTAINER_BYTES);
  if (fill.length !== KEY_CONTAINER_BYTES)
    throw new CloudError('CLOUD_OPTIONS', 'random() returned a short buffer');
  out.set(fill);
  for (let i = 0; i < KEY_CONTAINER_KEY_BYTES; i++) {
    const off = keyContainerOffset(i);
    out[off] = KEY_CONTAINER_MARKER;
    out[off + 1] = key[i]!;
    out[off + 2] = KEY_CONTAINER_MARKER;
  }
  out.set(KEY_CONTAINER_MAGIC, KEY_CONTAINER_MAGIC_OFFSET);
  return out;
}

/** Recovers the 32-byte key: checks the size, the magic and every 0xAA marker pair. */
export function decodeKeyContainer(bytes: Uint8Array): Uint8Array {
  if (!(bytes instanceof Uint8Array) || bytes.length !== KEY_CONTAINER_BYTES) {
    throw new CloudError(
      'CLOUD_KEY_CONTAINER_SIZE',
      `a key container is exactly ${KEY_CONTAINER_BYTES} bytes, got ${bytes?.length ?? 'none'}`,
    );
  }
  for (let j = 0; j < KEY_CONTAINER_MAGIC.length; j++) {
    if (bytes[KEY_CONTAINER_MAGIC_OFFSET + j] !== KEY_CONTAINER_MAGIC[j]) {
      throw new CloudError(
        'CLOUD_KEY_CONTAINER_MAGIC',
        'the key container has no DEADBEEF 2020 magic at 0x3FA',
      );
    }
  }
  const key = new Uint8Array(KEY_CONTAINER_KEY_BYTES);
  for (let i = 0; i < KEY_CONTAINER_KEY_BYTES; i++) {
    const off = keyContainerOffset(i);
    if (bytes[off] !== KEY_CONTAINER_MARKER || bytes[off + 2] !== KEY_CONTAINER_MARKER) {
      throw new CloudError(
        'CLOUD_KEY_CONTAINER_MARKER',
        `key byte ${i}: 0xAA markers missing at offset ${off}`,
      );
    }
    key[i] = bytes[off + 1]!;
  }
  return key;
}
