import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createUpdateChecker,
  descriptorHeaders,
  descriptorRequest,
  descriptorUrl,
  MAX_DESCRIPTOR_BYTES,
  OtaError,
  parseDescriptor,
  parseUpdateResponse,
  UPDATE_KINDS,
  type UpdateKind,
} from '../src/index.js';

/** C0 but TAB/LF, DEL, C1, bidi controls, U+2028/9: what must never reach a terminal. */
const TERMINAL_CONTROLS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

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

describe('parseUpdateResponse: one rule for "no update" (psp-cloud uses it too)', () => {
  it.each([
    ['an empty body', ''],
    ['whitespace', ' \r\n'],
    ['JSON null', 'null'],
    ['null', null],
    ['undefined', undefined],
    ['{} as text', '{}'],
    ['{} as bytes', new TextEncoder().encode('{}')],
    ['{}', {}],
    ['the three package fields empty', { version: '', download_url: '', file_md5: '' }],
    ['the three package fields null', { version: null, download_url: null, file_md5: null, forced: false }],
    ['only forced and notes', { forced: true, descriptions: { en: { html_note: 'x' } } }],
  ])('%s is no update', (_what, input) => {
    expect(parseUpdateResponse(input)).toBeNull();
  });

  it('204 is no update whatever the body; a descriptor is returned as parseDescriptor returns it', () => {
    expect(parseUpdateResponse(JSON.stringify(valid), { status: 204 })).toBeNull();
    expect(parseUpdateResponse(JSON.stringify(valid), { status: 200 })).toEqual(parseDescriptor(valid));
    expect(parseUpdateResponse(`\uFEFF${JSON.stringify(valid)}`)).toEqual(parseDescriptor(valid));
  });

  it.each([
    ['only a version', { version: '1.2.0' }, 'OTA_DESCRIPTOR_FIELD'],
    ['a version and a URL but no MD5', { ...valid, file_md5: '' }, 'OTA_DESCRIPTOR_FIELD'],
    ['an MD5 alone', { file_md5: valid.file_md5 }, 'OTA_DESCRIPTOR_FIELD'],
    ['an array', [], 'OTA_DESCRIPTOR_JSON'],
    ['a number', '42', 'OTA_DESCRIPTOR_JSON'],
    ['a string', '"update"', 'OTA_DESCRIPTOR_JSON'],
    ['true', true, 'OTA_DESCRIPTOR_JSON'],
    ['text that is not JSON', '<html>502 Bad Gateway</html>', 'OTA_DESCRIPTOR_JSON'],
    ['a body over 1 MiB', `{"version":"${'1'.repeat(MAX_DESCRIPTOR_BYTES)}"}`, 'OTA_DESCRIPTOR_JSON'],
  ])('%s is a broken answer, never "up to date"', (_what, input, code) => {
    expect(() => parseUpdateResponse(input)).toThrowError(expect.objectContaining({ code }));
  });

  it('reads file_size and allow_downgrade when present, and checks them', () => {
    expect(parseDescriptor({ ...valid, file_size: 1234, allow_downgrade: true })).toMatchObject({
      file_size: 1234,
      allow_downgrade: true,
    });
    expect(parseDescriptor(valid)).not.toHaveProperty('file_size');
    expect(parseDescriptor(valid)).not.toHaveProperty('allow_downgrade');
    for (const file_size of [-1, 1.5, '12', 2 ** 60]) {
      expect(() => parseDescriptor({ ...valid, file_size })).toThrowError(/file_size/);
    }
    expect(() => parseDescriptor({ ...valid, allow_downgrade: 'yes' })).toThrowError(/allow_downgrade/);
  });

  it('strips what a terminal would act on from the release notes, keeping lines and tabs', () => {
    const hostile =
      '<p>Fixes\u001b[2J\u001b]0;pwned\u0007</p>\r\n\tline two\u009b31m\u202eevil\u2066\u0000\u007f\u2028end\ud800';
    const d = parseDescriptor({ ...valid, descriptions: { en: { html_note: hostile } } });
    expect(d.descriptions.en!.html_note).toBe('<p>Fixes[2J]0;pwned</p>\n\tline two31mevil\nend\ufffd');
    // A version with a control character is refused, not cleaned.
    expect(() => parseDescriptor({ ...valid, version: '1.0\u202e' })).toThrowError(/version/);
  });

  it('on any input: a descriptor, null or an OtaError, and never a control character in a note (fuzz)', () => {
    const note = fc.string({
      unit: fc.oneof(
        fc.constantFrom('\u001b', '\u009b', '\r', '\u202e', '\u2029', '\ud800'),
        fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
      ),
    });
    const mutated = fc.record(
      {
        version: fc.oneof(fc.constantFrom('', '1.0', null), fc.string(), fc.anything()),
        download_url: fc.oneof(fc.constantFrom('', null), fc.webUrl(), fc.anything()),
        file_md5: fc.oneof(fc.constantFrom('', null), fc.stringMatching(/^[0-9a-fA-F]{32}$/), fc.anything()),
        descriptions: fc.oneof(
          fc.dictionary(fc.constantFrom('en', 'zh-CN', 'de'), fc.record({ html_note: note })),
          fc.anything(),
        ),
        forced: fc.oneof(fc.boolean(), fc.anything()),
        file_size: fc.oneof(fc.nat(), fc.anything()),
        allow_downgrade: fc.oneof(fc.boolean(), fc.anything()),
      },
      { requiredKeys: [] },
    );
    // Valid descriptors with hostile notes, as text and as values: the sanitiser must act on them.
    const valid = fc.record({
      version: fc.constantFrom('1.2.0', 'PSP_0.3.19', 'm7'),
      download_url: fc.webUrl(),
      file_md5: fc.stringMatching(/^[0-9a-fA-F]{32}$/),
      descriptions: fc.dictionary(fc.constantFrom('en', 'zh-CN', 'de'), fc.record({ html_note: note }), {
        minKeys: 1,
      }),
    });
    const inputs = fc.oneof(
      valid,
      valid.map((v) => JSON.stringify(v)),
      fc.anything(),
      fc.jsonValue(),
      fc.string(),
      mutated,
      mutated.map((v) => JSON.stringify(v) ?? ''),
      fc.uint8Array({ maxLength: 300 }),
    );
    fc.assert(
      fc.property(inputs, fc.constantFrom(undefined, 200, 204), (input, status) => {
        let d: ReturnType<typeof parseUpdateResponse>;
        try {
          d = parseUpdateResponse(input, status === undefined ? {} : { status });
        } catch (error) {
          expect(error).toBeInstanceOf(OtaError);
          return;
        }
        if (d === null) return;
        expect(d.file_md5).toMatch(/^[0-9a-f]{32}$/);
        for (const { html_note } of Object.values(d.descriptions))
          expect(html_note).not.toMatch(TERMINAL_CONTROLS);
        expect(d.version).not.toMatch(TERMINAL_CONTROLS);
      }),
      { numRuns: 2000 },
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
    expect(descriptorHeaders({ serial: 'SN123', firmwareVersion: '1.0.3' })).toEqual({
      'X-Device-Serial': 'SN123',
      'X-Device-Version': '1.0.3',
    });
  });

  it('sends the FIRMWARE version on both checks: the same plain GET headers for firmware and model', () => {
    const device = { serial: 'PSP0001', firmwareVersion: 'PSP_1.4.0' };
    const [fw, model] = UPDATE_KINDS.map((kind) => descriptorRequest('https://c.example', kind, device));
    expect(fw).toEqual({
      method: 'GET',
      url: 'https://c.example/app/v1/common/upgrade/psp_firmware',
      headers: { 'X-Device-Serial': 'PSP0001', 'X-Device-Version': 'PSP_1.4.0' },
    });
    expect(model).toEqual({
      method: 'GET',
      url: 'https://c.example/app/v1/common/upgrade/psp_model',
      headers: fw!.headers,
    });
  });

  it.each([
    [{ serial: '', firmwareVersion: '1.0' }],
    [{ serial: 'SN 1', firmwareVersion: '1.0' }],
    [{ serial: 'SN1', firmwareVersion: '1.0\r\nX-Evil: 1' }],
  ])('refuses header values that are empty, have spaces or break the header line: %j', (device) => {
    expect(() => descriptorHeaders(device)).toThrowError(expect.objectContaining({ code: 'OTA_OPTIONS' }));
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

  it('does not offer an older version unless the descriptor or the caller allows it', async () => {
    const older = { ...valid, version: 'PSP_1.3.9' };
    const installed = { psp_firmware: 'PSP_1.4.0', psp_model: '1.4.0' };
    const refused = await createUpdateChecker({
      fetchDescriptor: async () => older,
      currentVersion: installed,
    }).check();
    expect(refused.map((r) => (r.status === 'error' ? r.error.code : r.status))).toEqual([
      'OTA_VERSION_DOWNGRADE',
      'OTA_VERSION_DOWNGRADE',
    ]);
    const byDescriptor = await createUpdateChecker({
      fetchDescriptor: async () => ({ ...older, allow_downgrade: true }),
      currentVersion: installed,
    }).check();
    expect(byDescriptor.map((r) => r.status)).toEqual(['available', 'available']);
    const byCaller = await createUpdateChecker({
      fetchDescriptor: async () => older,
      currentVersion: installed,
      allowDowngrade: true,
    }).check();
    expect(byCaller.map((r) => r.status)).toEqual(['available', 'available']);
    // The same version in another spelling is no update either.
    const same = await createUpdateChecker({
      fetchDescriptor: async () => ({ ...valid, version: 'v1.4' }),
      currentVersion: installed,
    }).check();
    expect(same.map((r) => r.status)).toEqual(['none', 'none']);
  });

  it.each([[null], [undefined], [''], ['{}'], [{}]])('reads %j as no update', async (empty) => {
    const checker = createUpdateChecker({ fetchDescriptor: async () => empty });
    expect((await checker.check()).map((r) => r.status)).toEqual(['none', 'none']);
  });
});
