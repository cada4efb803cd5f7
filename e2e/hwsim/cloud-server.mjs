// The reference cloud server of @waved/psp-cloud, as the device's cloud in the hwsim guest. It runs
// in the `home` namespace (bundled by e2e/hwsim/run with esbuild) and writes what it saw to a state
// file after every request, which the scenario reads from the device namespace:
//   node cloud-server.mjs <host> <port> <state.json> <serial> <factory secret>
// State: { requests: [{ route, count, at }], devices: [...], telemetry: [{ event, at }] }.
import fs from 'node:fs';
import { createCloudServer } from '@waved/psp-cloud/server';

const [host, port, stateFile, serial, secret] = process.argv.slice(2);
const requests = [];
const arrived = new Map(); // telemetry uuid -> time it was first seen
let server;

function save() {
  const telemetry = server.telemetry().map((e) => {
    if (!arrived.has(e.uuid)) arrived.set(e.uuid, Date.now());
    return { event: e.event, at: arrived.get(e.uuid) };
  });
  const state = { requests, devices: server.devices(), telemetry, rejections: server.rejections() };
  fs.writeFileSync(`${stateFile}.tmp`, JSON.stringify(state));
  fs.renameSync(`${stateFile}.tmp`, stateFile);
}

server = createCloudServer({
  devices: [{ serial, secret }],
  intercept(request) {
    requests.push({ route: request.route, count: request.count, at: Date.now() });
    queueMicrotask(save);
    return undefined;
  },
  onTelemetryBatch() {
    setImmediate(save);
  },
});
const listening = await server.listen({ host, port: Number(port) });
save();
setInterval(save, 1000);
console.log(`cloud server listening on ${listening.url}`);
process.on('SIGTERM', () => listening.close().then(() => process.exit(0)));
