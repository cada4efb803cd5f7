import { isOtaError, parseUpdateResponse } from '@waved/swu-ota';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CloudError, parseUpdateDescriptor, UPDATE_KINDS } from '../src/index.js';

const good = {
  version: '1.0.1',
  download_url: 'https://x.invalid/a.swu',
  file_md5: 'D41D8CD98F00B204E9800998ECF8427E',
  descriptions: { en: { html_note: 'n' } },
  forced: true,
};

/** What the answer means: a descriptor, no update, or a bad response. */
function verdict(parse: () => unknown): unknown {
  try {
    return parse() ?? 'no update';
  } catch (error) {
    return isOtaError(error) || error instanceof CloudError ? 'bad response' : error;
  }
}

describe('parseUpdateDescriptor is @waved/swu-ota’s parser', () => {
  it.each([
    ['{}', {}],
    ['null', null],
    ['an object naming no package', { forced: false, descriptions: {} }],
    ['empty package fields', { version: '', download_url: '', file_md5: '' }],
  ])('%s is no update (null), as in @waved/swu-ota', (_what, body) => {
    expect(parseUpdateDescriptor(body)).toBeNull();
    expect(parseUpdateResponse(body)).toBeNull();
  });

  it.each([
    ['a half descriptor', { version: '1.2.0' }],
    ['an array', []],
    ['a string', 'update'],
    ['a bad md5', { ...good, file_md5: 'abc' }],
  ])('%s is CLOUD_BAD_RESPONSE with the OtaError as its cause', (_what, body) => {
    try {
      parseUpdateDescriptor(body);
      expect.fail('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(CloudError);
      expect((error as CloudError).code).toBe('CLOUD_BAD_RESPONSE');
      // the OtaError of @waved/swu-ota's parser (bundled into the build: compare its name and code)
      expect((error as CloudError).cause).toMatchObject({
        name: 'OtaError',
        code: expect.stringMatching(/^OTA_DESCRIPTOR_/),
      });
    }
  });

  it('returns the descriptor swu-ota returns (lowercase MD5, notes without control characters)', () => {
    const d = parseUpdateDescriptor({ ...good, descriptions: { en: { html_note: 'a\u001b[2Jb' } } });
    expect(d).toEqual({
      ...good,
      file_md5: good.file_md5.toLowerCase(),
      descriptions: { en: { html_note: 'a[2Jb' } },
    });
    expect(UPDATE_KINDS).toEqual(['psp_firmware', 'psp_model']);
  });

  it('reaches the same verdict as @waved/swu-ota on any input (fuzz)', () => {
    const mutated = fc.record(
      {
        version: fc.oneof(fc.constantFrom('', null, '1.2.0'), fc.anything()),
        download_url: fc.oneof(fc.constantFrom('', null, good.download_url), fc.anything()),
        file_md5: fc.oneof(fc.constantFrom('', null, good.file_md5), fc.anything()),
        descriptions: fc.oneof(fc.constant(good.descriptions), fc.anything()),
        forced: fc.oneof(fc.boolean(), fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything(), mutated), (body) => {
        expect(verdict(() => parseUpdateDescriptor(body))).toEqual(verdict(() => parseUpdateResponse(body)));
      }),
      { numRuns: 1000 },
    );
  });
});
