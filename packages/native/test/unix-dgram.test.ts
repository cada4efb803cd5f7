// Unix datagram sockets: both ends ours, then a real peer (socat) on the other end.
import fs from 'node:fs';
import { needs, startPeer, tempDir, waitFor, waitForPath } from '@waved/test-lab';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createUnixDatagramSocket, isNativeError, type UnixDatagramSocket } from '../src/index.js';

const dir = tempDir('native-unix-');
const open: UnixDatagramSocket[] = [];
const socket = (options?: { maxMessageBytes?: number }) => {
  const s = createUnixDatagramSocket(options);
  open.push(s);
  return s;
};
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(() => dir.remove());

const next = (s: UnixDatagramSocket) =>
  new Promise<{ data: Buffer; from: string }>((resolve) => {
    const off = s.on('message', (data, from) => {
      off();
      resolve({ data, from });
    });
  });

describe('between two sockets of ours', () => {
  it('a datagram sent to a bound path arrives byte for byte with the sender path', async () => {
    const server = socket();
    const client = socket();
    server.bind(dir.join('server.sock'));
    client.bind(dir.join('client.sock'));
    const got = next(server);
    const payload = Buffer.from([0, 1, 2, 0xff, 0x0a, 0x00]);
    expect(client.send(payload, dir.join('server.sock'))).toBe(payload.length);
    const { data, from } = await got;
    expect(data).toEqual(payload);
    expect(from).toBe(dir.join('client.sock'));
    // and the reply goes back to that path
    const reply = next(client);
    server.send('OK\n', from);
    expect((await reply).data.toString()).toBe('OK\n');
  });

  it('connect() sets the default destination, as sd_notify does with NOTIFY_SOCKET', async () => {
    const server = socket();
    server.bind(`@waved-native-test-${process.pid}`);
    const got = next(server);
    const notifier = socket();
    notifier.connect(`@waved-native-test-${process.pid}`);
    notifier.send('READY=1\nSTATUS=serving\n');
    const { data, from } = await got;
    expect(data.toString()).toBe('READY=1\nSTATUS=serving\n');
    expect(from).toBe(''); // an unbound sender has no address
  });

  it('a burst of 500 datagrams arrives complete and in order', async () => {
    const server = socket();
    const client = socket();
    server.bind(dir.join('burst.sock'));
    const seen: number[] = [];
    server.on('message', (data) => seen.push(data.readUInt32BE(0)));
    for (let i = 0; i < 500; i++) {
      const b = Buffer.alloc(64);
      b.writeUInt32BE(i);
      for (;;) {
        try {
          client.send(b, dir.join('burst.sock'));
          break;
        } catch (error) {
          if (!isNativeError(error, 'NATIVE_SYSCALL') || error.systemCode !== 'EAGAIN') throw error;
          await new Promise((r) => setTimeout(r, 1)); // the receiver's queue is full: let it read
        }
      }
    }
    await waitFor(() => seen.length === 500, { timeoutMs: 10_000 });
    expect(seen).toEqual([...Array(500).keys()]);
  });

  it('a datagram longer than maxMessageBytes is dropped with an error event; the next one arrives', async () => {
    const server = socket({ maxMessageBytes: 16 });
    const client = socket();
    server.bind(dir.join('small.sock'));
    const errors: string[] = [];
    server.on('error', (e) => errors.push(`${e.code}: ${e.message}`));
    const got = next(server);
    client.send(Buffer.alloc(17, 1), dir.join('small.sock'));
    client.send('short', dir.join('small.sock'));
    expect((await got).data.toString()).toBe('short');
    expect(errors).toEqual(['NATIVE_ARGUMENT: dropped a datagram longer than maxMessageBytes (16)']);
  });
});

describe('failures are NativeErrors with the errno name', () => {
  it('sending to a path nobody listens on: ENOENT, then ECONNREFUSED once the socket file is stale', () => {
    const client = socket();
    expect(() => client.send('PING', dir.join('nobody.sock'))).toThrow(
      expect.objectContaining({ code: 'NATIVE_SYSCALL', systemCode: 'ENOENT', syscall: 'send' }),
    );
    const gone = socket();
    gone.bind(dir.join('stale.sock'));
    gone.close();
    expect(fs.existsSync(dir.join('stale.sock'))).toBe(true);
    expect(() => client.send('PING', dir.join('stale.sock'))).toThrow(
      expect.objectContaining({ code: 'NATIVE_SYSCALL', systemCode: 'ECONNREFUSED' }),
    );
  });

  it('binding a path that exists: EADDRINUSE', () => {
    const a = socket();
    a.bind(dir.join('taken.sock'));
    expect(() => socket().bind(dir.join('taken.sock'))).toThrow(
      expect.objectContaining({ code: 'NATIVE_SYSCALL', systemCode: 'EADDRINUSE', syscall: 'bind' }),
    );
  });

  it('a path over 107 bytes, an empty path or a NUL inside: NATIVE_ARGUMENT, nothing sent', () => {
    const s = socket();
    expect(() => s.bind(`/tmp/${'x'.repeat(103)}`)).toThrow(
      expect.objectContaining({ code: 'NATIVE_ARGUMENT' }),
    );
    expect(() => s.send('x', '')).toThrow(expect.objectContaining({ code: 'NATIVE_ARGUMENT' }));
    expect(() => s.send('x', '/tmp/a\0b')).toThrow(expect.objectContaining({ code: 'NATIVE_ARGUMENT' }));
  });

  it('after close(): NATIVE_CLOSED, and close() again is harmless', () => {
    const s = socket();
    s.close();
    s.close();
    expect(s.fd).toBe(-1);
    expect(() => s.send('x', dir.join('any.sock'))).toThrow(
      expect.objectContaining({ code: 'NATIVE_CLOSED' }),
    );
  });

  it('close() while receiving stops the watch: the process can exit', async () => {
    const s = socket();
    s.bind(dir.join('closing.sock'));
    s.on('message', () => {});
    s.close();
    await new Promise((r) => setTimeout(r, 10));
    expect(s.fd).toBe(-1);
  });
});

needs({ peers: ['socat'] }).describe('with socat on the other end', () => {
  it('socat answers a datagram back to our bound path (the wpa_supplicant control pattern)', async () => {
    const server = dir.join('socat-echo.sock');
    const peer = startPeer('socat', [`UNIX-RECVFROM:${server},fork`, 'SYSTEM:tr a-z A-Z']);
    try {
      await waitForPath(server, 5_000);
      const client = socket();
      client.bind(dir.join('socat-client.sock'));
      const got = next(client);
      client.send('ping from waved', server);
      const { data, from } = await got;
      expect(data.toString()).toBe('PING FROM WAVED');
      expect(from).toBe(server);
    } finally {
      await peer.stop();
    }
  });

  it('socat receives what we send to a path, as systemd receives sd_notify', async () => {
    const server = dir.join('socat-recv.sock');
    const out = dir.join('socat-recv.out');
    const peer = startPeer('sh', ['-c', `exec socat -u UNIX-RECV:${server} CREATE:${out}`]);
    try {
      await waitForPath(server, 5_000);
      const notifier = socket();
      notifier.connect(server);
      notifier.send('READY=1\n');
      await waitFor(() => fs.existsSync(out) && fs.readFileSync(out, 'utf8') === 'READY=1\n', {
        timeoutMs: 5_000,
      });
    } finally {
      await peer.stop();
    }
  });
});
