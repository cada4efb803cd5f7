import { readFileSync } from 'node:fs';

/** A reply captured from the real wpa_cli (see fixtures/capture-*.sh), byte for byte. */
export function fixture(name: string): string {
  return readFileSync(new URL(`../fixtures/${name}.txt`, import.meta.url), 'utf8');
}
