import type { Catalog, LocaleMeta } from '../catalog.js';

/**
 * Italiano. Machine-made translation of the English catalog, not yet checked by a native speaker;
 * informal address (tu). Corrections are welcome here: the catalog tests keep the keys and the
 * parameters in step with English.
 */
export const meta: LocaleMeta = {
  tag: 'it',
  name: 'Italiano',
  made: 'Machine-made translation of the English catalog; not yet checked by a native speaker.',
};

export const messages: Catalog = {
  'failure.wrong-password':
    'La password Wi-Fi non è stata accettata. Controllala (distingue maiuscole e minuscole) e riprova.',
  'failure.network-not-found':
    'Rete non trovata. Controlla il nome, avvicina il dispositivo al router e riprova.',
  'failure.no-address':
    'Il dispositivo si è collegato alla rete ma non ha ricevuto un indirizzo dal router (DHCP). Controlla il router e riprova.',
  'failure.association-timeout': 'Il dispositivo non è riuscito a collegarsi alla rete in tempo. Riprova.',
  'failure.ap-failed': 'Impossibile avviare la rete di configurazione. Riprova.',
  'failure.unknown': 'Connessione non riuscita. Riprova.',

  'screen.rowLabel': '{label}:',

  'screen.action.back': 'Indietro',
  'screen.action.cancel': 'Annulla',
  'screen.action.changeNetwork': 'Cambia rete',
  'screen.action.delete': 'Cancella',
  'screen.action.done': 'Fine',
  'screen.action.install': 'Installa',
  'screen.action.later': 'Più tardi',
  'screen.action.ok': 'OK',
  'screen.action.setUpWifi': 'Configura Wi-Fi',
  'screen.action.stayConnected': 'Resta connesso',
  'screen.action.tryAgain': 'Riprova',

  'screen.menu.title': 'Menu',
  'screen.menu.wifi': 'Wi-Fi',
  'screen.wifi.title': 'Wi-Fi',
  'screen.wifi.network': 'Rete',
  'screen.wifi.status': 'Stato',
  'screen.wifi.ipv4': 'IPv4',
  'screen.wifi.statusLine': '{status} · {signal}',
  'screen.status.connected': 'Connesso',
  'screen.status.connecting': 'Connessione in corso',
  'screen.status.scanning': 'Ricerca di reti',
  'screen.status.off': 'Wi-Fi disattivato',
  'screen.status.unknown': 'Sconosciuto',
  'screen.status.disconnected': 'Non connesso',
  'screen.signal.excellent': 'Segnale eccellente',
  'screen.signal.good': 'Segnale buono',
  'screen.signal.fair': 'Segnale discreto',
  'screen.signal.weak': 'Segnale debole',
  'screen.confirm.question': 'Cambiare rete?',
  'screen.confirm.detail': 'Il dispositivo lascia «{ssid}» finché la rete di configurazione è aperta.',
  'screen.notice.timedOut':
    'Configurazione chiusa dopo {minutes, plural, one {# minuto} other {# minuti}}. Il dispositivo è tornato alle reti salvate.',
  'screen.notice.closed': 'Configurazione chiusa. Il dispositivo è tornato alle reti salvate.',

  'screen.setup.title': 'Configura Wi-Fi',
  'screen.setup.network': 'Rete',
  'screen.setup.password': 'Password',
  'screen.setup.address': 'Indirizzo',
  'screen.setup.qr': 'Codice QR Wi-Fi',
  'screen.setup.starting': 'Avvio della rete di configurazione…',
  'screen.setup.scanning': 'Ricerca di reti…',
  'screen.setup.ready':
    'Inquadra il codice con la fotocamera del telefono, oppure collegati alla rete qui sopra e apri l’indirizzo.',
  'screen.setup.connecting': 'Connessione a {ssid}…',
  'screen.setup.connected': 'Connesso a {ssid}.',
  'screen.setup.failedTo': 'Impossibile connettersi a {ssid}.',
  'screen.setup.failed': 'Impossibile connettersi.',
  'screen.setup.closesIn': 'La configurazione si chiude tra {time}',

  'update.title': 'Aggiornamento software',
  'update.firmware': 'Firmware',
  'update.model': 'Modello',
  'update.headline.available': 'Aggiornamento v{version} disponibile (serve il consenso)',
  'update.headline.installing': 'Installazione dell’aggiornamento v{version}',
  'update.headline.failed': 'Aggiornamento v{version} non installato',
  'update.status.forced': 'Aggiornamento obbligatorio: viene scaricato e installato senza chiedere.',
  'update.status.starting': 'Avvio del download…',
  'update.status.downloading': 'Download in corso…',
  'update.status.downloadingPercent': 'Download in corso… {percent}',
  'update.status.verifying': 'Verifica del download…',
  'update.status.consent': 'Pronto per l’installazione. Al termine il dispositivo si riavvia.',
  'update.status.installing': 'Installazione… Non spegnere il dispositivo.',
  'update.status.restarting': 'Riavvio…',
  'update.status.failed': 'L’aggiornamento non è stato installato.',
  'update.bytesOf': '{received} di {total}',
  'update.error.md5':
    'L’aggiornamento scaricato era danneggiato (MD5 non corrispondente) ed è stato eliminato. Verrà scaricato di nuovo al prossimo controllo.',
  'update.error.battery':
    'Batteria troppo scarica per installare l’aggiornamento. Ricarica il dispositivo; l’aggiornamento verrà installato al prossimo controllo.',
  'update.error.space':
    'Spazio insufficiente per l’aggiornamento. Libera spazio; verrà scaricato di nuovo al prossimo controllo.',
  'update.error.install':
    'Impossibile installare l’aggiornamento. Il dispositivo mantiene la versione attuale.',
  'update.error.reboot':
    'L’aggiornamento è installato ma il dispositivo non è riuscito a riavviarsi. Spegnilo e riaccendilo.',
  'update.error.package':
    'Il pacchetto di aggiornamento non ha superato i controlli e non è stato installato.',
  'update.error.download': 'Il download si è interrotto ({detail}). Riprenderà al prossimo controllo.',
  'update.error.other': 'L’aggiornamento non è stato installato ({detail}).',
  'unit.bytes': '{n} B',
  'unit.kibibytes': '{n} KiB',
  'unit.mebibytes': '{n} MiB',
  'unit.gibibytes': '{n} GiB',

  'verify.title': 'PC Link',
  'verify.prompt': 'Inserisci la password del dispositivo sul dispositivo',
  'verify.detail': 'Un computer collegato via USB chiede di confermare che sei tu.',
  'verify.verified': 'Verificato. Puoi continuare sul computer.',
  'verify.password': 'Password',
  'verify.entered': '{count, plural, one {# cifra inserita} other {# cifre inserite}}',
  'verify.closesIn': 'Si chiude tra {time}',
  'verify.error.unavailable': 'La verifica PC Link non è disponibile su questo dispositivo.',
  'verify.error.length': 'Inserisci da {min} a {max} cifre.',
  'verify.error.noPassword':
    'Non è impostata nessuna password del dispositivo. Impostane prima una nelle impostazioni del dispositivo.',
  'verify.error.wrong':
    'Password errata. {left, plural, one {Resta # tentativo} other {Restano # tentativi}}.',
  'verify.error.refused': 'Password errata. Il computer è stato avvisato che la verifica non è riuscita.',
  'verify.error.locked': 'Troppe password errate. Riprova tra {wait, duration}.',

  'page.title': 'Schermo del dispositivo waved',
  'page.loading': 'Caricamento…',
};
