// Message catalogs (English is the source), language negotiation and Intl formatting for every text
// the portal and the screens show

export {
  type Catalog,
  LANGUAGE_TAGS,
  LOCALES,
  type Locale,
  type LocaleMeta,
  languageFromHeader,
  type Message,
  type MessageKey,
  message,
  type ParamsOf,
  resolveLanguage,
  SOURCE_LANGUAGE,
  supportedLanguage,
  type TranslateArgs,
  type Translator,
  translator,
} from './catalog.js';
export { type CatalogProblem, checkCatalog, usedPluralCategories } from './check.js';
export { type MessageParams, type MessageValue, parsePattern } from './format.js';
export { type LanguageRange, matchLanguage, negotiateLanguage, parseAcceptLanguage } from './negotiate.js';
