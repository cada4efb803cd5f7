import fs from 'node:fs';
import path from 'node:path';
import { exec } from '@waved/test-lab';

export interface TestPki {
  caCert: string;
  serverCert: string;
  serverKey: string;
  /** A self-signed CMS signer with no EKU (accepted by swupdate's default purpose). */
  signerCert: string;
  signerKey: string;
  /** A second, unrelated signer. */
  otherCert: string;
  otherKey: string;
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

/** A throw-away CA with a loopback server certificate, and two CMS signers, made with openssl. */
export async function makePki(dir: string): Promise<TestPki> {
  const p = (n: string) => path.join(dir, n);
  await exec('openssl', [
    'req',
    '-x509',
    ...EC,
    '-keyout',
    p('ca.key'),
    '-out',
    p('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/O=waved test/CN=waved test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  await exec('openssl', [
    'req',
    ...EC,
    '-keyout',
    p('srv.key'),
    '-out',
    p('srv.csr'),
    '-subj',
    '/CN=localhost',
  ]);
  fs.writeFileSync(p('srv.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  await exec('openssl', [
    'x509',
    '-req',
    '-in',
    p('srv.csr'),
    '-CA',
    p('ca.pem'),
    '-CAkey',
    p('ca.key'),
    '-CAcreateserial',
    '-out',
    p('srv.pem'),
    '-days',
    '2',
    '-extfile',
    p('srv.ext'),
  ]);
  for (const who of ['signer', 'other']) {
    await exec('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      p(`${who}.key`),
      '-out',
      p(`${who}.pem`),
      '-days',
      '2',
      '-subj',
      `/O=waved test/CN=${who}`,
    ]);
  }
  return {
    caCert: p('ca.pem'),
    serverCert: p('srv.pem'),
    serverKey: p('srv.key'),
    signerCert: p('signer.pem'),
    signerKey: p('signer.key'),
    otherCert: p('other.pem'),
    otherKey: p('other.key'),
  };
}
