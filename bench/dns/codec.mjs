// In-process comparison of the two ways to build a reply: the responder's template path (copy the
// question, patch the header, append a prebuilt A record) against a dns-packet decode + encode per
// query, which is what a responder built on dns-packet alone does. No sockets: codec cost only.
import { createCaptiveDnsResponder } from '@waved/captive-dns';
import dnsPacket from 'dns-packet';

function viaDnsPacket(query) {
  const q = dnsPacket.decode(query);
  const question = q.questions[0];
  return dnsPacket.encode({
    type: 'response',
    id: q.id,
    flags:
      dnsPacket.AUTHORITATIVE_ANSWER |
      dnsPacket.RECURSION_AVAILABLE |
      (q.flags & dnsPacket.RECURSION_DESIRED),
    questions: q.questions,
    answers: [{ type: 'A', name: question.name, ttl: 0, data: '192.168.2.1' }],
  });
}

export function codecBench(n = 200_000) {
  const queries = ['connectivitycheck.gstatic.com', 'captive.apple.com', 'www.msftconnecttest.com'].map(
    (name, i) =>
      dnsPacket.encode({
        type: 'query',
        id: i,
        flags: dnsPacket.RECURSION_DESIRED,
        questions: [{ name, type: 'A' }],
      }),
  );
  const responder = createCaptiveDnsResponder({ answer: '192.168.2.1' });
  const a = responder.respond(queries[0]);
  const b = viaDnsPacket(queries[0]);
  if (dnsPacket.decode(a).answers[0].data !== dnsPacket.decode(b).answers[0].data)
    throw new Error('codec paths disagree');
  const time = (fn) => {
    for (let i = 0; i < 20_000; i++) fn(queries[i % 3]); // warm-up
    const t = performance.now();
    for (let i = 0; i < n; i++) fn(queries[i % 3]);
    return (n / (performance.now() - t)) * 1000;
  };
  return { template: time((q) => responder.respond(q)), dnsPacket: time(viaDnsPacket) };
}
