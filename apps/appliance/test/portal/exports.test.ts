import { expect, it } from 'vitest';

it('the portal, settings and screens modules export exactly their public API', async () => {
  expect(Object.keys(await import('../../src/domain/portal/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "MAX_BODY_BYTES",
      "createPortal",
      "csrfMatches",
      "escapeHtml",
      "networksForForm",
      "parseFormBody",
      "readConnect",
    ]
  `);
  expect(Object.keys(await import('../../src/domain/settings/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "DEFAULT_SETTINGS",
      "FIELDS",
      "GROUP_TITLES",
      "LANGUAGES",
      "SECRET_FIELDS",
      "countries",
      "createSettingsStore",
      "defaultSettings",
      "isCountryCode",
      "isHostName",
      "isNtpServer",
      "isWebhookUrl",
      "silentLogger",
      "timeZones",
      "validateSettings",
    ]
  `);
  expect(Object.keys(await import('../../src/domain/screens/index.js')).sort()).toMatchInlineSnapshot(`
    [
      "MAX_SCREEN_SUBSCRIBERS",
      "SETUP_SESSION_SECONDS",
      "createScreenPage",
      "createScreens",
      "describeStatus",
      "escapeWifiQrValue",
      "formatCountdown",
      "formatWifiQr",
      "renderQrText",
      "renderTerminal",
      "viewForWeb",
    ]
  `);
});
