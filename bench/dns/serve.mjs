// The server under test, in its own process like dnsmasq: prints {"port":N,"transport":…} once
// listening, and its stats on stderr when it gets SIGTERM. The rate limiter stays on (so its cost is
// measured) with a limit no single-source benchmark reaches. argv[2]: the `transport` option
// (default: the package default, 'auto').
import { createCaptiveDns } from '@waved/captive-dns';

const server = createCaptiveDns({
  answer: '192.168.2.1',
  address: '127.0.0.1',
  port: 0,
  rateLimit: { queriesPerSecond: 1e9 },
  ...(process.argv[2] ? { transport: process.argv[2] } : {}),
});
const { port } = await server.listen();
process.stdout.write(`${JSON.stringify({ port, transport: server.transport })}\n`);
process.on('SIGTERM', async () => {
  process.stderr.write(`${JSON.stringify(server.stats())}\n`);
  await server.close();
  process.exit(0);
});
