// Device screens: Menu > Wi-Fi and Set up Wi-Fi, the software update and the PC Link
// verification page, as a view model and two renderers

export { createScreenPage, MAX_SCREEN_SUBSCRIBERS, type ScreenPageOptions, viewForWeb } from './page.js';
export { escapeWifiQrValue, formatWifiQr } from './qr.js';
export { renderQrText, renderTerminal, type TerminalOptions } from './terminal.js';
export type {
  UpdateAction,
  UpdatePhase,
  UpdateProgress,
  UpdateView,
} from './update.js';
export type { VerificationPort, VerifyAction, VerifyView } from './verify.js';
export {
  type ConfirmDialog,
  createScreens,
  describeStatus,
  formatCountdown,
  type MenuView,
  type PinDigit,
  type ScreenAction,
  type ScreenBase,
  type ScreenButton,
  type ScreenRow,
  type Screens,
  type ScreensOptions,
  type ScreenView,
  SETUP_SESSION_SECONDS,
  type SetupView,
  type WifiStatus,
  type WifiView,
} from './view.js';
