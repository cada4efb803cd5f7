// Our server for the benchmark, run inside the `ap` namespace by run.mjs. argv: <interface> [store file]
import { createDhcpServer, createFileLeaseStore } from '@waved/dhcp-server';

const [iface = 'ap0', storeFile] = process.argv.slice(2);
const server = createDhcpServer({
  serverAddress: '192.168.2.1',
  netmask: '255.255.255.0',
  range: ['192.168.2.50', '192.168.2.200'],
  leaseSeconds: 43200,
  router: '192.168.2.1',
  dns: '192.168.2.1',
  captivePortalUri: 'http://192.168.2.1/',
  interface: iface,
  ...(storeFile ? { store: createFileLeaseStore(storeFile) } : {}),
});
await server.listen();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await server.close();
  process.stdout.write(`${JSON.stringify(server.stats())}\n`);
  process.exit(0);
});
