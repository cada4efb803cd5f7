/**
 * What waved needs from `wpa_supplicant.conf`: a control interface in the directory the
 * appliance talks to, and `update_config=1` so `save_config` can store provisioned profiles.
 * Pure text functions; the adapter reads and writes the file.
 */

export interface WpaConfigIssue {
  /** `ctrl_interface` or `update_config`. */
  key: string;
  /** What is wrong and the line that fixes it. */
  message: string;
}

/** The `DIR=` of a `ctrl_interface` value (`DIR=/run/wpa_supplicant GROUP=netdev` or a bare path). */
export function ctrlInterfaceDir(value: string): string {
  const v = value.trim();
  const m = /(?:^|\s)DIR=(\S+)/.exec(v);
  return (m ? m[1]! : (v.split(/\s+/)[0] ?? '')).replace(/\/+$/, '');
}

/** Global (outside `network={}`) `key=value` lines. */
function globals(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let depth = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (/^network\s*=\s*\{/.test(line)) {
      depth++;
      continue;
    }
    if (line === '}') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth > 0) continue;
    const eq = line.indexOf('=');
    if (eq > 0) out.set(line.slice(0, eq).trim(), line.slice(eq + 1).trim());
  }
  return out;
}

/** Checks a config against what waved needs; every issue names the line to write. */
export function checkWpaConfig(text: string, options: { ctrlDir: string; path: string }): WpaConfigIssue[] {
  const g = globals(text);
  const want = options.ctrlDir.replace(/\/+$/, '');
  const issues: WpaConfigIssue[] = [];
  const ctrl = g.get('ctrl_interface');
  if (ctrl === undefined) {
    issues.push({
      key: 'ctrl_interface',
      message: `${options.path} has no ctrl_interface: add the line "ctrl_interface=DIR=${want} GROUP=root"`,
    });
  } else if (ctrlInterfaceDir(ctrl) !== want) {
    issues.push({
      key: 'ctrl_interface',
      message: `${options.path} says ctrl_interface=${ctrl}, but waved talks to ${want}: change it to "ctrl_interface=DIR=${want} GROUP=root" (or set wifi.ctrl_dir in the device profile to ${ctrlInterfaceDir(ctrl)})`,
    });
  }
  if (g.get('update_config') !== '1') {
    issues.push({
      key: 'update_config',
      message: `${options.path} needs "update_config=1", or provisioned networks cannot be saved`,
    });
  }
  return issues;
}

/** A minimal config for a device that has none (written 0600). */
export function minimalWpaConfig(options: { ctrlDir: string; country?: string }): string {
  const lines = [
    '# Written by waved: station profiles are added by the setup portal.',
    `ctrl_interface=DIR=${options.ctrlDir.replace(/\/+$/, '')} GROUP=root`,
    'update_config=1',
  ];
  if (options.country && options.country !== '00') lines.push(`country=${options.country}`);
  return `${lines.join('\n')}\n`;
}

/**
 * The config with its global `country=` set to `country` (or removed for `00`, the world
 * domain); null when nothing changes. Network blocks and every other line stay as they are.
 */
export function withCountry(text: string, country: string): string | null {
  const lines = text.split('\n');
  let depth = 0;
  let found = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (/^network\s*=\s*\{/.test(line)) depth++;
    else if (line === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0 && /^country\s*=/.test(line)) found = i;
  }
  const wanted = country === '00' ? null : `country=${country}`;
  if (found >= 0) {
    if (wanted === null) lines.splice(found, 1);
    else if (lines[found]!.trim() === wanted) return null;
    else lines[found] = wanted;
    return lines.join('\n');
  }
  if (wanted === null) return null;
  // before the first network block, after the global lines
  const firstNetwork = lines.findIndex((l) => /^\s*network\s*=\s*\{/.test(l));
  if (firstNetwork < 0) return `${text.replace(/\n*$/, '\n')}${wanted}\n`;
  lines.splice(firstNetwork, 0, wanted);
  return lines.join('\n');
}
