// @waved/swu-ota: OTA for SWUpdate packages: descriptors, resumable download, streaming verification, install.
import './node-guard.js';

// The logger and clock every waved package shares
export { type Clock, type Logger, systemClock } from '@waved/internal';
// Building packages (and signing them)
export {
  type BuildSwuOptions,
  type BuildSwuResult,
  buildSwu,
  type CpioSource,
  writeCpio,
} from './builder.js';
export { type CmsOptions, type CmsSigner, signCms, verifyCmsSignature } from './cms.js';
// The cpio container of a .swu
export {
  byteSum,
  CPIO_HEADER_SIZE,
  CPIO_TRAILER,
  type CpioFormat,
  type CpioHeader,
  type CpioParser,
  type CpioParserHandlers,
  cpioHeader,
  cpioHeaderLength,
  createCpioParser,
  decodeCpioHeader,
  encodeCpioHeader,
} from './cpio.js';
// Update descriptors and checks
export {
  type CloudBases,
  createUpdateChecker,
  type DeviceIdentity,
  descriptorHeaders,
  descriptorRequest,
  descriptorUrl,
  MAX_DESCRIPTOR_BYTES,
  parseDescriptor,
  parseUpdateResponse,
  UPDATE_KINDS,
  type UpdateChecker,
  type UpdateCheckerOptions,
  type UpdateCheckResult,
  type UpdateDescriptor,
  type UpdateKind,
} from './descriptor.js';
// Resumable download, and the package path with its memory of refusals
export {
  type CompletePackage,
  createDownloader,
  DEFAULT_MAX_PACKAGE_BYTES,
  DONE_FILE,
  type Downloader,
  type DownloaderOptions,
  type DownloadOptions,
  type DownloadProgress,
  type DownloadResult,
  formatProgressLine,
  PACKAGE_BASE_DIR,
  PACKAGE_FILE,
  PROGRESS_BAR_WIDTH,
  packagePath,
  progressFilePath,
  type SleepClock,
} from './download.js';
// Errors and refusal reasons
export {
  isOtaError,
  OTA_REFUSALS,
  OtaError,
  type OtaErrorCode,
  type OtaRefusal,
  type OtaRefusalCategory,
  refusalOf,
} from './errors.js';
// The file system calls the downloader makes (inject one to fake a full disk)
export type { FsPort } from './fs-port.js';
// Install
export {
  createInstaller,
  type Installer,
  type InstallerOptions,
  type InstallOptions,
  type InstallResult,
  type InstallStep,
} from './install.js';
// sw-description: libconfig text, running programs, the parsed description
export { formatLibconfig, type LibconfigGroup, type LibconfigValue, parseLibconfig } from './libconfig.js';
export {
  createPackageStore,
  type PackageStore,
  type PackageStoreOptions,
  type RefusalRecord,
} from './package-store.js';
export { type CommandRunner, type RunOptions, type RunResult, runCommand } from './runner.js';
export { parseSwDescription, type SwDescription, type SwuArtifact } from './sw-description.js';
// Text for terminals and logs
export { type StripControlsOptions, stripControls } from './text.js';
// .swu verification
export {
  SW_DESCRIPTION,
  SW_DESCRIPTION_SIG,
  type SwuEntry,
  type SwuReport,
  type SwuSource,
  type VerifiedArtifact,
  type VerifySwuOptions,
  verifySwu,
} from './verify.js';
// Version order (anti-rollback)
export { compareVersions, MAX_VERSION_LENGTH, type ParsedVersion, parseVersion } from './version.js';
