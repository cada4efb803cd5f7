import { pbkdf2Sync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPinRecord, normalizeStoredPin, PskError, parsePinRecord, verifyPin } from '../src/index.js';

const fast = { iterations: 1000 };

describe('PIN records', () => {
  it('round-trips and never contains the digits', () => {
    const record = createPinRecord('482913', fast);
    expect(record).toMatch(/^pin1\$6\$1000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(record).not.toContain('482913');
    expect(verifyPin('482913', record)).toBe(true);
    expect(verifyPin('482914', record)).toBe(false);
    expect(verifyPin('48291', record)).toBe(false);
  });

  it('uses the default 100 000 iterations and a fresh salt', () => {
    const a = createPinRecord('1234');
    const b = createPinRecord('1234');
    expect(parsePinRecord(a).iterations).toBe(100_000);
    expect(a).not.toBe(b);
  });

  it('matches an independently computed PBKDF2-HMAC-SHA256 record', () => {
    const salt = Buffer.from('00112233445566778899aabbccddeeff', 'hex');
    const hash = pbkdf2Sync('0420', salt, 2000, 32, 'sha256').toString('base64');
    const record = `pin1$4$2000$${salt.toString('base64')}$${hash}`;
    expect(createPinRecord('0420', { iterations: 2000, salt })).toBe(record);
    expect(verifyPin('0420', record)).toBe(true);
  });

  it('detects a tampered record', () => {
    const record = createPinRecord('1234', fast);
    const parts = record.split('$');
    const hash = Buffer.from(parts[4]!, 'base64');
    hash[0]! ^= 1;
    parts[4] = hash.toString('base64');
    expect(verifyPin('1234', parts.join('$'))).toBe(false);
    parts[2] = '1001';
    expect(verifyPin('1234', parts.join('$'))).toBe(false);
  });

  it.each([
    ['pin2$4$1000$AAAAAAAAAAA=$AAAA', 'PSK_PIN_RECORD_VERSION'],
    ['pin1$7$1000$AAAAAAAAAAA=$AAAA', 'PSK_PIN_RECORD_FORMAT'],
    ['pin1$3$1000$AAAAAAAAAAA=$AAAA', 'PSK_PIN_RECORD_FORMAT'],
    ['pin1$4$10$AAAAAAAAAAA=$AAAA', 'PSK_PIN_RECORD_FORMAT'],
    ['pin1$4$1000$AAAAAAAAAAA=$AAAA', 'PSK_PIN_RECORD_FORMAT'],
    ['pin1$4$1000$!!$AAAA', 'PSK_PIN_RECORD_FORMAT'],
    ['pin1$4$1000', 'PSK_PIN_RECORD_FORMAT'],
  ])('rejects %s with %s', (record, code) => {
    expect(() => parsePinRecord(record)).toThrow(expect.objectContaining({ code }));
  });

  it.each(['123', '1234567', '12a4', ' 1234', '١٢٣٤'])('refuses to create a record for %j', (pin) => {
    expect(() => createPinRecord(pin)).toThrow(PskError);
  });
});

describe('normalizeStoredPin', () => {
  it('hashes a plain PIN, keeps a record, drops anything else without echoing it', () => {
    const hashed = normalizeStoredPin('0042', fast);
    expect(hashed.action).toBe('hashed');
    if (hashed.action !== 'hashed') return;
    expect(verifyPin('0042', hashed.record)).toBe(true);
    expect(normalizeStoredPin(hashed.record)).toEqual({ action: 'keep', record: hashed.record });
    for (const bad of ['123', '1234567', 'abcd', 'pin1$4$x$y$z', 1234, null, { pin: 1 }]) {
      const r = normalizeStoredPin(bad);
      expect(r.action).toBe('drop');
      if (r.action === 'drop' && typeof bad === 'string') expect(r.reason).not.toContain(bad);
    }
  });
});
