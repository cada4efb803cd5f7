// A cloud written from the specification's text (Endpoints B, Authentication B, B1) and, where it
// says "not shown", from docs/decisions.md (@waved/psp-cloud paths, signature, uploads). Plain
// node:http with its own HMAC check: it shares no route table, signing module or server code with
// @waved/psp-cloud, so the appliance is held against the text, not against our reference server.
import crypto from 'node:crypto';
import http from 'node:http';
import { listenLoopback, SPEC_CLOUD_POST_HEADERS } from '@waved/test-lab';

export type Env = 'production' | 'test';
type Region = 'cn' | 'us' | 'eu';
type Service = 'cloud' | 'summary' | 'telemetry';

interface SeenRequest {
  method: string;
  environment: Env;
  region: Region;
  service: Service;
  /** Path and query below the base URL. */
  path: string;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/** A package the fake serves under `{cloud_url}/app/v1/common/package/<name>`, with Range (curl -C -). */
interface ServedPackage {
  data: Buffer;
  /** Send this many body bytes, once, then hold the connection open until `cut()`. */
  holdAfter?: number;
  /** While true, GETs of the package are answered 503. */
  down?: boolean;
  held?: http.ServerResponse;
}

/** What a check answers: a B1 descriptor (`download_url` may be a package name), or nothing (204). */
type Offer = {
  version: string;
  package: string;
  file_md5?: string;
  query?: string;
  forced?: boolean;
  notes?: string;
} | null;

export interface SpecCloud {
  url: string;
  seen: SeenRequest[];
  /** Every request that broke the text, in words (a test expects none). */
  problems: string[];
  offers: Record<'psp_firmware' | 'psp_model', Offer>;
  packages: Map<string, ServedPackage>;
  /** Close the connection of the upload chunk request with this 1-based number (once). */
  cutChunk: number | null;
  /** Bytes held per upload id. */
  uploads: Map<string, Buffer>;
  /** The base URLs of every area, in the shape of the device profile's `[cloud]` tables. */
  hosts(): Record<Env, Record<Region, Record<Service, string>>>;
  /** Cuts the held download of a package (a lost connection); the server is then down (503). */
  cut(name: string): void;
  /** GETs of a package, by name. */
  packageGets(name: string): SeenRequest[];
  close(): Promise<void>;
}

const SPEC_SERIAL = 'PSP0001';
const SPEC_FACTORY_SECRET = 'factory-secret';

/** decisions, "cloud signature": hex HMAC-SHA256(key, METHOD\npath?query\ntimestamp\nnonce\nsalt\nsha256hex(body)). */
function signature(
  key: string,
  salt: string,
  method: string,
  pathAndQuery: string,
  h: SeenRequest['headers'],
  body: Buffer,
) {
  const text = [
    method,
    pathAndQuery,
    h['x-timestamp'],
    h['x-nonce'],
    salt,
    crypto.createHash('sha256').update(body).digest('hex'),
  ].join('\n');
  return crypto.createHmac('sha256', key).update(text).digest('hex');
}

export async function startSpecCloud(): Promise<SpecCloud> {
  const seen: SeenRequest[] = [];
  const problems: string[] = [];
  const packages = new Map<string, ServedPackage>();
  const uploads = new Map<string, Buffer>();
  const declared = new Map<string, { key: string; size: number; meeting: string; name: string }>();
  let device: { secret: string; salt: string } | null = null;
  const tokens = new Set<string>();
  let chunks = 0;
  let url = '';

  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const raw = req.url ?? '';
      const m = /^\/(production|test)-(cn|us|eu)-(cloud|summary|telemetry)(\/.*)$/.exec(raw);
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (!m) {
        problems.push(`outside every base URL: ${req.method} ${raw}`);
        return send(404);
      }
      const r: SeenRequest = {
        method: req.method ?? '',
        environment: m[1] as Env,
        region: m[2] as Region,
        service: m[3] as Service,
        path: m[4]!,
        headers: req.headers as Record<string, string | undefined>,
        body: Buffer.concat(parts),
      };
      seen.push(r);
      const pathname = r.path.split('?')[0]!;
      const where = (service: Service) => {
        if (r.service !== service)
          problems.push(`${r.method} ${pathname} sent to the ${r.service} URL, not ${service}`);
      };
      const signed = (key: string | undefined, salt: string) => {
        for (const [k, v] of Object.entries(SPEC_CLOUD_POST_HEADERS)) {
          if (r.method === 'POST' && r.headers[k] !== v)
            problems.push(`${pathname}: header ${k} is ${r.headers[k]}`);
        }
        if (r.headers['x-device-serial'] !== SPEC_SERIAL) problems.push(`${pathname}: X-Device-Serial`);
        if (!/^[a-z]{16}$/.test(r.headers['x-nonce'] ?? '')) problems.push(`${pathname}: X-Nonce`);
        if (key === undefined) problems.push(`${pathname}: signed before registration`);
        else if (signature(key, salt, r.method, raw, r.headers, r.body) !== r.headers['x-signature'])
          problems.push(`${pathname}: the signature does not verify`);
      };
      const bearer = () => {
        const token = /^Bearer (.+)$/.exec(r.headers.authorization ?? '')?.[1];
        if (!token || !tokens.has(token)) problems.push(`${pathname}: no token the cloud issued`);
      };
      const json = () => JSON.parse(r.body.toString('utf8') || 'null') as Record<string, unknown>;

      // spec Endpoints B: the two update checks, a plain GET with two headers
      const check = /^\/app\/v1\/common\/upgrade\/(psp_firmware|psp_model)$/.exec(pathname);
      if (r.method === 'GET' && check) {
        where('cloud');
        for (const h of ['authorization', 'x-signature', 'content-length'])
          if (r.headers[h] !== undefined) problems.push(`${pathname}: ${h} on a plain GET`);
        const offer = fake.offers[check[1] as 'psp_firmware' | 'psp_model'];
        if (!offer) return send(204);
        const pkg = packages.get(offer.package);
        return send(200, {
          version: offer.version,
          download_url: `${url}/${r.environment}-${r.region}-cloud/app/v1/common/package/${offer.package}${offer.query ?? ''}`,
          file_md5:
            offer.file_md5 ??
            crypto
              .createHash('md5')
              .update(pkg?.data ?? '')
              .digest('hex'),
          descriptions: { en: { html_note: offer.notes ?? `<p>${offer.version}</p>` } },
          forced: offer.forced ?? false,
        });
      }
      // decisions: the package download, resumable (spec: curl -C -)
      const pkgName = /^\/app\/v1\/common\/package\/([^/?]+)$/.exec(pathname)?.[1];
      if (r.method === 'GET' && pkgName !== undefined) {
        where('cloud');
        const pkg = packages.get(pkgName);
        if (!pkg) return send(404);
        if (pkg.down) return send(503);
        const range = /^bytes=(\d+)-$/.exec(r.headers.range ?? '');
        const from = range ? Number(range[1]) : 0;
        const body = pkg.data.subarray(from);
        res.writeHead(range ? 206 : 200, {
          'content-type': 'application/octet-stream',
          'content-length': String(body.length),
          'accept-ranges': 'bytes',
          ...(range ? { 'content-range': `bytes ${from}-${pkg.data.length - 1}/${pkg.data.length}` } : {}),
        });
        if (pkg.holdAfter !== undefined && pkg.holdAfter < body.length) {
          res.write(body.subarray(0, pkg.holdAfter));
          delete pkg.holdAfter;
          pkg.held = res;
          return;
        }
        res.end(body);
        return;
      }
      if (r.method === 'POST' && pathname === '/summary-service/device/secret/register') {
        where('summary');
        signed(SPEC_FACTORY_SECRET, '');
        const b = json();
        if (b.client_version !== 'PSP_0.3.19' || b.serial !== SPEC_SERIAL || b.secret !== SPEC_FACTORY_SECRET)
          problems.push(`registration body ${JSON.stringify(Object.keys(b))}`);
        device = {
          secret: crypto.randomBytes(32).toString('hex'),
          salt: crypto.randomBytes(16).toString('hex'),
        };
        return send(200, { device_secret: device.secret, salt: device.salt });
      }
      if (r.method === 'POST' && pathname === '/summary-service/device/token/refresh') {
        where('summary');
        signed(device?.secret, device?.salt ?? '');
        const b = json();
        const area = `${url}/${r.environment}-${r.region}-summary`;
        if (b.area_url !== area) problems.push(`token refresh: area_url ${String(b.area_url)}, not ${area}`);
        if (!/^[a-z]{16}$/.test(String(b.nonce))) problems.push('token refresh: nonce');
        const token = crypto.randomBytes(24).toString('base64url');
        tokens.add(token);
        return send(200, { token, expires_in: 3600 });
      }
      if (r.method === 'POST' && pathname === '/analytics/v1/events') {
        where('telemetry');
        signed(device?.secret, device?.salt ?? '');
        const b = json();
        if (b.app_id !== 10000022 || b.user_unique_id !== SPEC_SERIAL)
          problems.push('telemetry: app id or user id');
        return send(200, { accepted: (b.events as unknown[]).length, duplicates: 0 });
      }
      if (r.method === 'POST' && pathname === '/summary-service/meeting/file/upload/start') {
        where('summary');
        signed(device?.secret, device?.salt ?? '');
        bearer();
        const b = json();
        const key = `${b.meeting_id}/${b.file_name}/${b.size}/${b.sha256}`;
        // the same file finds its upload again
        let id = [...declared].find(([, d]) => d.key === key)?.[0];
        if (!id) {
          id = `up${declared.size + 1}`;
          declared.set(id, {
            key,
            size: b.size as number,
            meeting: b.meeting_id as string,
            name: b.file_name as string,
          });
          uploads.set(id, Buffer.alloc(0));
        }
        return send(200, { upload_id: id, received: uploads.get(id)!.length, chunk_bytes: 65_536 });
      }
      if (r.method === 'PUT' && pathname === '/summary-service/meeting/file/upload/chunk') {
        where('summary');
        signed(device?.secret, device?.salt ?? '');
        bearer();
        if (r.headers['content-type'] !== 'application/octet-stream') problems.push('chunk: content-type');
        chunks++;
        if (fake.cutChunk === chunks) {
          fake.cutChunk = null;
          // the chunk is lost with its connection: nothing stored, nothing acknowledged
          req.socket.destroy();
          return;
        }
        const q = new URL(r.path, 'http://x').searchParams;
        const id = q.get('upload_id') ?? '';
        const d = declared.get(id);
        const have = uploads.get(id);
        if (!d || !have) return send(404, { error: { code: 'UPLOAD_UNKNOWN', message: 'unknown upload' } });
        if (Number(q.get('offset')) !== have.length)
          return send(409, { error: { code: 'OFFSET_MISMATCH', message: 'offset', received: have.length } });
        const now = Buffer.concat([have, r.body]);
        uploads.set(id, now);
        if (now.length < d.size) return send(200, { received: now.length });
        return send(200, {
          received: now.length,
          complete: true,
          file_id: `${d.meeting}/${d.name}`,
          size: now.length,
          sha256: crypto.createHash('sha256').update(now).digest('hex'),
        });
      }
      if (r.method === 'POST' && pathname === '/summary-service/meeting/file/complete') {
        where('summary');
        signed(device?.secret, device?.salt ?? '');
        bearer();
        return send(200, { ok: true });
      }
      if (r.method === 'POST' && pathname === '/summary-service/meeting/transcription/start') {
        where('summary');
        signed(device?.secret, device?.salt ?? '');
        bearer();
        return send(200, { task_id: 'task-1' });
      }
      // spec Events B: the meeting notices during transcription; paths and bodies: decisions
      if (
        r.method === 'POST' &&
        [
          '/summary-service/meeting/asr/notice',
          '/summary-service/meeting/words/sync',
          '/summary-service/meeting/dot/notice',
        ].includes(pathname)
      ) {
        where('summary');
        signed(device?.secret, device?.salt ?? '');
        bearer();
        if (typeof json().meeting_id !== 'string') problems.push(`${pathname}: no meeting_id`);
        return send(200, { ok: true });
      }
      if (r.method === 'POST' && pathname.startsWith('/summary/service/device/password/recover/')) {
        where('summary');
        signed(device?.secret, device?.salt ?? '');
        bearer();
        return send(200, pathname.endsWith('/sendcode') ? { sent: true } : { verified: true });
      }
      problems.push(`no such request in the text: ${r.method} ${pathname}`);
      return send(404);
    });
  });
  url = await listenLoopback(server);
  const fake: SpecCloud = {
    url,
    seen,
    problems,
    offers: { psp_firmware: null, psp_model: null },
    packages,
    cutChunk: null,
    uploads,
    hosts() {
      const table = {} as Record<Env, Record<Region, Record<Service, string>>>;
      for (const env of ['production', 'test'] as const) {
        table[env] = {} as Record<Region, Record<Service, string>>;
        for (const region of ['cn', 'us', 'eu'] as const) {
          table[env][region] = {
            cloud: `${url}/${env}-${region}-cloud`,
            summary: `${url}/${env}-${region}-summary`,
            telemetry: `${url}/${env}-${region}-telemetry`,
          };
        }
      }
      return table;
    },
    cut(name) {
      const pkg = packages.get(name);
      if (!pkg) return;
      pkg.down = true;
      pkg.held?.destroy();
      delete pkg.held;
    },
    packageGets: (name) =>
      seen.filter((s) => s.method === 'GET' && s.path.split('?')[0] === `/app/v1/common/package/${name}`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return fake;
}
