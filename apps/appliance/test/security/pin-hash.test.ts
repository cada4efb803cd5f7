import { pbkdf2Sync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import { createPinRecord } from '@waved/psk';
import { afterEach, describe, expect, it } from 'vitest';
import { createLowPriorityPinHash, type LowPriorityPinHash } from '../../src/adapters/system/pin-hash.js';
import { createPinRecordAsync, threadPoolPinHash, verifyPinAsync } from '../../src/domain/security/pin.js';

/** The nice value of each thread of this process (/proc/self/task/<tid>/stat, field 19). */
function threadNices(): number[] {
  return fs.readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return [Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
    } catch {
      return []; // the thread ended while we looked
    }
  });
}
const at19 = () => threadNices().filter((n) => n === 19).length;

const until = async (ok: () => boolean, ms = 5000) => {
  const end = Date.now() + ms;
  while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 10));
  return ok();
};

describe('PIN hashing on a thread of its own at nice 19 (createLowPriorityPinHash)', () => {
  let hash: LowPriorityPinHash;
  afterEach(async () => {
    await hash?.close();
  });

  it('gives the bytes of PBKDF2-HMAC-SHA256, as the thread pool does', async () => {
    hash = createLowPriorityPinHash();
    for (const [pin, salt, n] of [
      ['0000', 'salt-salt-salt-1', 1000],
      ['482913', 'another salt 16b', 20_000],
    ] as const) {
      const expected = pbkdf2Sync(pin, salt, n, 32, 'sha256');
      const got = await hash(Buffer.from(pin), Buffer.from(salt), n);
      expect(got.equals(expected)).toBe(true);
      expect((await threadPoolPinHash(Buffer.from(pin), Buffer.from(salt), n)).equals(expected)).toBe(true);
    }
  });

  it('checks and records PINs: the right one passes, a wrong one does not, records interoperate with @waved/psk', async () => {
    hash = createLowPriorityPinHash();
    const record = createPinRecord('4821', { iterations: 2000 });
    expect(await verifyPinAsync('4821', record, hash)).toBe(true);
    expect(await verifyPinAsync('4822', record, hash)).toBe(false);
    const made = await createPinRecordAsync('135790', { iterations: 2000, hash });
    expect(await verifyPinAsync('135790', made)).toBe(true);
    expect(await verifyPinAsync('135791', made, hash)).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'lowers only its own thread to nice 19; the main thread keeps its priority',
    async () => {
      const before = os.getPriority();
      const baseline = at19();
      hash = createLowPriorityPinHash();
      await hash(Buffer.from('1234'), Buffer.from('s'.repeat(16)), 1000);
      expect(at19()).toBe(baseline + 1);
      expect(os.getPriority()).toBe(before);
    },
  );

  it.runIf(process.platform === 'linux')(
    'ends its thread when idle and starts it again for the next hash',
    async () => {
      const baseline = at19();
      hash = createLowPriorityPinHash({ idleMs: 50 });
      await hash(Buffer.from('1234'), Buffer.from('s'.repeat(16)), 1000);
      expect(await until(() => at19() === baseline)).toBe(true);
      const again = await hash(Buffer.from('1234'), Buffer.from('s'.repeat(16)), 1000);
      expect(again.equals(pbkdf2Sync('1234', 's'.repeat(16), 1000, 32, 'sha256'))).toBe(true);
    },
  );

  it('a hash sent while the idle thread is still ending goes to a new thread and succeeds', async () => {
    hash = createLowPriorityPinHash({ idleMs: 1 });
    const salt = Buffer.from('s'.repeat(16));
    const want = pbkdf2Sync('1234', 's'.repeat(16), 1000, 32, 'sha256');
    for (let i = 0; i < 20; i++) {
      expect((await hash(Buffer.from('1234'), salt, 1000)).equals(want)).toBe(true);
      // the idle timer has fired: the thread is being terminated, its exit not yet reported
      await new Promise((r) => setTimeout(r, 2 + (i % 4)));
    }
  });

  it('hashes one at a time, in order, and every caller gets its own digest', async () => {
    hash = createLowPriorityPinHash();
    const pins = ['1111', '2222', '3333', '4444', '5555', '6666'];
    const got = await Promise.all(pins.map((p) => hash(Buffer.from(p), Buffer.from('s'.repeat(16)), 3000)));
    got.forEach((d, i) => {
      expect(d.equals(pbkdf2Sync(pins[i] as string, 's'.repeat(16), 3000, 32, 'sha256'))).toBe(true);
    });
  });

  it('close() during a hash rejects it with APPLIANCE_PIN_HASH; a bad argument is a clear error, not a crash', async () => {
    hash = createLowPriorityPinHash();
    const long = hash(Buffer.from('1234'), Buffer.from('s'.repeat(16)), 50_000_000);
    await new Promise((r) => setTimeout(r, 50));
    await hash.close();
    await expect(long).rejects.toMatchObject({ code: 'APPLIANCE_PIN_HASH' });
    await expect(hash(Buffer.from('1234'), Buffer.from('s'.repeat(16)), -1)).rejects.toMatchObject({
      code: 'APPLIANCE_PIN_HASH',
    });
    // and the thread still works after that
    const ok = await hash(Buffer.from('1234'), Buffer.from('s'.repeat(16)), 1000);
    expect(ok.length).toBe(32);
  });

  it('a PinHash that gives the wrong number of bytes is refused, never compared', async () => {
    const short = async () => Buffer.alloc(16);
    const record = createPinRecord('4821', { iterations: 1000 });
    await expect(verifyPinAsync('4821', record, short)).rejects.toMatchObject({ code: 'APPLIANCE_PIN_HASH' });
    await expect(createPinRecordAsync('4821', { iterations: 1000, hash: short })).rejects.toMatchObject({
      code: 'APPLIANCE_PIN_HASH',
    });
  });
});
