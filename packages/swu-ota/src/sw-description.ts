import { OtaError } from './errors.js';
import { type LibconfigGroup, type LibconfigValue, parseLibconfig } from './libconfig.js';

// sw-description as SWUpdate reads it (SWUpdate documentation, "SWUpdate: syntax and tags"): a
// `software` group holding `version`, `description`, `hardware-compatibility` and the artefact lists
// `images`, `files` and `scripts`, either directly or inside board-specific groups and software
// collections (`stable: { main: {...}; alt: {...} }`). Every artefact names its `filename` in the
// archive and, in a signed package, its `sha256`.

/** Lists whose elements name an archive entry through `filename`. */
export const ARTIFACT_LISTS = ['images', 'files', 'scripts'] as const;

export interface SwuArtifact {
  /** Name of the cpio entry. */
  filename: string;
  /** Lowercase 64-hex sha256, or undefined when the description has none (or all zeros). */
  sha256: string | undefined;
  /** `images`, `files` or `scripts`. */
  list: (typeof ARTIFACT_LISTS)[number];
  /** Where it sits in the description, e.g. `software.stable.main.images[0]`. */
  location: string;
  type: string | undefined;
  /** `device` for images, `path` for files, when given. */
  target: string | undefined;
  installedDirectly: boolean;
}

export interface SwDescription {
  version: string | undefined;
  description: string | undefined;
  hardwareCompatibility: string[];
  artifacts: SwuArtifact[];
  /** The parsed `software` group. */
  software: LibconfigGroup;
}

const isGroup = (v: LibconfigValue | undefined): v is LibconfigGroup =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(message: string): never {
  throw new OtaError('OTA_SWU_DESCRIPTION', `sw-description: ${message}`);
}

function optString(g: LibconfigGroup, key: string, where: string): string | undefined {
  const v = g[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') bad(`${where}.${key} must be a string`);
  return v;
}

function collect(group: LibconfigGroup, where: string, out: SwuArtifact[], depth: number): void {
  if (depth > 16) return;
  for (const [key, value] of Object.entries(group)) {
    const list = ARTIFACT_LISTS.find((l) => l === key);
    if (list) {
      if (!Array.isArray(value)) bad(`${where}.${key} must be a list`);
      value.forEach((item, i) => {
        const at = `${where}.${key}[${i}]`;
        if (!isGroup(item)) bad(`${at} must be a group`);
        const filename = optString(item, 'filename', at);
        if (filename === undefined) return; // e.g. a script given inline, or an image made on the device
        if (filename === '' || filename.includes('/')) bad(`${at}.filename must be a plain file name`);
        const sha = optString(item, 'sha256', at);
        if (sha !== undefined && !/^[0-9a-fA-F]{64}$/.test(sha)) bad(`${at}.sha256 must be 64 hex digits`);
        const sha256 = sha === undefined || /^0+$/.test(sha) ? undefined : sha.toLowerCase();
        const direct = item['installed-directly'];
        out.push({
          filename,
          sha256,
          list,
          location: at,
          type: optString(item, 'type', at),
          target: optString(item, list === 'files' ? 'path' : 'device', at),
          installedDirectly: direct === true,
        });
      });
    } else if (isGroup(value)) {
      collect(value, `${where}.${key}`, out, depth + 1);
    }
  }
}

/** Parses sw-description text. Throws `OTA_LIBCONFIG_SYNTAX` or `OTA_SWU_DESCRIPTION`. */
export function parseSwDescription(text: string): SwDescription {
  const root = parseLibconfig(text);
  const software = root.software;
  if (!isGroup(software)) bad('no `software` group');
  const hw = software['hardware-compatibility'];
  let hardwareCompatibility: string[] = [];
  if (hw !== undefined) {
    if (!Array.isArray(hw) || !hw.every((x): x is string => typeof x === 'string')) {
      bad('software.hardware-compatibility must be an array of strings');
    }
    hardwareCompatibility = hw;
  }
  const artifacts: SwuArtifact[] = [];
  collect(software, 'software', artifacts, 0);
  return {
    version: optString(software, 'version', 'software'),
    description: optString(software, 'description', 'software'),
    hardwareCompatibility,
    artifacts,
    software,
  };
}
