// Checks one HTTP request against its fixture, with the signature recomputed here from the text of
// docs/decisions.md ("cloud signature"), and a fake cloud on plain node:http that checks every
// request it gets. Independent of the package: no route table, no signing module, no server.
import crypto from 'node:crypto';
import http from 'node:http';
import { listenLoopback } from '@waved/test-lab';
import {
  type Base,
  describeMatcher,
  FACTORY_SECRET,
  FIXTURES,
  type Fixture,
  matches,
  PACKAGE_DOWNLOAD,
  signedVariant,
} from './fixtures.js';

export interface SeenRequest {
  method: string;
  /** Path and query exactly as sent, base prefix included (what the signature covers). */
  pathAndQuery: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface Keys {
  /** `device_secret` and `salt` the device was given at registration. */
  device?: { secret: string; salt: string };
  /** Tokens the cloud issued. */
  tokens?: ReadonlySet<string>;
}

/** `X-Signature` = hex HMAC-SHA256(device_secret, METHOD\npath?query\ntimestamp\nnonce\nsalt\nsha256hex(body)). */
export function hmacSignature(
  key: string,
  salt: string,
  r: Omit<SeenRequest, 'headers'>,
  ts: string,
  nonce: string,
) {
  const bodySha = crypto.createHash('sha256').update(r.body).digest('hex');
  const canonical = [r.method.toUpperCase(), r.pathAndQuery, ts, nonce, salt, bodySha].join('\n');
  return crypto.createHmac('sha256', key).update(canonical, 'utf8').digest('hex');
}

/** Every way `request` differs from `fixture` (empty when it matches). `path` is without the base prefix. */
export function checkRequest(
  fixture: Fixture,
  request: SeenRequest,
  path: string,
  keys: Keys = {},
): string[] {
  const problems: string[] = [];
  const where = `${fixture.name}:`;
  if (request.method !== fixture.method)
    problems.push(`${where} method ${request.method}, not ${fixture.method}`);
  const url = new URL(path, 'http://fixture.invalid');
  if (url.pathname !== fixture.path) problems.push(`${where} path ${url.pathname}, not ${fixture.path}`);
  const query = Object.fromEntries(url.searchParams);
  const wantQuery = fixture.query ?? {};
  for (const k of Object.keys(query)) if (!(k in wantQuery)) problems.push(`${where} unexpected query ${k}`);
  for (const [k, m] of Object.entries(wantQuery)) {
    if (!matches(m, query[k])) problems.push(`${where} query ${k}=${query[k]} is not ${describeMatcher(m)}`);
  }
  for (const [k, m] of Object.entries(fixture.headers)) {
    if (!matches(m, request.headers[k])) {
      problems.push(
        `${where} header ${k}: ${JSON.stringify(request.headers[k])} is not ${describeMatcher(m)}`,
      );
    }
  }
  for (const k of fixture.absent ?? []) {
    if (request.headers[k] !== undefined) problems.push(`${where} header ${k} must not be sent`);
  }
  // body
  const b = fixture.body;
  if (b.kind === 'none') {
    if (request.body.length > 0) problems.push(`${where} has a body`);
  } else if (b.kind === 'bytes') {
    if (request.body.length === 0) problems.push(`${where} has no bytes`);
    if (Number(request.headers['content-length']) !== request.body.length) {
      problems.push(`${where} content-length differs from the body`);
    }
  } else {
    let json: Record<string, unknown> | undefined;
    try {
      const v = JSON.parse(request.body.toString('utf8')) as unknown;
      if (typeof v === 'object' && v !== null && !Array.isArray(v)) json = v as Record<string, unknown>;
    } catch {}
    if (!json) {
      problems.push(`${where} the body is not a JSON object`);
    } else {
      const open = '*' in b.fields;
      for (const [k, m] of Object.entries(b.fields)) {
        if (k === '*') continue;
        if (!matches(m, json[k]))
          problems.push(`${where} body.${k}=${JSON.stringify(json[k])} is not ${describeMatcher(m)}`);
      }
      if (!open)
        for (const k of Object.keys(json))
          if (!(k in b.fields)) problems.push(`${where} unexpected body.${k}`);
    }
  }
  // authentication
  if (fixture.auth !== 'none') {
    const { 'x-timestamp': ts = '', 'x-nonce': nonce = '', 'x-signature': sig = '' } = request.headers;
    const key = fixture.auth === 'factory' ? FACTORY_SECRET : keys.device?.secret;
    const salt = fixture.auth === 'factory' ? '' : (keys.device?.salt ?? '');
    if (key === undefined) problems.push(`${where} signed before registration`);
    else if (hmacSignature(key, salt, request, ts, nonce) !== sig)
      problems.push(`${where} the signature does not verify`);
  }
  if (fixture.auth === 'token') {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    if (!token || !keys.tokens?.has(token)) problems.push(`${where} the bearer token was never issued`);
  }
  return problems;
}

/** A base URL the fake serves: `<url>/<environment>-<region>-<service>`. */
export function baseUrlFor(url: string, environment: string, region: string, service: Base): string {
  return `${url}/${environment}-${region}-${service}`;
}

export interface FakeCloud {
  url: string;
  /** Requests, in order, with the fixture each one matched. */
  seen: Array<{ fixture: string; environment: string; region: string; request: SeenRequest }>;
  problems: string[];
  keys: Required<Keys>;
  /** Bytes the fake holds of each upload. */
  uploads: Map<string, Buffer>;
  /** Hold signed update checks against the signed variant of their fixture (default: the plain one). */
  acceptSignedChecks: boolean;
  close(): Promise<void>;
}

/** A cloud that knows only the fixtures: it answers each request the way docs/decisions.md says. */
export async function startFakeCloud(): Promise<FakeCloud> {
  const tokens = new Set<string>();
  const keys: Required<Keys> = { device: { secret: '', salt: '' }, tokens };
  const seen: FakeCloud['seen'] = [];
  const problems: string[] = [];
  const uploads = new Map<string, Buffer>();
  const declared = new Map<string, { size: number; sha256: string; name: string; meeting: string }>();
  let url = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = String(v);
      const request: SeenRequest = {
        method: req.method ?? '',
        pathAndQuery: req.url ?? '',
        headers,
        body: Buffer.concat(chunks),
      };
      const m = /^\/(production|test)-(cn|us|eu)-(cloud|summary|telemetry)(\/.*)$/.exec(request.pathAndQuery);
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (!m) {
        problems.push(`request outside every base URL: ${request.method} ${request.pathAndQuery}`);
        return send(404);
      }
      const [, environment, region, service, path] = m as unknown as [string, string, string, Base, string];
      if (request.method === 'GET' && path.startsWith(PACKAGE_DOWNLOAD.pathPrefix)) return send(404);
      const pathname = path.split('?')[0];
      let fixture = FIXTURES.find((f) => f.path === pathname && f.method === request.method);
      if (fixture?.auth === 'none' && fake.acceptSignedChecks) fixture = signedVariant(fixture);
      if (!fixture) {
        problems.push(`no fixture for ${request.method} ${path}`);
        return send(404);
      }
      if (fixture.base !== service)
        problems.push(`${fixture.name}: sent to the ${service} URL, not ${fixture.base}`);
      const found = checkRequest(fixture, request, path, keys);
      problems.push(...found);
      seen.push({ fixture: fixture.name, environment, region, request });
      if (found.length > 0) return send(400, { error: { code: 'CONTRACT', message: found.join('; ') } });
      const json = () => JSON.parse(request.body.toString('utf8')) as Record<string, unknown>;
      switch (fixture.name.replace(' (signed)', '')) {
        case 'psp_firmware update check':
          return send(200, {
            version: '2.4.0',
            download_url: `${url}/${environment}-${region}-cloud${PACKAGE_DOWNLOAD.pathPrefix}fw-2.4.0.swu`,
            file_md5: 'd41d8cd98f00b204e9800998ecf8427e',
            descriptions: { en: { html_note: '<p>fix</p>' } },
            forced: false,
          });
        case 'psp_model update check':
          return send(204);
        case 'registration':
          keys.device = {
            secret: crypto.randomBytes(32).toString('hex'),
            salt: crypto.randomBytes(16).toString('hex'),
          };
          return send(200, { device_secret: keys.device.secret, salt: keys.device.salt });
        case 'token refresh': {
          const token = crypto.randomBytes(24).toString('base64url');
          tokens.add(token);
          return send(200, { token, expires_in: 3600 });
        }
        case 'password recovery: send code':
          return send(200, { sent: true });
        case 'password recovery: verify code':
          return send(200, { verified: true });
        case 'meeting file upload: start': {
          const b = json();
          const id = `up${declared.size + 1}`;
          declared.set(id, {
            size: b.size as number,
            sha256: b.sha256 as string,
            name: b.file_name as string,
            meeting: b.meeting_id as string,
          });
          uploads.set(id, Buffer.alloc(0));
          return send(200, { upload_id: id, received: 0, chunk_bytes: 65_536 });
        }
        case 'meeting file upload: chunk': {
          const q = new URL(path, 'http://x').searchParams;
          const id = q.get('upload_id') ?? '';
          const d = declared.get(id);
          const have = uploads.get(id);
          if (!d || !have) return send(404, { error: { code: 'UPLOAD_UNKNOWN', message: 'unknown' } });
          if (Number(q.get('offset')) !== have.length) {
            return send(409, {
              error: { code: 'OFFSET_MISMATCH', message: 'offset', received: have.length },
            });
          }
          const now = Buffer.concat([have, request.body]);
          uploads.set(id, now);
          if (now.length < d.size) return send(200, { received: now.length });
          const sha256 = crypto.createHash('sha256').update(now).digest('hex');
          return send(200, {
            received: now.length,
            complete: true,
            file_id: `${d.meeting}/${d.name}`,
            size: now.length,
            sha256,
          });
        }
        case 'upload completion':
          return send(200, { ok: true });
        case 'transcription start':
          return send(200, { task_id: 'task-1' });
        case 'telemetry':
          return send(200, { accepted: (json().events as unknown[]).length, duplicates: 0 });
        default:
          return send(200, { ok: true });
      }
    });
  });
  url = await listenLoopback(server);
  const fake: FakeCloud = {
    url,
    seen,
    problems,
    keys,
    uploads,
    acceptSignedChecks: false,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return fake;
}
