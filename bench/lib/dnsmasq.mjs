// dnsmasq as a captive DNS on a device runs it: every name answered with the setup address, nothing
// forwarded, no cache, no hosts file, in the foreground as our child (stopped by its PID).

/** The argv of such a dnsmasq on 127.0.0.1:<port>; `logFacility` is its --log-facility ('-' is stderr). */
export function captiveDnsmasqArgv(port, logFacility = '-') {
  return [
    'dnsmasq',
    '-k',
    '--conf-file=/dev/null',
    '--no-resolv',
    '--no-hosts',
    '--listen-address=127.0.0.1',
    '--bind-interfaces',
    `--port=${port}`,
    '--address=/#/192.168.2.1',
    '--local=/#/',
    '--cache-size=0',
    '--pid-file=',
    `--log-facility=${logFacility}`,
    '--user=root',
  ];
}
