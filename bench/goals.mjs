// The goals our figures are held to, each a ratio ours / peer from bench/results/<bench>.json
// (`figures[figure].ratio`). `npm run bench -- --check` compares them and exits 1 on a miss or a
// missing result. If ours falls short, make ours faster; never change the comparison.
export const goals = [
  {
    bench: 'dhcp',
    figure: 'cpuPerExchange',
    op: '<=',
    value: 1.0,
    label: 'DHCP server CPU per exchange',
    peer: 'dnsmasq --quiet-dhcp',
  },
  {
    bench: 'dhcp',
    figure: 'rateAtZeroDrops',
    op: '>=',
    value: 1.0,
    label: 'DHCP exchanges/s at 0 % drops',
    peer: 'dnsmasq --quiet-dhcp',
  },
  { bench: 'dns', figure: 'queriesPerSecond', op: '>=', value: 1.2, label: 'DNS queries/s', peer: 'dnsmasq' },
  {
    bench: 'dns',
    figure: 'p99AtHalfLoad',
    op: '<=',
    value: 1.0,
    label: 'DNS p99 latency at half of dnsmasq’s maximum rate',
    peer: 'dnsmasq',
  },
  {
    bench: 'ota',
    figure: 'cpuTime',
    op: '<=',
    value: 1.2,
    label: 'OTA verify CPU time',
    peer: 'md5sum, then openssl dgst -sha256',
  },
  {
    bench: 'ota',
    figure: 'oneCoreWall',
    op: '<=',
    value: 1.0,
    label: 'OTA verify wall time on one core',
    peer: 'swupdate -c',
  },
  {
    bench: 'pin',
    figure: 'dnsP99DuringPinPosts',
    op: '<=',
    value: 2.0,
    label: 'DNS p99 during 8 concurrent PIN posts',
    peer: 'the same DNS responder idle',
  },
];

export const met = (goal, ratio) =>
  Number.isFinite(ratio) && (goal.op === '<=' ? ratio <= goal.value : ratio >= goal.value);
