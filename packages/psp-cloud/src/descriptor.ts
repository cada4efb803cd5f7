// Firmware/model update descriptor. @waved/swu-ota owns the one parser of the project
// (bundled into this package's build, see tsup.config.ts); this module gives it the cloud client's
// error class.
import { isOtaError, parseUpdateResponse, type UpdateDescriptor } from '@waved/swu-ota';
import { CloudError } from './errors.js';

export { UPDATE_KINDS, type UpdateDescriptor, type UpdateKind } from '@waved/swu-ota';

/**
 * Reads the answer to an update check with @waved/swu-ota's `parseUpdateResponse`: the update
 * descriptor, or null for no update (an empty body, JSON `null`, or an object that names no
 * package: none of `version`, `download_url`, `file_md5` set, `{}` included). Anything else that
 * is not a valid descriptor throws `CLOUD_BAD_RESPONSE`, with the `OtaError` as its cause.
 */
export function parseUpdateDescriptor(value: unknown): UpdateDescriptor | null {
  try {
    return parseUpdateResponse(value);
  } catch (error) {
    if (isOtaError(error)) throw new CloudError('CLOUD_BAD_RESPONSE', error.message, { cause: error });
    throw error;
  }
}
