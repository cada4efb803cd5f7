// Without the native addon (no prebuild of @waved/native for this platform): 'auto' falls back to
// node:dgram and still answers; 'batch' refuses with CAPTIVE_DNS_TRANSPORT and the reason.
import { afterAll, expect, it, vi } from 'vitest';
import { createCaptiveDns, nativeUdpTransport } from '../src/index.js';
import { query, udpExchange } from './helpers.js';

vi.mock('../src/native.js', () => ({
  loadNativeUdp: () => ({
    binding: null,
    reason:
      '@waved/native: no prebuild for darwin-arm64; prebuilds exist for linux x64, arm64 and arm with glibc',
  }),
}));

const server = createCaptiveDns({ answer: '192.168.2.1', port: 0 });
afterAll(() => server.close());

it('reports the native transport unavailable, with the reason', () => {
  expect(nativeUdpTransport()).toEqual({
    available: false,
    reason: expect.stringContaining('no prebuild for darwin-arm64'),
  });
});

it("'auto' falls back to node:dgram and answers", async () => {
  expect(server.transport).toBe('dgram');
  const { port } = await server.listen();
  const [reply] = await udpExchange(port, [query('fallback.test', 'A', { id: 42 })]);
  expect(reply!.readUInt16BE(0)).toBe(42);
  expect(server.stats()).toMatchObject({ udpQueries: 1, replies: 1 });
});

it("'batch' is CAPTIVE_DNS_TRANSPORT, naming the reason", () => {
  expect(() => createCaptiveDns({ answer: '192.168.2.1', transport: 'batch' })).toThrow(
    expect.objectContaining({
      code: 'CAPTIVE_DNS_TRANSPORT',
      message: expect.stringContaining('no prebuild for darwin-arm64'),
    }),
  );
});
