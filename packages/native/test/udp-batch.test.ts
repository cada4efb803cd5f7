// The batch UDP transport on its own (its DNS use is tested in @waved/captive-dns on both transports).
import dgram from 'node:dgram';
import { expect, it } from 'vitest';
import { closeUdpBatch, openUdpBatch, type UdpBatchHandle } from '../src/index.js';

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
