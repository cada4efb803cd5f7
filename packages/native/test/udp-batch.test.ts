// The batch UDP transport on its own (its DNS use is tested in @waved/captive-dns on both transports).
import dgram from 'node:dgram';
import { expect, it } from 'vitest';
import {
  closeUdpBatch,
  getSocketOptionInt,
  openUdpBatch,
  SOL_SOCKET,
  type UdpBatchHandle,
} from '../src/index.js';

it('answers every datagram of a burst from one recvmmsg batch with one sendmmsg, in order', async () => {
  let handle: UdpBatchHandle | null = null;
  const batches: number[] = [];
  handle = openUdpBatch('127.0.0.1', 0, (count) => {
    batches.push(count);
    const h = handle!;
    for (let i = 0; i < count; i++) {
      const length = h.meta.readInt32LE(i * 16);
      const reply = Buffer.concat([Buffer.from('re:'), h.inBytes.subarray(i * h.slot, i * h.slot + length)]);
      reply.copy(h.outBytes, i * h.slot);
      h.meta.writeInt32LE(reply.length, i * 16 + 12);
    }
  });
  expect(handle.batch).toBe(64);
  expect(handle.slot).toBe(4096);
  const client = dgram.createSocket('udp4');
  const replies: string[] = [];
  const done = new Promise<void>((resolve) =>
    client.on('message', (m) => {
      replies.push(m.toString());
      if (replies.length === 20) resolve();
    }),
  );
  await new Promise<void>((r) => client.bind(0, '127.0.0.1', r));
  for (let i = 0; i < 20; i++) client.send(`q${i}`, handle.port, '127.0.0.1');
  await done;
  expect(replies).toEqual([...Array(20).keys()].map((i) => `re:q${i}`));
  expect(batches.reduce((a, b) => a + b, 0)).toBe(20);
  closeUdpBatch(handle);
  closeUdpBatch(handle); // twice is harmless
  client.close();
});

it('a port in use is NATIVE_SYSCALL with EADDRINUSE and the address in the message', async () => {
  const taken = dgram.createSocket('udp4');
  await new Promise<void>((r) => taken.bind(0, '127.0.0.1', r));
  const port = taken.address().port;
  expect(() => openUdpBatch('127.0.0.1', port, () => {})).toThrow(
    expect.objectContaining({
      code: 'NATIVE_SYSCALL',
      systemCode: 'EADDRINUSE',
      message: expect.stringContaining(`127.0.0.1:${port}`),
    }),
  );
  taken.close();
});

it('sends a reply to the destination the callback wrote in its slot, not back to the source', async () => {
  const asker = dgram.createSocket('udp4');
  const other = dgram.createSocket('udp4');
  await Promise.all([asker, other].map((s) => new Promise<void>((r) => s.bind(0, '127.0.0.1', r))));
  const otherPort = other.address().port;
  let handle: UdpBatchHandle | null = null;
  handle = openUdpBatch('127.0.0.1', 0, (count) => {
    const h = handle!;
    for (let i = 0; i < count; i++) {
      h.outBytes.write('elsewhere', i * h.slot);
      h.meta.writeInt32LE(0x7f000001, i * 16 + 4); // 127.0.0.1, host order
      h.meta.writeInt32LE(otherPort, i * 16 + 8);
      h.meta.writeInt32LE(9, i * 16 + 12);
    }
  });
  const strays: string[] = [];
  asker.on('message', (m) => strays.push(m.toString()));
  const got = new Promise<string>((resolve) => other.once('message', (m) => resolve(m.toString())));
  asker.send('q', handle.port, '127.0.0.1');
  expect(await got).toBe('elsewhere');
  expect(strays).toEqual([]);
  closeUdpBatch(handle);
  asker.close();
  other.close();
});

it('sets SO_BROADCAST and SO_REUSEADDR when asked, and exposes the descriptor for other options', () => {
  const SO_REUSEADDR = 2;
  const SO_BROADCAST = 6;
  const plain = openUdpBatch('127.0.0.1', 0, () => {});
  expect(plain.fd).toBeGreaterThan(2);
  expect(getSocketOptionInt(plain.fd, SOL_SOCKET, SO_BROADCAST)).toBe(0);
  expect(getSocketOptionInt(plain.fd, SOL_SOCKET, SO_REUSEADDR)).toBe(0);
  const both = openUdpBatch('127.0.0.1', 0, () => {}, { broadcast: true, reuseAddr: true });
  expect(getSocketOptionInt(both.fd, SOL_SOCKET, SO_BROADCAST)).toBe(1);
  expect(getSocketOptionInt(both.fd, SOL_SOCKET, SO_REUSEADDR)).toBe(1);
  // two sockets on one port only with SO_REUSEADDR on both
  const again = openUdpBatch('127.0.0.1', both.port, () => {}, { reuseAddr: true });
  expect(again.port).toBe(both.port);
  for (const h of [plain, both, again]) closeUdpBatch(h);
});

/** Milliseconds the event loop counts as idle while it waits 100 ms for a timer. */
async function idleWhileWaiting(): Promise<number> {
  const before = performance.eventLoopUtilization();
  await new Promise((r) => setTimeout(r, 100));
  return performance.eventLoopUtilization(before).idle;
}

it('idleTimeMetrics: false stops the event loop counting idle time while open; close counts it again', async () => {
  const kept = openUdpBatch('127.0.0.1', 0, () => {}); // default: left as Node set them
  expect(await idleWhileWaiting()).toBeGreaterThan(20);
  const handle = openUdpBatch('127.0.0.1', 0, () => {}, { idleTimeMetrics: false });
  expect(await idleWhileWaiting()).toBe(0);
  closeUdpBatch(handle);
  expect(await idleWhileWaiting()).toBeGreaterThan(20);
  closeUdpBatch(kept);
});

it('with two transports that turned the metrics off, idle time is counted again only when both are closed', async () => {
  const first = openUdpBatch('127.0.0.1', 0, () => {}, { idleTimeMetrics: false });
  const second = openUdpBatch('127.0.0.1', 0, () => {}, { idleTimeMetrics: false });
  closeUdpBatch(first);
  expect(await idleWhileWaiting()).toBe(0);
  closeUdpBatch(first); // a second close changes nothing
  expect(await idleWhileWaiting()).toBe(0);
  closeUdpBatch(second);
  expect(await idleWhileWaiting()).toBeGreaterThan(20);
});
