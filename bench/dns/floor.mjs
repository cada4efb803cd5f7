// The floor for any responder built on node:dgram (BENCH_FLOOR=1): no parsing, no policy, no rate
// limit, no TCP. It turns each datagram into a reply by flipping the header and appending a fixed A
// record, and sends it back. Not a DNS server (it answers anything, malformed or not): it only
// shows what Node's UDP machinery costs per query, next to @waved/captive-dns and dnsmasq.
import dgram from 'node:dgram';

const answer = Buffer.from([0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4, 192, 168, 2, 1]);
const socket = dgram.createSocket({ type: 'udp4', lookup: (address, _family, cb) => cb(null, address, 4) });
socket.on('message', (query, rinfo) => {
  const reply = Buffer.allocUnsafe(query.length + answer.length);
  query.copy(reply);
  answer.copy(reply, query.length);
  reply[2] = 0x84 | (query[2] & 1);
  reply[3] = 0x80;
  reply[7] = 1;
  socket.send(reply, rinfo.port, rinfo.address);
});
socket.bind(0, '127.0.0.1', () =>
  process.stdout.write(`${JSON.stringify({ port: socket.address().port })}\n`),
);
process.on('SIGTERM', () => socket.close(() => process.exit(0)));
