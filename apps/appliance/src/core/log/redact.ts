/**
 * Redaction of secrets in log records. Two layers:
 * 1. values registered at runtime (the AP passphrase, the submitted passphrase, the CSRF token) are
 *    replaced wherever they appear, whatever the surrounding text;
 * 2. patterns catch what was never registered: `psk <value>`, `passphrase=<value>`, `"token": …`,
 *    64-hex pairwise master keys, and object properties whose name says "secret".
 */
export const MASK = '****';

const SECRET_KEY = /(pass(word|phrase)?|psk|csrf|token|secret|device_password|pin|authorization|cookie)$/i;
const KEY_VALUE =
  /\b(psk|pass(?:word|phrase)?|wpa_passphrase|wpa_psk|csrf|x-csrf-token|token|secret|device_secret|device_password)(["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s&;,"'}]+)/gi;
/** wpa_cli style `psk <value>` (lowercase word, not part of `WPA-PSK`). */
const ARGUMENT = /(?<![-\w])(psk)(\s+)("[^"]*"|[^\s]+)/g;
const PMK = /\b[0-9a-fA-F]{64}\b/g;
const MIN_SECRET_LENGTH = 4;

export interface SecretRegistry {
  /** Registers a value that must never appear in a log line. Returns a function that forgets it. */
  add(value: string): () => void;
  has(value: string): boolean;
  values(): readonly string[];
}

export function createSecretRegistry(): SecretRegistry {
  const counts = new Map<string, number>();
  return {
    add(value) {
      if (typeof value !== 'string' || value.length < MIN_SECRET_LENGTH) return () => {};
      counts.set(value, (counts.get(value) ?? 0) + 1);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        const n = (counts.get(value) ?? 1) - 1;
        if (n <= 0) counts.delete(value);
        else counts.set(value, n);
      };
    },
    has: (value) => counts.has(value),
    // Longest first, so a secret that contains another is masked whole.
    values: () => [...counts.keys()].sort((a, b) => b.length - a.length),
  };
}

function variants(secret: string): string[] {
  const out = new Set([secret]);
  const uri = encodeURIComponent(secret);
  out.add(uri);
  out.add(uri.replace(/%20/g, '+'));
  out.add(JSON.stringify(secret).slice(1, -1));
  return [...out];
}

/** Masks secrets in one string. */
export function redactString(text: string, registry?: SecretRegistry): string {
  let out = text;
  if (registry) {
    for (const secret of registry.values()) {
      for (const v of variants(secret)) if (v.length > 0) out = out.split(v).join(MASK);
    }
  }
  out = out.replace(KEY_VALUE, (_m, key: string, sep: string) => `${key}${sep}${MASK}`);
  out = out.replace(ARGUMENT, (_m, key: string, sep: string) => `${key}${sep}${MASK}`);
  out = out.replace(PMK, MASK);
  return out;
}

/** Masks secrets in any log argument: strings, errors, plain objects and arrays (depth-bounded). */
export function redactValue(value: unknown, registry?: SecretRegistry, depth = 0): unknown {
  if (typeof value === 'string') return redactString(value, registry);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[…]';
  if (value instanceof Error) {
    const copy = new Error(redactString(value.message, registry));
    copy.name = value.name;
    if (value.stack) copy.stack = redactString(value.stack, registry);
    else delete copy.stack;
    const code = (value as { code?: unknown }).code;
    if (code !== undefined) (copy as { code?: unknown }).code = code;
    return copy;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, registry, depth + 1));
  if (value instanceof Date || Buffer.isBuffer(value) || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      SECRET_KEY.test(k) && v !== undefined && v !== null && v !== ''
        ? MASK
        : redactValue(v, registry, depth + 1);
  }
  return out;
}
