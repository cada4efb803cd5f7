// How long the station's scan waits: until wpa_supplicant reports the scan finished, bounded by
// scanWaitMs. The daemon's side is a stand-in control socket that answers ATTACH and sends
// CTRL-EVENT-SCAN-RESULTS when the stand-in radio finishes; the results come from a stand-in wpa_cli.
import { createUnixDatagramSocket } from '@waved/native';
import { tempDir } from '@waved/test-lab';
import { parseScanResults, type WpaCli } from '@waved/wpa-cli';
import { afterAll, afterEach, expect, it } from 'vitest';
import { createWpaStation } from '../../src/adapters/system/wpa-station.js';

const dir = tempDir('waved-scan-');
afterAll(() => dir.remove());
const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

const HOME = parseScanResults(
  'bssid / frequency / signal level / flags / ssid\n02:00:00:00:01:00\t2412\t-40\t[WPA2-PSK-CCMP][ESS]\tHomeNet\n',
);

/** A radio whose scan takes `scanMs`: its results hold HomeNet only once the scan is over. */
function setup(name: string, scanMs: number, scanWaitMs: number, sendEvent = true) {
  const daemon = createUnixDatagramSocket();
  daemon.bind(dir.join(name));
  let monitor = '';
  daemon.on('message', (data, from) => {
    const text = data.toString();
    if (text === 'ATTACH') monitor = from;
    daemon.send(text === 'PING' ? 'PONG\n' : 'OK\n', from);
  });
  let doneAt = Number.POSITIVE_INFINITY;
  const cli = {
    async scan() {
      doneAt = Date.now() + scanMs;
      setTimeout(() => {
        if (sendEvent && monitor) daemon.send('<3>CTRL-EVENT-SCAN-RESULTS ', monitor);
      }, scanMs);
    },
    async scanResults() {
      return Date.now() >= doneAt ? HOME : [];
    },
  } as unknown as WpaCli;
  const station = createWpaStation({
    iface: name,
    ctrlDir: dir.path,
    configPath: dir.join('wpa.conf'),
    cli,
    scanWaitMs,
  });
  closers.push(
    () => station.close(),
    () => daemon.close(),
  );
  return station;
}

it('reads the results when the scan reports it finished: a scan longer than a fixed 3 s wait still lists the network', async () => {
  const station = setup('wl1', 3500, 30_000);
  const t0 = Date.now();
  const networks = await station.scan();
  const took = Date.now() - t0;
  expect(networks.map((n) => n.ssid)).toEqual(['HomeNet']);
  expect(took).toBeGreaterThanOrEqual(3400);
  expect(took).toBeLessThan(10_000); // not the 30 s bound
});

it('a quick scan returns as soon as it is over, not after the bound', async () => {
  const station = setup('wl2', 200, 30_000);
  const t0 = Date.now();
  expect((await station.scan()).map((n) => n.ssid)).toEqual(['HomeNet']);
  expect(Date.now() - t0).toBeLessThan(5_000);
});

it('without the event, the results are read at the bound', async () => {
  const station = setup('wl3', 200, 1_000, false);
  const t0 = Date.now();
  expect((await station.scan()).map((n) => n.ssid)).toEqual(['HomeNet']);
  expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
});
