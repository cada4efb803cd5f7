/** Every way @waved/captive-dns can refuse to start. Hostile packets never raise: they are counted. */
export type CaptiveDnsErrorCode =
  | 'CAPTIVE_DNS_OPTIONS'
  | 'CAPTIVE_DNS_LISTEN'
  | 'CAPTIVE_DNS_STATE'
  | 'CAPTIVE_DNS_TRANSPORT';

export class CaptiveDnsError extends Error {
  override readonly name = 'CaptiveDnsError';
  constructor(
    readonly code: CaptiveDnsErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** True when `e` is a CaptiveDnsError (with the given code, when one is given). */
export function isCaptiveDnsError(e: unknown, code?: CaptiveDnsErrorCode): e is CaptiveDnsError {
  return e instanceof CaptiveDnsError && (code === undefined || e.code === code);
}
