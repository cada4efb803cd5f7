// Settings in config.toml

export { type Logger, silentLogger } from './logger.js';
export {
  DEFAULT_SETTINGS,
  defaultSettings,
  FIELDS,
  type FieldKind,
  type FieldSpec,
  GROUP_TITLES,
  LANGUAGES,
  SECRET_FIELDS,
  type Settings,
  type SettingsGroup,
} from './schema.js';
export { createSettingsStore, type SettingsStore, type SettingsStoreOptions } from './store.js';
export {
  countries,
  isCountryCode,
  isHostName,
  isNtpServer,
  isWebhookUrl,
  timeZones,
  type ValidateOptions,
  type ValidateResult,
  validateSettings,
} from './validate.js';
