// Harness self-check: a real WPA2 handshake between a home AP (hostapd) and a station
// (wpa_supplicant) on hwsim radios, then a DHCP lease. No appliance code.
import { run, say, startHomeAp, startUdhcpd, waitFor, writeFile } from './lib.mjs';

try {
  await startHomeAp({
    ns: 'home',
    iface: 'wlan0',
    ssid: 'HomeNet',
    passphrase: 'home-pass-1',
    address: '10.20.0.1/24',
    ctrl: '/run/hostapd-home0',
  });
  await startUdhcpd({
    ns: 'home',
    iface: 'wlan0',
    start: '10.20.0.50',
    end: '10.20.0.99',
    router: '10.20.0.1',
  });
  writeFile('/tmp/sta.conf', 'ctrl_interface=/run/wpa-device\nupdate_config=1\n');
  await run(
    'wpa_supplicant',
    ['-B', '-D', 'nl80211', '-i', 'wlan0', '-c', '/tmp/sta.conf', '-f', '/tmp/sta.log'],
    { ns: 'device' },
  );
  const W = (...a) => run('wpa_cli', ['-i', 'wlan0', '-p', '/run/wpa-device', ...a], { ns: 'device' });
  const id = (await W('add_network')).stdout.trim();
  await W('set_network', id, 'ssid', Buffer.from('HomeNet').toString('hex'));
  await W('set_network', id, 'psk', '"home-pass-1"');
  await W('enable_network', id);
  const c = await waitFor('COMPLETED', async () => /wpa_state=COMPLETED/.test((await W('status')).stdout), {
    timeoutMs: 60_000,
  });
  say(`station COMPLETED after ${c.tries} polls`);
  say((await W('signal_poll')).stdout.replace(/\n/g, ' '));
  await run('udhcpc', ['-i', 'wlan0', '-n', '-q', '-t', '10', '-T', '1', '-s', '/bin/true'], {
    ns: 'device',
    timeoutMs: 30_000,
  });
  say('lease obtained');
  process.exit(0);
} catch (e) {
  say('FAILED:', e.message);
  process.exit(1);
}
