import { expect, it } from 'vitest';
import {
  CaptiveDnsError,
  type CaptiveDnsErrorCode,
  createCaptiveDns,
  createCaptiveDnsResponder,
  isCaptiveDnsError,
} from '../src/index.js';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "CAPTIVE_DNS_POLICY",
      "CaptiveDnsError",
      "DOH_CANARY",
      "EDNS_UDP_SIZE",
      "createCaptiveDns",
      "createCaptiveDnsResponder",
      "isCaptiveDnsError",
      "nativeUdpTransport",
    ]
  `);
});

// Every code once (the `satisfies` fails to compile when a code is added to the type and not here).
const codes = Object.keys({
  CAPTIVE_DNS_OPTIONS: true,
  CAPTIVE_DNS_LISTEN: true,
  CAPTIVE_DNS_STATE: true,
  CAPTIVE_DNS_TRANSPORT: true,
} satisfies Record<CaptiveDnsErrorCode, true>) as CaptiveDnsErrorCode[];

it.each(codes.map((c) => [c]))(
  'CaptiveDnsError carries code %s and its cause; isCaptiveDnsError tells it apart',
  (code) => {
    const cause = new Error('inner');
    const e = new CaptiveDnsError(code, 'msg', { cause });
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('CaptiveDnsError');
    expect(e.code).toBe(code);
    expect(e.code).toMatch(/^CAPTIVE_DNS_/);
    expect(e.cause).toBe(cause);
    expect(isCaptiveDnsError(e)).toBe(true);
    expect(isCaptiveDnsError(e, code)).toBe(true);
    expect(
      isCaptiveDnsError(
        e,
        codes.find((c) => c !== code),
      ),
    ).toBe(false);
    expect(isCaptiveDnsError(Object.assign(new Error('msg'), { code }))).toBe(false);
  },
);

it.each([
  ['an IPv6 answer', { answer: '::1' }],
  ['a host name as answer', { answer: 'portal.local' }],
  ['a missing answer', {}],
  ['a negative ttl', { answer: '192.168.2.1', ttl: -1 }],
  ['a ttl above 2^31-1 (RFC 2181 §8)', { answer: '192.168.2.1', ttl: 2 ** 31 }],
  ['a fractional ttl', { answer: '192.168.2.1', ttl: 1.5 }],
])('refuses %s with CAPTIVE_DNS_OPTIONS', (_, options) => {
  expect(() => createCaptiveDnsResponder(options as never)).toThrow(
    expect.objectContaining({ code: 'CAPTIVE_DNS_OPTIONS' }),
  );
});

it.each([
  ['a host name to bind', { address: 'localhost' }],
  ['port 70000', { port: 70_000 }],
  ['a zero connection cap', { tcp: { maxConnections: 0 } }],
  ['a zero per-source connection cap', { tcp: { maxConnectionsPerSource: 0 } }],
  ['a fractional per-source connection cap', { tcp: { maxConnectionsPerSource: 2.5 } }],
  ['a zero rate', { rateLimit: { queriesPerSecond: 0 } }],
  ['a negative rate', { rateLimit: { queriesPerSecond: -5 } }],
  ['a burst below one query', { rateLimit: { burst: 0.5 } }],
  ['a NaN source cap', { rateLimit: { maxSources: Number.NaN } }],
])('createCaptiveDns refuses %s with CAPTIVE_DNS_OPTIONS', (_, extra) => {
  expect(() => createCaptiveDns({ answer: '192.168.2.1', ...extra })).toThrow(
    expect.objectContaining({ code: 'CAPTIVE_DNS_OPTIONS' }),
  );
});
