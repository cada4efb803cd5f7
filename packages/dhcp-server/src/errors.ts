/** Every way @waved/dhcp-server can refuse an input or fail. Every code starts with `DHCP_`. */
export type DhcpErrorCode =
  | 'DHCP_DECODE_TRUNCATED'
  | 'DHCP_DECODE_MAGIC'
  | 'DHCP_DECODE_HLEN'
  | 'DHCP_DECODE_OPTION'
  | 'DHCP_ENCODE_FIELD'
  | 'DHCP_ENCODE_BUFFER'
  | 'DHCP_CONFIG'
  | 'DHCP_BIND'
  | 'DHCP_INTERFACE'
  | 'DHCP_STORE'
  | 'DHCP_STATE';

export class DhcpError extends Error {
  override readonly name = 'DhcpError';
  constructor(
    readonly code: DhcpErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `e` is a DhcpError (with the given code, when one is given). */
export function isDhcpError(e: unknown, code?: DhcpErrorCode): e is DhcpError {
  return e instanceof DhcpError && (code === undefined || e.code === code);
}
