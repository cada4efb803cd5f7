import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createUpdateChecker,
  descriptorHeaders,
  descriptorUrl,
  OtaError,
  parseDescriptor,
  type UpdateKind,
} from '../src/index.js';

const valid = {
  version: 'PSP_1.4.0',
  download_url: 'https://ota.example.com/fw/software.swu?sig=abc',
  file_md5: '9E107D9D372BB6826BD81D3542A419D6',
  descriptions: { en: { html_note: '<p>Fixes</p>' }, 'zh-CN': { html_note: '<p>修复</p>' } },
  forced: true,
};

describe('parseDescriptor', () => {
  it('accepts the B1 shape from text, bytes or a value, normalising the MD5', () => {
    for (const input of [valid, JSON.stringify(valid), new TextEncoder().encode(JSON.stringify(valid))]) {
      expect(parseDescriptor(input)).toEqual({ ...valid, file_md5: '9e107d9d372bb6826bd81d3542a419d6' });
    }
  });

  it('defaults descriptions to {} and forced to false, and ignores unknown fields', () => {
    const { descriptions: _d, forced: _f, ...minimal } = valid;
    expect(parseDescriptor({ ...minimal, extra: 1 })).toMatchObject({ descriptions: {}, forced: false });
  });

  it.each([
    ['not JSON', '{"version":', 'OTA_DESCRIPTOR_JSON', /not valid JSON/],
    ['an array', '[]', 'OTA_DESCRIPTOR_JSON', /JSON object/],
    ['no version', { ...valid, version: undefined }, 'OTA_DESCRIPTOR_FIELD', /version must be a string/],
    ['an empty version', { ...valid, version: '  ' }, 'OTA_DESCRIPTOR_FIELD', /version must be/],
    [
      'a control character in version',
      { ...valid, version: '1.0\n' + 'x' },
      'OTA_DESCRIPTOR_FIELD',
      /version/,
    ],
    [
      'a relative URL',
      { ...valid, download_url: '/fw.swu' },
      'OTA_DESCRIPTOR_FIELD',
      /download_url is not a URL/,
    ],
    ['an ftp URL', { ...valid, download_url: 'ftp://x/y' }, 'OTA_DESCRIPTOR_FIELD', /must be http\(s\)/],
    ['a short md5', { ...valid, file_md5: 'abc' }, 'OTA_DESCRIPTOR_FIELD', /file_md5 must be 32 hex/],
    ['a non-hex md5', { ...valid, file_md5: 'z'.repeat(32) }, 'OTA_DESCRIPTOR_FIELD', /file_md5/],
    [
      'descriptions as a list',
      { ...valid, descriptions: [] },
      'OTA_DESCRIPTOR_FIELD',
      /descriptions must be an object/,
    ],
    [
      'a note that is not a string',
      { ...valid, descriptions: { en: { html_note: 1 } } },
      'OTA_DESCRIPTOR_FIELD',
      /descriptions\.en\.html_note/,
    ],
    [
      'a bad language key',
      { ...valid, descriptions: { '<b>': { html_note: '' } } },
      'OTA_DESCRIPTOR_FIELD',
      /language code/,
    ],
    [
      'forced as a string',
      { ...valid, forced: 'true' },
      'OTA_DESCRIPTOR_FIELD',
      /forced must be true or false/,
    ],
  ])('rejects %s', (_what, input, code, message) => {
    try {
      parseDescriptor(input);
      expect.fail('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(OtaError);
      expect((error as OtaError).code).toBe(code);
      expect((error as OtaError).message).toMatch(message);
    }
  });
});

describe('parseDescriptor on hostile input', () => {
  it('throws nothing but an OtaError, for any JSON value or text', () => {
    const mutated = fc.record(
      {
        version: fc.oneof(fc.string(), fc.anything()),
        download_url: fc.oneof(fc.webUrl(), fc.string(), fc.anything()),
        file_md5: fc.oneof(fc.stringMatching(/^[0-9a-fA-F]{32}$/), fc.anything()),
        descriptions: fc.oneof(
          fc.dictionary(fc.string(), fc.record({ html_note: fc.string() })),
          fc.anything(),
        ),
        forced: fc.oneof(fc.boolean(), fc.anything()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.jsonValue(), fc.string(), mutated), (input) => {
        try {
          const d = parseDescriptor(input);
          expect(d.file_md5).toMatch(/^[0-9a-f]{32}$/);
          expect(typeof d.forced).toBe('boolean');
        } catch (error) {
          expect(error).toBeInstanceOf(OtaError);
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe('descriptor endpoints', () => {
  it('builds the upgrade URL and headers of Endpoints B', () => {
    expect(descriptorUrl('https://cloud.example/', 'psp_firmware')).toBe(
      'https://cloud.example/app/v1/common/upgrade/psp_firmware',
    );
    expect(descriptorUrl('https://test.example', 'psp_model')).toBe(
      'https://test.example/app/v1/common/upgrade/psp_model',
    );
    const bases = { cloudUrl: 'https://prod.example', cloudTestUrl: 'https://test.example' };
    expect(descriptorUrl({ ...bases, otaServerEnv: 1 }, 'psp_firmware')).toBe(
      'https://test.example/app/v1/common/upgrade/psp_firmware',
    );
    expect(descriptorUrl({ ...bases, otaServerEnv: 0 }, 'psp_model')).toBe(
      'https://prod.example/app/v1/common/upgrade/psp_model',
    );
    expect(descriptorHeaders('SN123', '1.0.3')).toEqual({
      'X-Device-Serial': 'SN123',
      'X-Device-Version': '1.0.3',
    });
  });
});

describe('createUpdateChecker', () => {
  it('checks firmware then model and returns both results', async () => {
    const asked: UpdateKind[] = [];
    const checker = createUpdateChecker({
      fetchDescriptor: async (kind) => {
        asked.push(kind);
        return kind === 'psp_firmware' ? JSON.stringify(valid) : '';
      },
    });
    const results = await checker.check();
    expect(asked).toEqual(['psp_firmware', 'psp_model']);
    expect(results).toEqual([
      { kind: 'psp_firmware', status: 'available', descriptor: parseDescriptor(valid) },
      { kind: 'psp_model', status: 'none' },
    ]);
  });

  it('treats the installed version as no update', async () => {
    const checker = createUpdateChecker({
      fetchDescriptor: async () => valid,
      currentVersion: { psp_firmware: 'PSP_1.4.0' },
    });
    expect((await checker.check()).map((r) => r.status)).toEqual(['none', 'available']);
  });

  it('keeps checking the model when the firmware fetch fails, and codes both failures', async () => {
    const cause = new Error('ECONNREFUSED');
    const checker = createUpdateChecker({
      fetchDescriptor: async (kind) => {
        if (kind === 'psp_firmware') throw cause;
        return { ...valid, file_md5: 'nope' };
      },
    });
    const [fw, model] = await checker.check();
    expect(fw).toMatchObject({ kind: 'psp_firmware', status: 'error' });
    expect(fw?.status === 'error' && fw.error.code).toBe('OTA_CHECK_FAILED');
    expect(fw?.status === 'error' && fw.error.cause).toBe(cause);
    expect(model?.status === 'error' && model.error.code).toBe('OTA_DESCRIPTOR_FIELD');
  });

  it.each([[null], [undefined], [''], ['{}'], [{}]])('reads %j as no update', async (empty) => {
    const checker = createUpdateChecker({ fetchDescriptor: async () => empty });
    expect((await checker.check()).map((r) => r.status)).toEqual(['none', 'none']);
  });
});
