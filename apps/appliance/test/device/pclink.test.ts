import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import { createPinRecord } from '@waved/psk';
import { needs, tempDir } from '@waved/test-lab';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceApp } from '../../src/domain/device/app.js';
import {
  decryptPcLinkFrame,
  encryptPcLinkFrame,
  slaveVerifyDevPasswd,
} from '../../src/domain/device/pclink.js';
import { createAttemptLimiter } from '../../src/domain/security/attempts.js';
import { type Harness, startHarness } from './helpers.js';

const lab = needs({ peers: ['openssl'] });

/** AES-128-ECB without padding, computed by openssl, not by the code under test. */
function opensslEcb(key: Buffer, data: Buffer): Buffer {
  return execFileSync('openssl', ['enc', '-aes-128-ecb', '-nopad', '-K', key.toString('hex')], {
    input: data,
  });
}

lab.describe('PC Link frames: AES-128-ECB test vectors from openssl', () => {
  it('matches FIPS-197 appendix C.1 and openssl on random keys and frames', () => {
    // FIPS-197 C.1 (AES-128)
    const key = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
    const plain = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    expect(encryptPcLinkFrame(key, plain).toString('hex')).toBe('69c4e0d86a7b0430d8cdb78070b4c55a');
    for (let i = 0; i < 4; i++) {
      const k = crypto.randomBytes(16);
      const frame = crypto.randomBytes(16 * (i + 1));
      const expected = opensslEcb(k, frame);
      expect(encryptPcLinkFrame(k, frame).equals(expected)).toBe(true);
      expect(decryptPcLinkFrame(k, expected).equals(frame)).toBe(true);
    }
  });

  it('leaks equal blocks as ECB does (no IV, no chaining)', () => {
    const k = crypto.randomBytes(16);
    const block = crypto.randomBytes(16);
    const out = encryptPcLinkFrame(k, Buffer.concat([block, block]));
    expect(out.subarray(0, 16).equals(out.subarray(16))).toBe(true);
  });
});

describe('PC Link input checks', () => {
  it('takes a key of exactly 16 bytes and block-aligned frames only', () => {
    const frame = Buffer.alloc(32);
    for (const n of [0, 15, 17, 24, 32]) {
      expect(() => encryptPcLinkFrame(Buffer.alloc(n), frame)).toThrow(
        expect.objectContaining({ code: 'PCLINK_KEY_LENGTH' }),
      );
    }
    for (const n of [1, 15, 17, 31]) {
      expect(() => encryptPcLinkFrame(Buffer.alloc(16), Buffer.alloc(n))).toThrow(
        expect.objectContaining({ code: 'PCLINK_BLOCK_ALIGNMENT' }),
      );
      expect(() => decryptPcLinkFrame(Buffer.alloc(16), Buffer.alloc(n))).toThrow(
        expect.objectContaining({ code: 'PCLINK_BLOCK_ALIGNMENT' }),
      );
    }
  });
});

describe('slave_verify_dev_passwd against the settings PIN', () => {
  const dir = tempDir('device-pclink-');
  let h: Harness;
  let app: DeviceApp;
  let pages = 0;
  beforeAll(async () => {
    h = await startHarness(dir.path);
    app = await h.app({ showVerificationPage: () => void pages++ });
  });
  afterAll(async () => {
    await app?.stop();
    await h?.close();
    dir.remove();
  });

  it('an empty password sets result 0 and opens the verification page; others are checked against the PIN record', async () => {
    h.settings.security.device_password = createPinRecord('482916', { iterations: 1000 });
    expect(await app.verifyDevicePassword('')).toEqual({ result: 0, uiVerification: true });
    expect(pages).toBe(1);
    expect(await app.verifyDevicePassword('482916')).toEqual({ result: 1, uiVerification: false });
    expect(await app.verifyDevicePassword('482917')).toMatchObject({ result: 0, reason: 'wrong-password' });
    expect(await app.verifyDevicePassword('4829160')).toMatchObject({ result: 0 });
    expect(pages).toBe(1);
    h.settings.security.device_password = '';
    expect(await app.verifyDevicePassword('1234')).toMatchObject({ result: 0, reason: 'no-password-set' });
    expect(
      await slaveVerifyDevPasswd('1234', 'garbage$record', () => {}, createAttemptLimiter()),
    ).toMatchObject({ result: 0 });
  });
});
