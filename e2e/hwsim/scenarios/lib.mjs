// Helpers for scenarios that run inside the hwsim guest (Node 24, busybox, iproute2, iw, hostapd,
// wpa_supplicant). Every step is timed and printed, so the guest log tells what happened and when.
import { execFile } from 'node:child_process';
import fs from 'node:fs';

const t0 = performance.now();
export function say(...args) {
  console.log(`[+${((performance.now() - t0) / 1000).toFixed(2)}s]`, ...args);
}

export function run(file, args, { ns, allowFail = false, timeoutMs = 20_000 } = {}) {
  const argv = ns ? ['ip', ['netns', 'exec', ns, file, ...args]] : [file, args];
  return new Promise((resolve, reject) => {
    execFile(argv[0], argv[1], { timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      if (err && !allowFail)
        reject(new Error(`${file} ${args.join(' ')} -> ${code}: ${stderr || err.message}`));
      else resolve({ stdout, stderr, code });
    });
  });
}

/**
 * Polls `check` until it returns a truthy value. A check that throws counts as "not yet", unless
 * `fatal` is set: then its error ends the wait at once (the thing waited on can no longer happen).
 * `progress`, when given, is read on each poll (a log's size, a count of events): while it changes,
 * the peer is still working (a loaded TCG guest is slow, not stuck), so the `timeoutMs` of silence
 * starts again, up to `capMs` in all.
 */
export async function waitFor(
  what,
  check,
  { timeoutMs = 30_000, intervalMs = 200, fatal = false, progress = null, capMs = 4 * timeoutMs } = {},
) {
  const start = performance.now();
  let deadline = start + timeoutMs;
  let seen = progress?.();
  let tries = 0;
  for (;;) {
    tries++;
    if (progress) {
      const now = progress();
      if (now !== seen) {
        seen = now;
        deadline = Math.min(performance.now() + timeoutMs, start + capMs);
      }
    }
    const v = await check().catch((error) => {
      if (fatal) throw error;
      return undefined;
    });
    if (v) return { value: v, tries };
    if (performance.now() > deadline)
      throw new Error(
        `timed out waiting for ${what} after ${tries} tries (${((performance.now() - start) / 1000).toFixed(0)} s)`,
      );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export function writeFile(path, text, mode = 0o600) {
  fs.writeFileSync(path, text, { mode });
}

/** hostapd WPA2-PSK AP in a namespace. */
export async function startHomeAp({ ns, iface, ssid, passphrase, channel = 6, address, ctrl }) {
  const conf = `/tmp/hostapd-${ns}-${iface}.conf`;
  writeFile(
    conf,
    `interface=${iface}\ndriver=nl80211\nctrl_interface=${ctrl}\nssid=${ssid}\nhw_mode=g\nchannel=${channel}\nwpa=2\nwpa_key_mgmt=WPA-PSK\nrsn_pairwise=CCMP\nwpa_passphrase=${passphrase}\n`,
  );
  await run('ip', ['addr', 'add', address, 'dev', iface], { ns });
  await run('ip', ['link', 'set', iface, 'up'], { ns });
  await run(
    'hostapd',
    ['-B', '-P', `/tmp/hostapd-${ns}-${iface}.pid`, '-f', `/tmp/hostapd-${ns}-${iface}.log`, conf],
    { ns },
  );
  return { conf, pidFile: `/tmp/hostapd-${ns}-${iface}.pid`, log: `/tmp/hostapd-${ns}-${iface}.log` };
}

/** busybox udhcpd on an interface in a namespace. */
export async function startUdhcpd({ ns, iface, start, end, router }) {
  const conf = `/tmp/udhcpd-${ns}-${iface}.conf`;
  writeFile(
    conf,
    `start ${start}\nend ${end}\ninterface ${iface}\nlease_file /tmp/udhcpd-${ns}-${iface}.leases\npidfile /tmp/udhcpd-${ns}-${iface}.pid\nopt router ${router}\nopt subnet 255.255.255.0\nopt lease 3600\n`,
  );
  fs.writeFileSync(`/tmp/udhcpd-${ns}-${iface}.leases`, '');
  await run('udhcpd', [conf], { ns });
}

export function killPidFile(path) {
  try {
    process.kill(Number(fs.readFileSync(path, 'utf8').trim()), 'SIGTERM');
  } catch {}
}

/** Seconds since the guest booted (its own clock, /proc/uptime). */
export function uptime() {
  return Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
}

/** Every line of a stream, to a callback (the device's stdout and stderr). */
export function eachLine(stream, fn) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    rest += chunk;
    let i = rest.indexOf('\n');
    while (i >= 0) {
      fn(rest.slice(0, i));
      rest = rest.slice(i + 1);
      i = rest.indexOf('\n');
    }
  });
  stream.on('end', () => rest && fn(rest));
}

/** A wpa_supplicant station in a namespace; returns its wpa_cli and its pid file. */
export async function startStation({ ns, iface = 'wlan0', conf, name }) {
  const cfg = `/tmp/${name}-wpa.conf`;
  writeFile(cfg, `ctrl_interface=/run/wpa-${name}\n${conf}`);
  await run(
    'wpa_supplicant',
    [
      '-B',
      '-D',
      'nl80211',
      '-i',
      iface,
      '-c',
      cfg,
      '-P',
      `/tmp/${name}-wpa.pid`,
      '-f',
      `/tmp/${name}-wpa.log`,
    ],
    { ns },
  );
  const cli = (...a) => run('wpa_cli', ['-i', iface, '-p', `/run/wpa-${name}`, ...a], { ns });
  return { cli, pidFile: `/tmp/${name}-wpa.pid`, log: `/tmp/${name}-wpa.log` };
}
