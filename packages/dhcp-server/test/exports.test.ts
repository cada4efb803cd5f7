import { expect, it } from 'vitest';
import { DhcpError, type DhcpErrorCode, isDhcpError } from '../src/index.js';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "BOOTREPLY",
      "BOOTREQUEST",
      "BROADCAST_FLAG",
      "DhcpError",
      "MessageType",
      "Option",
      "bindToInterface",
      "createDhcpMachine",
      "createDhcpServer",
      "createFileLeaseStore",
      "createMemoryLeaseStore",
      "decodeMessage",
      "encodeMessage",
      "formatIpv4",
      "interfaceIndex",
      "isDhcpError",
      "messageEncodingLength",
      "parseIpv4",
      "systemClock",
    ]
  `);
});

it.each([
  ['DHCP_DECODE_TRUNCATED'],
  ['DHCP_DECODE_MAGIC'],
  ['DHCP_DECODE_HLEN'],
  ['DHCP_DECODE_OPTION'],
  ['DHCP_ENCODE_FIELD'],
  ['DHCP_ENCODE_BUFFER'],
  ['DHCP_CONFIG'],
  ['DHCP_BIND'],
  ['DHCP_INTERFACE'],
  ['DHCP_STORE'],
  ['DHCP_STATE'],
] as [DhcpErrorCode][])('DhcpError carries code %s and its cause; isDhcpError tells it apart', (code) => {
  const cause = new Error('inner');
  const e = new DhcpError(code, 'msg', { cause });
  expect(e).toBeInstanceOf(Error);
  expect(e.name).toBe('DhcpError');
  expect(e.code).toBe(code);
  expect(e.code).toMatch(/^DHCP_/);
  expect(e.cause).toBe(cause);
  expect(isDhcpError(e)).toBe(true);
  expect(isDhcpError(e, code)).toBe(true);
  expect(isDhcpError(e, code === 'DHCP_BIND' ? 'DHCP_STATE' : 'DHCP_BIND')).toBe(false);
  expect(isDhcpError(Object.assign(new Error('msg'), { code }))).toBe(false);
});
