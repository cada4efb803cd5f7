import { describe, expect, it } from 'vitest';
import { formatFailure } from '../../src/core/messages.js';
import { translator } from '../../src/i18n/index.js';

describe('formatFailure: one text per failure reason', () => {
  it('is English by default (the log and the Failed state) and follows the translator it is given', () => {
    const en = formatFailure('wrong-password');
    expect(en).toBe(translator('en').text({ key: 'failure.wrong-password' }));
    expect(formatFailure('wrong-password', translator('de'))).not.toBe(en);
  });

  it('gives a reason this version does not know a generic text, never the raw reason', () => {
    const text = formatFailure('flux-capacitor', translator('en'));
    expect(text).toBe(translator('en').text({ key: 'failure.unknown' }));
    expect(text).not.toContain('flux-capacitor');
  });
});
