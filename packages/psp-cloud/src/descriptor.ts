// Firmware/model update descriptor.
import { CloudError } from './errors.js';

export type UpdateKind = 'psp_firmware' | 'psp_model';
export const UPDATE_KINDS: readonly UpdateKind[] = ['psp_firmware', 'psp_model'];

export interface UpdateDescriptor {
  version: string;
  download_url: string;
  /** lowercase hex MD5 of the package */
  file_md5: string;
  /** release notes keyed by language */
  descriptions: Record<string, { html_note: string }>;
  forced: boolean;
}

/** Validates a descriptor received from the cloud (hostile input: every field is checked). */
export function parseUpdateDescriptor(value: unknown): UpdateDescriptor {
  const bad = (what: string) => new CloudError('CLOUD_BAD_RESPONSE', `update descriptor: ${what}`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad('not a JSON object');
  const v = value as Record<string, unknown>;
  if (typeof v.version !== 'string' || v.version === '' || v.version.length > 128) throw bad('bad version');
  if (typeof v.download_url !== 'string' || !URL.canParse(v.download_url)) throw bad('bad download_url');
  if (typeof v.file_md5 !== 'string' || !/^[0-9a-fA-F]{32}$/.test(v.file_md5)) throw bad('bad file_md5');
  const forced = v.forced ?? false;
  if (typeof forced !== 'boolean') throw bad('bad forced flag');
  const descriptions: Record<string, { html_note: string }> = {};
  if (v.descriptions !== undefined) {
    if (typeof v.descriptions !== 'object' || v.descriptions === null || Array.isArray(v.descriptions)) {
      throw bad('bad descriptions');
    }
    for (const [lang, d] of Object.entries(v.descriptions)) {
      const note = (d as { html_note?: unknown } | null)?.html_note;
      if (typeof note !== 'string') throw bad(`descriptions.${lang}.html_note is not a string`);
      descriptions[lang] = { html_note: note };
    }
  }
  return {
    version: v.version,
    download_url: v.download_url,
    file_md5: v.file_md5.toLowerCase(),
    descriptions,
    forced,
  };
}
