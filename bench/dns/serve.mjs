// The server under test, in its own process like dnsmasq: prints {"port":N} once listening, and its
// stats on stderr when it gets SIGTERM. The rate limiter stays on (so its cost is measured) with a
// limit no single-source benchmark reaches.
import { createCaptiveDns } from '@waved/captive-dns';

const server = createCaptiveDns({
  answer: '192.168.2.1',
  address: '127.0.0.1',
  port: 0,
  rateLimit: { queriesPerSecond: 1e9 },
});
const { port } = await server.listen();
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', async () => {
  process.stderr.write(`${JSON.stringify(server.stats())}\n`);
  await server.close();
  process.exit(0);
});
