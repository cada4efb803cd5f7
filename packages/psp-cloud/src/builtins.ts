// Node built-ins loaded on first use rather than at import: importing the package stays cheap for an
// application that only needs part of it (import cost is checked by scripts/import-cost.mjs).
import { createRequire } from 'node:module';

type Crypto = typeof import('node:crypto');
type Fs = typeof import('node:fs');

let crypto: Crypto | undefined;
let fs: Fs | undefined;
const load = <T>(id: string): T =>
  (process.getBuiltinModule?.(id) as T | undefined) ?? (createRequire(import.meta.url)(id) as T);

export const nodeCrypto = (): Crypto => (crypto ??= load<Crypto>('node:crypto'));
export const nodeFs = (): Fs => (fs ??= load<Fs>('node:fs'));
