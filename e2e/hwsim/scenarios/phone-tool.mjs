// Run inside the phone namespace of the hwsim guest: the requests a phone makes on a captive network.
//   node phone-tool.mjs get <url>                 -> JSON { status, headers, body }
//   node phone-tool.mjs post <url> <urlencoded>   -> JSON { status, headers, body }
//   node phone-tool.mjs dns <name> <server>       -> JSON { a: [...], aaaa: [...] }
// No redirect is followed: the phone's captive check looks at the first answer.
import dns from 'node:dns/promises';
import http from 'node:http';

const [cmd, a, b] = process.argv.slice(2);

function request(method, url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        headers: body
          ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) }
          : { 'user-agent': 'Mozilla/5.0 (Linux; Android 14) waved-e2e' },
        timeout: 40_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

try {
  let out;
  if (cmd === 'get') out = await request('GET', a);
  else if (cmd === 'post') out = await request('POST', a, b);
  else if (cmd === 'dns') {
    const r = new dns.Resolver({ timeout: 3000, tries: 3 });
    r.setServers([b]);
    const aRec = await r.resolve4(a);
    const aaaa = await r.resolve6(a).catch((e) => e.code);
    out = { a: aRec, aaaa };
  } else throw new Error(`unknown command ${cmd}`);
  process.stdout.write(JSON.stringify(out));
} catch (error) {
  process.stdout.write(JSON.stringify({ error: String(error?.message ?? error) }));
  process.exitCode = 1;
}
