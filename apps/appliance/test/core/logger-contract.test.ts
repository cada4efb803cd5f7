import { createDhcpServer } from '@waved/dhcp-server';
import { describe, expect, it } from 'vitest';
import { createLogger, type Logger, scopedLogger, silentLogger } from '../../src/core/log/logger.js';

function lines() {
  const out: string[] = [];
  const { logger, secrets } = createLogger({ level: 4, write: (line) => out.push(line) });
  return { out, logger, secrets };
}

describe('the appliance logger is the one Logger contract of the packages', () => {
  it('goes to a package as it is, and the fields the package passes reach the line, redacted', async () => {
    const { out, logger, secrets } = lines();
    secrets.add('s3cret-token-value');
    // a package takes the appliance's logger with no adapter in between
    const server = createDhcpServer({
      serverAddress: '127.0.0.1',
      netmask: '255.0.0.0',
      range: ['127.0.0.2', '127.0.0.9'],
      port: 0,
      listenAddress: '127.0.0.1',
      logger,
    });
    await server.listen();
    await server.close();
    logger.warn?.('store write failed', { code: 'ENOSPC', token: 's3cret-token-value' });
    const text = out.join('');
    expect(text).toMatch(/WARN store write failed .*ENOSPC/);
    expect(text).not.toContain('s3cret-token-value');
  });

  it('scopedLogger prefixes, passes fields on and maps a level only where asked', () => {
    const { out, logger } = lines();
    const scoped = scopedLogger(logger, 'telemetry', { warn: 'debug' });
    scoped.warn?.('retrying', { attempt: 2 });
    scoped.error?.('gave up');
    expect(out[0]).toMatch(/ DEBUG telemetry: retrying \{ attempt: 2 \}\n$/);
    expect(out[1]).toMatch(/ ERROR telemetry: gave up\n$/);
  });

  it('a logger with only some levels (or none) is silent for the others', () => {
    const errors: string[] = [];
    const partial: Logger = { error: (m) => errors.push(m) };
    const scoped = scopedLogger(partial, 'ota');
    expect(() => {
      scoped.debug?.('quiet');
      scoped.info?.('quiet');
      scoped.error?.('loud');
      scopedLogger(silentLogger, null).warn?.('nothing');
    }).not.toThrow();
    expect(errors).toEqual(['ota: loud']);
  });
});
