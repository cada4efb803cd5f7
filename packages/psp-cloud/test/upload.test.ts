// Resumable meeting-file uploads through a TCP proxy: a slow link, a cut in the middle of a chunk, a
// lost acknowledgement, a link that stops carrying bytes, and a link that never comes back.
import crypto from 'node:crypto';
import fs from 'node:fs';
import { tempDir } from '@waved/test-lab';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bytesUploadSource,
  createCloudClient,
  createMemoryCredentialStore,
  fileUploadSource,
} from '../src/index.js';
import { type CloudServer, createCloudServer, type ListeningServer } from '../src/server.js';
import { fakeClock } from './helpers.js';
import { type ProxyOptions, startProxy } from './throttle-proxy.js';

const MiB = 1024 * 1024;
const SERIAL = 'PSP-UP-1';
const SECRET = 'factory-up';

/** The reference server with uploads on disk, the offsets of every chunk request it saw, and a proxy in front. */
async function rig(proxy: Omit<ProxyOptions, 'target'>, limits = {}) {
  const dir = tempDir('psp-cloud-up-');
  const offsets: number[] = [];
  const server: CloudServer = createCloudServer({
    devices: [{ serial: SERIAL, secret: SECRET }],
    uploadDir: dir.join('server'),
    limits,
    intercept: ({ route, pathAndQuery }) => {
      if (route === 'uploadChunk')
        offsets.push(Number(new URL(pathAndQuery, 'http://x').searchParams.get('offset')));
      return undefined;
    },
  });
  const listening: ListeningServer = await server.listen();
  const p = await startProxy({ target: listening.port, ...proxy });
  return {
    dir,
    server,
    offsets,
    proxy: p,
    client(extra: Partial<Parameters<typeof createCloudClient>[0]> = {}) {
      return createCloudClient({
        baseUrl: p.url,
        credentials: createMemoryCredentialStore({ serial: SERIAL, registrationSecret: SECRET }),
        firmwareVersion: '1.0.0',
        ...extra,
      });
    },
    async close() {
      await p.close();
      await listening.close();
      dir.remove();
    },
  };
}

function randomFile(path: string, bytes: number): string {
  const fd = fs.openSync(path, 'w');
  const hash = crypto.createHash('sha256');
  for (let left = bytes; left > 0; ) {
    const block = crypto.randomBytes(Math.min(left, MiB));
    hash.update(block);
    fs.writeSync(fd, block);
    left -= block.length;
  }
  fs.closeSync(fd);
  return hash.digest('hex');
}

const sha256File = (path: string) => crypto.createHash('sha256').update(fs.readFileSync(path)).digest('hex');

describe('a 200 MB meeting file over a link of about 2 MB/s', () => {
  it('completes: the stall timeout allows a slow transfer that a whole-request cap would kill', {
    timeout: 400_000,
  }, async () => {
    const r = await rig({ bytesPerSecond: 2_000_000 });
    try {
      const size = 200_000_000;
      const sha256 = randomFile(r.dir.join('meeting.wav'), size);
      // a 4 MiB chunk takes about 2 s on this link: more than timeoutMs, far less than the stall timeout
      const client = r.client({ timeoutMs: 1_000, stallTimeoutMs: 10_000 });
      await client.register();
      const started = Date.now();
      const result = await client.uploadMeetingFile({
        meetingId: 'm-long',
        fileName: 'meeting.wav',
        source: await fileUploadSource(r.dir.join('meeting.wav')),
      });
      const seconds = (Date.now() - started) / 1000;
      await client.close();
      expect(result).toMatchObject({ size, sha256, resumedFrom: 0 });
      const [stored] = r.server.uploads();
      expect(sha256File(stored!.path!)).toBe(sha256);
      expect(r.server.uploadStats()).toMatchObject({
        bytes: size,
        chunks: Math.ceil(size / (4 * MiB)),
        misplaced: 0,
      });
      // the link really was slow: at 2 MB/s, 200 MB take at least 100 s
      expect(seconds).toBeGreaterThan(95);
      console.log(
        `200 MB upload over the throttled link: ${seconds.toFixed(1)} s, ${(size / seconds / 1e6).toFixed(2)} MB/s`,
      );
    } finally {
      await r.close();
    }
  });
});

describe('cuts and stalls', () => {
  const size = 24 * MiB + 12_345; // 7 chunks of 4 MiB, the last one short
  let data: Buffer;
  let sha256: string;
  beforeAll(() => {
    data = crypto.randomBytes(size);
    sha256 = crypto.createHash('sha256').update(data).digest('hex');
  });

  const stored = (r: Awaited<ReturnType<typeof rig>>) => fs.readFileSync(r.server.uploads()[0]!.path!);

  it('resumes from the last acknowledged chunk after a cut in the middle of a chunk', async () => {
    let cut = false;
    const r = await rig({
      decide: (dir, chunk, before) => {
        // the third chunk's body is on the wire: cut the link half-way through it
        if (dir === 'up' && !cut && before + chunk.length > 10 * MiB) {
          cut = true;
          return 'cut';
        }
        return undefined;
      },
    });
    try {
      const clock = fakeClock();
      const client = r.client({ clock });
      await client.register();
      const result = await client.uploadMeetingFile({
        meetingId: 'm',
        fileName: 'a.wav',
        source: bytesUploadSource(data),
      });
      await client.close();
      expect(cut).toBe(true);
      expect(result).toMatchObject({ size, sha256 });
      expect(r.offsets).toEqual([0, 4, 8, 8, 12, 16, 20, 24].map((m) => m * MiB));
      expect(clock.sleeps).toEqual([1000]);
      // each byte reached the file once: nothing appended twice, and the hash matches
      expect(r.server.uploadStats()).toMatchObject({ bytes: size, chunks: 7, misplaced: 0 });
      expect(crypto.createHash('sha256').update(stored(r)).digest('hex')).toBe(sha256);
    } finally {
      await r.close();
    }
  });

  it('continues where the server is when an acknowledgement was lost, without sending the chunk twice', async () => {
    let cut = false;
    const r = await rig({
      decide: (dir, chunk) => {
        // the server stored the third chunk; its answer never reaches the device
        if (dir === 'down' && !cut && chunk.includes(`"received":${12 * MiB}`)) {
          cut = true;
          return 'cut';
        }
        return undefined;
      },
    });
    try {
      const clock = fakeClock();
      const client = r.client({ clock });
      await client.register();
      const result = await client.uploadMeetingFile({
        meetingId: 'm',
        fileName: 'a.wav',
        source: bytesUploadSource(data),
      });
      await client.close();
      expect(cut).toBe(true);
      expect(result).toMatchObject({ size, sha256 });
      // the chunk at 8 MiB was offered again, refused with the server's offset, and the upload went on at 12 MiB
      expect(r.offsets).toEqual([0, 4, 8, 8, 12, 16, 20, 24].map((m) => m * MiB));
      expect(r.server.uploadStats()).toMatchObject({ bytes: size, chunks: 7, misplaced: 1 });
      expect(crypto.createHash('sha256').update(stored(r)).digest('hex')).toBe(sha256);
    } finally {
      await r.close();
    }
  });

  it('gives up on a link that stops carrying bytes after the stall timeout, not before, and resumes', async () => {
    let stalled = false;
    const r = await rig({
      decide: (dir, chunk, before) => {
        if (dir === 'up' && !stalled && before + chunk.length > 6 * MiB) {
          stalled = true;
          return 'drop';
        }
        return undefined;
      },
    });
    try {
      const clock = fakeClock();
      const client = r.client({ clock, stallTimeoutMs: 1_500 });
      await client.register();
      const started = Date.now();
      const result = await client.uploadMeetingFile({
        meetingId: 'm',
        fileName: 'a.wav',
        source: bytesUploadSource(data),
      });
      await client.close();
      expect(stalled).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_500);
      expect(result).toMatchObject({ size, sha256 });
      expect(r.offsets).toEqual([0, 4, 4, 8, 12, 16, 20, 24].map((m) => m * MiB));
      expect(r.server.uploadStats()).toMatchObject({ bytes: size, chunks: 7 });
    } finally {
      await r.close();
    }
  });

  it('stops after a bounded number of failures in a row, with backoff, and a later call resumes', async () => {
    let link: 'up' | 'down' | 'back' = 'up';
    const r = await rig({
      decide: (dir, _chunk, before) => {
        if (link === 'up' && dir === 'up' && before > 5 * MiB) link = 'down';
        return link === 'down' ? 'cut' : undefined;
      },
    });
    try {
      const clock = fakeClock();
      const client = r.client({ clock, upload: { retries: 3 } });
      await client.register();
      const source = bytesUploadSource(data);
      await expect(
        client.uploadMeetingFile({ meetingId: 'm', fileName: 'a.wav', source }),
      ).rejects.toMatchObject({
        code: 'CLOUD_UPLOAD_INCOMPLETE',
        message: expect.stringContaining(
          `stopped at ${4 * MiB} of ${size} bytes after 4 failed attempts in a row`,
        ),
      });
      expect(clock.sleeps).toEqual([1000, 2000, 4000]);
      // the link is back: the next call picks the upload up at the chunk the server holds
      link = 'back';
      r.offsets.length = 0;
      const next = await client.uploadMeetingFile({ meetingId: 'm', fileName: 'a.wav', source });
      await client.close();
      expect(next).toMatchObject({ size, sha256, resumedFrom: 4 * MiB });
      expect(r.offsets[0]).toBe(4 * MiB);
      expect(r.server.uploadStats()).toMatchObject({ bytes: size, chunks: 7 });
    } finally {
      await r.close();
    }
  });
});
