// Throughput of @waved/psp-cloud against plain baselines measured in the same run (build first: npx tsup).
// 1. signing: signRequest + verifySignature vs one bare HMAC-SHA256 (node:crypto);
// 2. signed round trips to the reference server vs unsigned HEADs of the same server, same connection pool;
// 3. telemetry: events durably queued in SQLite (synchronous=FULL) and delivered, per second.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import * as cloud from '../dist/index.js';
import { createCloudServer } from '../dist/server.js';
import { createSqliteTelemetryStore } from '../dist/sqlite.js';

const rate = (n, ms) => ((n / ms) * 1000).toFixed(0).padStart(8);

// 1. signing
const N = 50_000;
let t = performance.now();
for (let i = 0; i < N; i++) {
  const s = cloud.signRequest({
    serial: 'S',
    deviceSecret: 'k'.repeat(64),
    salt: 'salt',
    method: 'GET',
    pathAndQuery: '/app/v1/common/upgrade/psp_firmware',
    bodySha256: cloud.EMPTY_BODY_SHA256,
    timestamp: 1_700_000_000,
    nonce: 'abcdefghijklmnop',
  });
  cloud.verifySignature({
    method: 'GET',
    pathAndQuery: '/app/v1/common/upgrade/psp_firmware',
    bodySha256: cloud.EMPTY_BODY_SHA256,
    headers: s.headers,
    deviceSecret: 'k'.repeat(64),
    salt: 'salt',
    nowSeconds: 1_700_000_000,
  });
}
const ours = performance.now() - t;
t = performance.now();
for (let i = 0; i < N; i++) crypto.createHmac('sha256', 'k'.repeat(64)).update(`GET\n/x\n${i}`).digest('hex');
const bare = performance.now() - t;
console.log(
  `sign+verify/s ${rate(N, ours)}   bare HMAC/s ${rate(N, bare)}   ratio ${(bare / ours).toFixed(2)}`,
);

// 2. round trips
const server = createCloudServer({
  devices: [{ serial: 'B', secret: 'f' }],
  requireSignedUpdateChecks: true,
  ota: { psp_firmware: { version: '9', data: new Uint8Array(64), fileName: 'p.swu' } },
});
const l = await server.listen();
const client = cloud.createCloudClient({
  baseUrl: l.url,
  credentials: cloud.createMemoryCredentialStore({ serial: 'B', registrationSecret: 'f' }),
  firmwareVersion: '1',
  signedUpdateChecks: true,
});
await client.register();
const R = 1500;
t = performance.now();
for (let i = 0; i < R; i++) await client.getUpdateDescriptor('psp_firmware');
const signed = performance.now() - t;
const agent = new Agent();
t = performance.now();
for (let i = 0; i < R; i++) {
  const r = await fetch(`${l.url}/app/v1/common/package/p.swu`, { method: 'HEAD', dispatcher: agent });
  await r.arrayBuffer();
}
const plain = performance.now() - t;
console.log(
  `signed GET/s  ${rate(R, signed)}   unsigned HEAD/s ${rate(R, plain)}   ratio ${(plain / signed).toFixed(2)}`,
);

// 3. telemetry
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'psp-cloud-bench-'));
const store = createSqliteTelemetryStore({ path: path.join(dir, 'q.db') });
const queue = cloud.createTelemetryQueue({
  store,
  send: (b) => client.sendTelemetry(b),
  serial: 'B',
  openUdid: 'u',
  common: { fw_ver: '1', evt_language: 'en', evt_timezone: 'UTC' },
  autoStart: false,
});
const E = 2000;
t = performance.now();
for (let i = 0; i < E; i++) await queue.track('ai_record_mark', { record_id: String(i) });
const tracked = performance.now() - t;
t = performance.now();
await queue.flush();
const delivered = performance.now() - t;
console.log(
  `telemetry: durable track/s ${rate(E, tracked)}   delivered/s (batches of 50) ${rate(E, delivered)}`,
);
await queue.close();
await store.close();
fs.rmSync(dir, { recursive: true, force: true });
await agent.close();
await client.close();
await l.close();
