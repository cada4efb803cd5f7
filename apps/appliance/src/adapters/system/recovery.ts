import fs from 'node:fs/promises';
import path from 'node:path';
import { createCloudClient, DATABASE_ENTRY, KEY_STORE_SLOT, resolveCloudArea } from '@waved/psp-cloud';
import { ApplianceError } from '../../core/errors.js';
import type { Logger } from '../../core/log/logger.js';
import { createPasswordRecovery, type PasswordRecovery } from '../../domain/device/recovery.js';
import { createCloudSession } from '../../domain/device/session.js';
import type { DeviceProfile } from '../../domain/profile/schema.js';
import { createSettingsStore } from '../../domain/settings/index.js';
import { createFileCredentialStore } from './device-stores.js';
import { createFileStore } from './files.js';

async function secretFile(file: string, what: string): Promise<string> {
  const value = (await fs.readFile(file, 'utf8')).trim();
  if (value === '') throw new ApplianceError('APPLIANCE_PROFILE', `${what} ${file} is empty`);
  return value;
}

/**
 * Password recovery from the command line (`waved password recover`), beside the running device
 * application: the profile's identity, credentials file and cloud. A device that has not
 * registered yet registers here as it would at its first connect.
 */
export async function openSystemPasswordRecovery(
  profile: DeviceProfile,
  logger: Logger,
): Promise<PasswordRecovery & { close(): Promise<void>; clearDevicePassword(): Promise<void> }> {
  const id = profile.identity;
  const credentials = await createFileCredentialStore({
    path: id.credentials_file || path.join(profile.paths.data_dir, 'credentials.json'),
  });
  const serial =
    id.serial || (id.serial_file ? await secretFile(id.serial_file, 'identity.serial_file') : '');
  if (!(await credentials.readSlot(KEY_STORE_SLOT.serial))) {
    if (!serial) throw new ApplianceError('APPLIANCE_PROFILE', 'the device has no serial (identity.serial)');
    await credentials.writeSlot(KEY_STORE_SLOT.serial, serial);
  }
  if (id.factory_secret_file && !(await credentials.readEntry(DATABASE_ENTRY.registrationSecret))) {
    await credentials.writeEntry(
      DATABASE_ENTRY.registrationSecret,
      await secretFile(id.factory_secret_file, 'identity.factory_secret_file'),
    );
  }
  const files = createFileStore();
  const settings = createSettingsStore({ path: profile.paths.settings, files, logger });
  const country = (await settings.load()).device.country;
  const ca = profile.cloud.ca_file ? await fs.readFile(profile.cloud.ca_file) : undefined;
  const client = createCloudClient({
    credentials,
    area: resolveCloudArea({
      country: country || null,
      environment: profile.cloud.environment,
      ...(profile.cloud.base_url ? { baseUrl: profile.cloud.base_url } : { hosts: profile.cloud.hosts }),
    }),
    ...(ca ? { tls: { ca } } : {}),
    firmwareVersion: id.firmware_version || '0.0.0',
  });
  const session = createCloudSession({ client, credentials, logger });
  return {
    ...createPasswordRecovery({ client, session, logger }),
    /** After a verified code: the PIN is removed from the settings file. */
    async clearDevicePassword() {
      const current = await settings.load();
      await settings.save({ ...current, security: { ...current.security, device_password: '' } });
    },
    close: () => client.close(),
  };
}
