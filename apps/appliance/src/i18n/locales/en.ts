/**
 * English: the source catalog. Every other catalog has exactly these keys and, in each message,
 * the same parameters (`test/i18n/catalogs.test.ts`). Written by the project.
 *
 * Patterns: `{name}` is a parameter; `{n, plural, one {# item} other {# items}}` picks the branch
 * with Intl.PluralRules of the language, `#` is the number. See `../format.ts`.
 */
export const meta = {
  tag: 'en',
  name: 'English',
  made: 'Written by the project; the source of every other catalog.',
};

export const messages = {
  // Why a connection attempt failed (one text for the portal, the screens and the log).
  'failure.wrong-password':
    'The Wi-Fi password was not accepted. Check it (it is case-sensitive) and try again.',
  'failure.network-not-found':
    'The network was not found. Check the name, move the device closer to the router, and try again.',
  'failure.no-address':
    'The device joined the network but got no address from the router (DHCP). Check the router and try again.',
  'failure.association-timeout': 'The device could not join the network in time. Try again.',
  'failure.ap-failed': 'The setup network could not be started. Try again.',
  'failure.unknown': 'Connecting failed. Try again.',

  // A label before its value on the terminal screen (French puts a space before the colon).
  'screen.rowLabel': '{label}:',

  // Device screens: buttons.
  'screen.action.back': 'Back',
  'screen.action.cancel': 'Cancel',
  'screen.action.changeNetwork': 'Change network',
  'screen.action.delete': 'Delete',
  'screen.action.done': 'Done',
  'screen.action.install': 'Install',
  'screen.action.later': 'Later',
  'screen.action.ok': 'OK',
  'screen.action.setUpWifi': 'Set up Wi-Fi',
  'screen.action.stayConnected': 'Stay connected',
  'screen.action.tryAgain': 'Try again',

  // Menu and Menu > Wi-Fi.
  'screen.menu.title': 'Menu',
  'screen.menu.wifi': 'Wi-Fi',
  'screen.wifi.title': 'Wi-Fi',
  'screen.wifi.network': 'Network',
  'screen.wifi.status': 'Status',
  'screen.wifi.ipv4': 'IPv4',
  'screen.wifi.statusLine': '{status} · {signal}',
  'screen.status.connected': 'Connected',
  'screen.status.connecting': 'Connecting',
  'screen.status.scanning': 'Searching for networks',
  'screen.status.off': 'Wi-Fi is off',
  'screen.status.unknown': 'Unknown',
  'screen.status.disconnected': 'Not connected',
  'screen.signal.excellent': 'Excellent signal',
  'screen.signal.good': 'Good signal',
  'screen.signal.fair': 'Fair signal',
  'screen.signal.weak': 'Weak signal',
  'screen.confirm.question': 'Change network?',
  'screen.confirm.detail': 'The device leaves “{ssid}” while the setup network is open.',
  'screen.notice.timedOut':
    'Setup closed after {minutes, plural, one {# minute} other {# minutes}}. The device went back to its saved networks.',
  'screen.notice.closed': 'Setup closed. The device went back to its saved networks.',

  // Set up Wi-Fi.
  'screen.setup.title': 'Set up Wi-Fi',
  'screen.setup.network': 'Network',
  'screen.setup.password': 'Password',
  'screen.setup.address': 'Open',
  'screen.setup.qr': 'Wi-Fi QR code',
  'screen.setup.starting': 'Starting the setup network…',
  'screen.setup.scanning': 'Looking for networks…',
  'screen.setup.ready':
    'Scan the code with your phone camera, or join the network above and open the address.',
  'screen.setup.connecting': 'Connecting to {ssid}…',
  'screen.setup.connected': 'Connected to {ssid}.',
  'screen.setup.failedTo': 'Could not connect to {ssid}.',
  'screen.setup.failed': 'Could not connect.',
  'screen.setup.closesIn': 'Setup closes in {time}',

  // Software update.
  'update.title': 'Software update',
  'update.firmware': 'Firmware',
  'update.model': 'Model',
  'update.headline.available': 'Update available v{version} (needs consent)',
  'update.headline.installing': 'Installing update v{version}',
  'update.headline.failed': 'Update v{version} not installed',
  'update.status.forced': 'Required update (forced): it downloads and installs without asking.',
  'update.status.starting': 'Starting the download…',
  'update.status.downloading': 'Downloading…',
  'update.status.downloadingPercent': 'Downloading… {percent}',
  'update.status.verifying': 'Checking the download…',
  'update.status.consent': 'Ready to install. The device restarts when it is done.',
  'update.status.installing': 'Installing… Do not turn the device off.',
  'update.status.restarting': 'Restarting…',
  'update.status.failed': 'The update was not installed.',
  'update.bytesOf': '{received} of {total}',
  'update.error.md5':
    'The downloaded update was damaged (MD5 mismatch) and was deleted. It downloads again at the next check.',
  'update.error.battery':
    'Battery too low to install the update. Charge the device; the update installs at the next check.',
  'update.error.space':
    'Not enough storage for the update. Free some space; it downloads again at the next check.',
  'update.error.install': 'The update could not be installed. The device keeps its current version.',
  'update.error.reboot':
    'The update is installed but the device could not restart. Turn it off and on again.',
  'update.error.package': 'The update package failed its checks and was not installed.',
  'update.error.download': 'The download stopped ({detail}). It resumes at the next check.',
  'update.error.other': 'The update was not installed ({detail}).',
  'unit.bytes': '{n} B',
  'unit.kibibytes': '{n} KiB',
  'unit.mebibytes': '{n} MiB',
  'unit.gibibytes': '{n} GiB',

  // PC Link verification.
  'verify.title': 'PC Link',
  'verify.prompt': 'Enter the device password on the device',
  'verify.detail': 'A computer connected over USB asks to confirm it is you.',
  'verify.verified': 'Verified. You can go on on the computer.',
  'verify.password': 'Password',
  'verify.entered': '{count, plural, one {# digit entered} other {# digits entered}}',
  'verify.closesIn': 'Closes in {time}',
  'verify.error.unavailable': 'PC Link verification is not available on this device.',
  'verify.error.length': 'Enter {min} to {max} digits.',
  'verify.error.noPassword': 'No device password is set. Set one in the device settings first.',
  'verify.error.wrong': 'Wrong password. {left, plural, one {# try left} other {# tries left}}.',
  'verify.error.refused': 'Wrong password. The computer was told the verification failed.',
  'verify.error.locked': 'Too many wrong passwords. Try again in {wait, duration}.',

  // The screen page (the device display in a browser).
  'page.title': 'waved device screen',
  'page.loading': 'Loading…',
} as const;
