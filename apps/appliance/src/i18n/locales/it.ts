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
  'screen.setup.passwordHidden': '(mostrata sullo schermo del dispositivo)',
  'screen.page.hostRefused': 'questa pagina è solo per lo schermo del dispositivo',
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
    'L’aggiornamento scaricato non corrispondeva al suo checksum MD5 ed è stato eliminato. Non verrà scaricato di nuovo finché non viene offerto un nuovo aggiornamento.',
  'update.error.hash':
    'Un’immagine dell’aggiornamento non ha un checksum SHA-256 o ne ha uno errato. L’aggiornamento è stato eliminato e non verrà scaricato di nuovo finché non ne viene offerto uno nuovo.',
  'update.error.signature':
    'L’aggiornamento non è firmato dal produttore del dispositivo o la sua firma è errata. È stato eliminato e non verrà scaricato di nuovo finché non ne viene offerto uno nuovo.',
  'update.error.policy':
    'Questo dispositivo non accetta questo aggiornamento (versione, hardware o dimensione). Non verrà scaricato di nuovo finché non ne viene offerto uno nuovo.',
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

  'group.wifi': 'Wi-Fi',
  'group.device': 'Dispositivo',
  'group.audio': 'Audio',
  'group.webhook': 'Webhook',
  'group.storage': 'Archiviazione',
  'group.security': 'Sicurezza',
  'group.ntp': 'Ora (NTP)',
  'field.wifi.country': 'Paese del Wi-Fi',
  'field.wifi.country.hint': 'Imposta i canali radio consentiti. «Mondo» è sicuro ovunque.',
  'field.device.name': 'Nome del dispositivo',
  'field.device.name.hint': 'Fino a {max} caratteri.',
  'field.device.country': 'Paese',
  'field.device.country.hint': 'Sceglie la regione del cloud (Cina, USA o Europa per tutti gli altri).',
  'field.device.timezone': 'Fuso orario',
  'field.device.language': 'Lingua',
  'field.audio.volume': 'Volume',
  'field.audio.volume.hint': 'Da {min} a {max}.',
  'field.audio.prompt_tones': 'Riproduci i toni di avviso',
  'field.webhook.url': 'URL del webhook',
  'field.webhook.url.hint': 'Indirizzo https:// che riceve gli eventi, firmati con il segreto qui sotto.',
  'field.webhook.url.remove': 'Rimuovi il webhook',
  'field.webhook.secret': 'Segreto del webhook',
  'field.webhook.secret.hint':
    'Da {min} a {max} caratteri. Le richieste vengono firmate con esso; non viene mai inviato.',
  'field.webhook.secret.remove': 'Rimuovi il segreto del webhook',
  'field.storage.auto_upload': 'Carica automaticamente le registrazioni',
  'field.storage.max_usage_percent': 'Uso massimo dello spazio (%)',
  'field.storage.max_usage_percent.hint':
    'Da {min} a {max}. Oltre questa soglia vengono rimosse le registrazioni già caricate più vecchie.',
  'field.security.device_password': 'PIN del dispositivo',
  'field.security.device_password.hint': 'Da {min} a {max} cifre.',
  'field.security.device_password.remove': 'Rimuovi il PIN del dispositivo',
  'field.ntp.enabled': 'Regola l’orologio con i server dell’ora',
  'field.ntp.servers': 'Server dell’ora',
  'field.ntp.servers.hint': 'Nomi host o indirizzi IPv4, separati da virgole o spazi (fino a {max}).',

  'error.device.name.empty': 'Inserisci un nome per il dispositivo.',
  'error.device.name.long': 'Usa al massimo {max} caratteri.',
  'error.device.name.chars': 'Usa solo lettere, cifre, spazi e punteggiatura.',
  'error.country': 'Scegli un paese dall’elenco.',
  'error.wifi.country': 'Scegli un paese dall’elenco, oppure Mondo.',
  'error.timezone': 'Scegli un fuso orario dall’elenco.',
  'error.language': 'Scegli una lingua dall’elenco.',
  'error.webhook.url': 'Inserisci un indirizzo completo che inizi con https://.',
  'error.webhook.http':
    'Usa un indirizzo https://: questo dispositivo non invia eventi tramite http non cifrato.',
  'error.webhook.secret': 'Usa da {min} a {max} caratteri stampabili senza spazi (inseriscilo di nuovo).',
  'error.pin': 'Il PIN deve avere da {min} a {max} cifre (inseriscilo di nuovo).',
  'error.currentPin.missing': 'Inserisci il PIN attuale del dispositivo per salvare.',
  'error.currentPin.invalid': 'Il PIN ha da {min} a {max} cifre. Inseriscilo di nuovo.',
  'error.currentPin.locked': 'Troppi PIN errati. Riprova tra {wait, duration}.',
  'error.currentPin.wrong': 'PIN errato. Non è stato salvato nulla.',
  'error.currentPin.wrongWait':
    'PIN errato. Non è stato salvato nulla. Attendi {wait, duration} prima del prossimo tentativo.',
  'error.ntp.none': 'Inserisci almeno un server dell’ora.',
  'error.ntp.many': 'Inserisci al massimo {max, plural, one {# server} other {# server}}.',
  'error.ntp.host': '«{name}» non è un nome host né un indirizzo IPv4.',
  'error.ntp.reserved':
    '«{name}» non può essere un server dell’ora (un indirizzo locale, della rete di configurazione o riservato).',
  'error.boolean': 'Seleziona o deseleziona la casella.',
  'error.number': 'Inserisci un numero intero da {min} a {max}.',
  'error.unknown': 'Impostazione sconosciuta.',
  'error.wifi.choose': 'Scegli una rete, oppure scegli «Altra» e inserisci il nome di una rete nascosta.',
  'error.wifi.chooseListed':
    'Scegli una rete dall’elenco, oppure scegli «Altra» e inserisci il nome di una rete nascosta.',
  'error.wifi.ssidLength':
    'Il nome di una rete è lungo da 1 a {max} byte (meno caratteri con lettere accentate o emoji).',
  'error.wifi.open': 'Questa è una rete aperta. Il dispositivo si collega solo a reti protette con WPA2.',
  'error.wifi.passwordMissing': 'Inserisci la password del Wi-Fi.',
  'error.wifi.passwordInvalid':
    'Usa da {min} a {max} caratteri senza accenti né emoji, oppure {hex} cifre esadecimali. Inseriscila di nuovo.',
  'error.body.type': 'Invia il modulo come application/x-www-form-urlencoded o multipart/form-data.',
  'error.body.incomplete': 'Il modulo non è stato ricevuto per intero.',
  'error.body.tooLarge': 'Il modulo supera {size} KiB.',
  'error.body.multipart': 'Impossibile leggere il corpo multipart.',

  'portal.language': 'Lingua',
  'portal.form.title': 'Configura {ssid}',
  'portal.form.lead':
    'Scegli la rete Wi-Fi a cui il dispositivo deve collegarsi, poi controlla le sue impostazioni.',
  'portal.form.closesIn': 'Questa pagina di configurazione si chiude tra {time}.',
  'portal.form.saveConnect': 'Salva e connetti',
  'portal.form.saveOnly': 'Salva solo le impostazioni',
  'portal.errors.summary':
    'Non è stato salvato nulla. Correggi {count, plural, one {questo campo} other {questi # campi}}:',
  'portal.errors.item': '{field}: {error}',
  'portal.stale':
    'Le impostazioni sono state modificate da un altro telefono mentre questa pagina era aperta. Non è stato salvato nulla: controlla il modulo qui sotto e salva di nuovo.',
  'portal.wifi.choose': 'Scegli la tua rete',
  'portal.wifi.noNetworks': 'Nessuna rete trovata nelle vicinanze. Inserisci il nome qui sotto.',
  'portal.wifi.openNetwork': 'Rete aperta, non supportata',
  'portal.wifi.other': 'Altra rete (nascosta)…',
  'portal.wifi.network': 'Rete',
  'portal.wifi.hiddenName': 'Nome della rete nascosta',
  'portal.wifi.hiddenHint': 'Solo per una rete che non trasmette il proprio nome; scegli «Altra» qui sopra.',
  'portal.wifi.password': 'Password del Wi-Fi',
  'portal.wifi.passwordHint':
    'Password WPA2, da {min} a {max} caratteri. Viene conservata solo come chiave derivata.',
  'portal.wifi.showPassword': 'Mostra la password',
  'portal.wifi.secured': 'Protetta',
  'portal.signal.excellent': 'Eccellente',
  'portal.signal.good': 'Buono',
  'portal.signal.fair': 'Discreto',
  'portal.signal.weak': 'Debole',
  'portal.country.world': 'Mondo (sicuro ovunque)',
  'portal.country.notSet': 'Non impostato (regione Europa)',
  'portal.secret.unchanged': 'invariato',
  'portal.secret.notSet': 'non impostato',
  'portal.secret.keepUnchanged': 'Lascia vuoto per non modificarlo.',
  'portal.secret.keepUnset': 'Lascia vuoto per non impostarlo.',
  'portal.webhook.now':
    'Ora: {url}. Lascia vuoto per mantenerlo, oppure inserisci un nuovo indirizzo (poi va inserito di nuovo anche il segreto).',
  'portal.currentPin.label': 'PIN attuale del dispositivo',
  'portal.currentPin.hint':
    'Questo dispositivo è protetto da un PIN. Inseriscilo per salvare qualsiasi modifica.',
  'portal.banner.scanning': 'Ricerca delle reti…',
  'portal.banner.connecting': 'Connessione a «{ssid}»…',
  'portal.banner.connectingHint':
    'Guarda lo schermo del dispositivo. Ora questo telefono lascia la rete di configurazione.',
  'portal.banner.connected': 'Connesso a «{ssid}».',
  'portal.banner.connectedHint': 'La configurazione è completa. Puoi chiudere questa pagina.',
  'portal.banner.failedTo': 'Impossibile connettersi a «{ssid}».',
  'portal.banner.failed': 'Impossibile connettersi.',
  'portal.tryAgain': 'Riprova',
  'portal.inactive.title': 'La configurazione non è attiva',
  'portal.inactive.body':
    'Apri {path} sul dispositivo, collegati alla rete che mostra e riapri questa pagina.',
  'portal.status.title': 'Stato della configurazione',
  'portal.status.waiting': 'In attesa delle tue impostazioni.',
  'portal.status.openForm': 'Apri il modulo',
  'portal.status.hint':
    'Se questo telefono ha lasciato la rete di configurazione, lo schermo del dispositivo mostra il risultato. Per riprovare, ricollegati a {ap} e apri {url}.',
  'portal.notSaved.title': 'Non è stato salvato nulla',
  'portal.backToForm': 'Torna al modulo',
  'portal.expired.title': 'Questa pagina è scaduta',
  'portal.expired.body':
    'Non è stato salvato nulla. La sessione di configurazione è cambiata dopo il caricamento di questa pagina.',
  'portal.reloadForm': 'Ricarica il modulo',
  'portal.busy.title': 'Attendi',
  'portal.busy.body': 'Il dispositivo si sta connettendo. Attendi il risultato, poi riprova.',
  'portal.showStatus': 'Mostra lo stato',
  'portal.saveFailed.body': 'Il dispositivo non è riuscito a scrivere le impostazioni. Riprova.',
  'portal.saved.title': 'Impostazioni salvate',
  'portal.saved.done': 'Le tue impostazioni sono state salvate.',
  'portal.saved.secretCleared':
    'L’indirizzo del webhook è cambiato, quindi il suo segreto è stato rimosso: inserisci di nuovo un segreto per firmare le richieste.',
  'portal.saved.leaving':
    'Ora il dispositivo chiude la rete di configurazione {ap}, quindi questo telefono si scollegherà e tornerà alla sua rete abituale.',
  'portal.saved.next':
    'Lo schermo del dispositivo mostra {connected}, oppure il motivo dell’errore con {tryAgain}. Se non riesce, ricollegati a {ap} e riapri {url}.',
};
