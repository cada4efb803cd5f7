import { expect, it } from 'vitest';
import { BtFrameError, isBtFrameError } from '../src/index.js';

it('exports exactly the public API', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "BT_COMMANDS",
      "BT_COMMAND_DATA_BUFFER",
      "BT_COMMAND_MAX_DATA",
      "BT_CONFIG_COMMAND_FIRST",
      "BT_CONFIG_COMMAND_LAST",
      "BT_NAME_MAX_BYTES",
      "BtFrameError",
      "FRAME_MAX_LENGTH",
      "FRAME_MAX_PAYLOAD",
      "FRAME_OVERHEAD",
      "FRAME_START_BYTES",
      "FrameParser",
      "PARSER_STATES",
      "PHONEBOOK_MAGIC",
      "PHONEBOOK_MAX_CONTACTS",
      "PHONEBOOK_MAX_FILE_BYTES",
      "PHONEBOOK_MAX_NAME_BYTES",
      "PHONEBOOK_MAX_NUMBERS",
      "PHONEBOOK_MAX_NUMBER_BYTES",
      "PHONEBOOK_PATH",
      "PHONEBOOK_VERSION",
      "VCARD_MAX_BYTES",
      "btCommandName",
      "createBtModule",
      "createFrameDecoder",
      "decodeBtText",
      "decodeFrame",
      "downloadPhoneBook",
      "encodeFrame",
      "frameChecksum",
      "frameLength",
      "frameTypeOf",
      "isBtCommandId",
      "isBtConfigCommand",
      "isBtFrameError",
      "normalizeNumber",
      "numbersMatch",
      "parsePhoneBook",
      "parseVCards",
      "readPhoneBookFile",
      "searchByNumber",
      "serializePhoneBook",
      "stripControls",
      "systemClock",
      "writePhoneBookFile",
    ]
  `);
});

it.each([
  ['BT_FRAME_CHECKSUM'],
  ['BT_FRAME_TRUNCATED'],
  ['BT_COMMAND_DATA_LENGTH'],
  ['BT_COMMAND_ARGUMENT'],
  ['BT_COMMAND_REFUSED'],
  ['BT_COMMAND_REPLY'],
  ['BT_MODULE_TIMEOUT'],
  ['BT_MODULE_CLOSED'],
  ['BT_PHONEBOOK_CHECKSUM'],
  ['BT_PHONEBOOK_VERSION'],
] as const)('BtFrameError carries code %s and its cause; isBtFrameError tells it apart', (code) => {
  const cause = new Error('inner');
  const e = new BtFrameError(code, 'msg', { cause });
  expect(e).toBeInstanceOf(Error);
  expect(e.name).toBe('BtFrameError');
  expect(e.code).toBe(code);
  expect(e.code).toMatch(/^BT_/);
  expect(e.cause).toBe(cause);
  expect(isBtFrameError(e)).toBe(true);
  expect(isBtFrameError(e, code)).toBe(true);
  expect(isBtFrameError(e, code === 'BT_FRAME_CHECKSUM' ? 'BT_FRAME_TRUNCATED' : 'BT_FRAME_CHECKSUM')).toBe(
    false,
  );
  expect(isBtFrameError(Object.assign(new Error('msg'), { code }))).toBe(false);
  expect(isBtFrameError({ code })).toBe(false);
});

it('no source file imports serialport, so the package works without it installed', async () => {
  const fs = await import('node:fs');
  const dir = new URL('../src/', import.meta.url);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));
  expect(files.length).toBeGreaterThan(5);
  for (const f of files) {
    const text = fs.readFileSync(new URL(f, dir), 'utf8');
    expect(text, f).not.toMatch(/from '(@serialport\/[^']*|serialport)'|import\('(@serialport|serialport)/);
  }
});
