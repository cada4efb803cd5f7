import type { Catalog, LocaleMeta } from '../catalog.js';

/**
 * Nederlands. Machine-made translation of the English catalog, not yet checked by a native
 * speaker; informal address (je), as Dutch phone interfaces use. Corrections are welcome here:
 * the catalog tests keep the keys and the parameters in step with English.
 */
export const meta: LocaleMeta = {
  tag: 'nl',
  name: 'Nederlands',
  made: 'Machine-made translation of the English catalog; not yet checked by a native speaker.',
};

export const messages: Catalog = {
  'failure.wrong-password':
    'Het wifi-wachtwoord is niet geaccepteerd. Controleer het (let op hoofdletters) en probeer het opnieuw.',
  'failure.network-not-found':
    'Het netwerk is niet gevonden. Controleer de naam, zet het apparaat dichter bij de router en probeer het opnieuw.',
  'failure.no-address':
    'Het apparaat is verbonden met het netwerk, maar heeft geen adres van de router gekregen (DHCP). Controleer de router en probeer het opnieuw.',
  'failure.association-timeout':
    'Het apparaat kon niet op tijd verbinding maken met het netwerk. Probeer het opnieuw.',
  'failure.ap-failed': 'Het instelnetwerk kon niet worden gestart. Probeer het opnieuw.',
  'failure.unknown': 'Verbinden is mislukt. Probeer het opnieuw.',

  'screen.rowLabel': '{label}:',

  'screen.action.back': 'Terug',
  'screen.action.cancel': 'Annuleren',
  'screen.action.changeNetwork': 'Ander netwerk',
  'screen.action.delete': 'Wissen',
  'screen.action.done': 'Klaar',
  'screen.action.install': 'Installeren',
  'screen.action.later': 'Later',
  'screen.action.ok': 'OK',
  'screen.action.setUpWifi': 'Wifi instellen',
  'screen.action.stayConnected': 'Verbonden blijven',
  'screen.action.tryAgain': 'Opnieuw proberen',

  'screen.menu.title': 'Menu',
  'screen.menu.wifi': 'Wifi',
  'screen.wifi.title': 'Wifi',
  'screen.wifi.network': 'Netwerk',
  'screen.wifi.status': 'Status',
  'screen.wifi.ipv4': 'IPv4',
  'screen.wifi.statusLine': '{status} · {signal}',
  'screen.status.connected': 'Verbonden',
  'screen.status.connecting': 'Verbinden',
  'screen.status.scanning': 'Zoeken naar netwerken',
  'screen.status.off': 'Wifi is uit',
  'screen.status.unknown': 'Onbekend',
  'screen.status.disconnected': 'Niet verbonden',
  'screen.signal.excellent': 'Uitstekend signaal',
  'screen.signal.good': 'Goed signaal',
  'screen.signal.fair': 'Redelijk signaal',
  'screen.signal.weak': 'Zwak signaal',
  'screen.confirm.question': 'Ander netwerk kiezen?',
  'screen.confirm.detail': 'Het apparaat verlaat ‘{ssid}’ zolang het instelnetwerk open is.',
  'screen.notice.timedOut':
    'Instellen gesloten na {minutes, plural, one {# minuut} other {# minuten}}. Het apparaat is teruggegaan naar zijn opgeslagen netwerken.',
  'screen.notice.closed': 'Instellen gesloten. Het apparaat is teruggegaan naar zijn opgeslagen netwerken.',

  'screen.setup.title': 'Wifi instellen',
  'screen.setup.network': 'Netwerk',
  'screen.setup.password': 'Wachtwoord',
  'screen.setup.address': 'Adres',
  'screen.setup.qr': 'Wifi-QR-code',
  'screen.setup.starting': 'Instelnetwerk wordt gestart…',
  'screen.setup.scanning': 'Zoeken naar netwerken…',
  'screen.setup.ready':
    'Scan de code met de camera van je telefoon, of maak verbinding met het netwerk hierboven en open het adres.',
  'screen.setup.connecting': 'Verbinden met {ssid}…',
  'screen.setup.connected': 'Verbonden met {ssid}.',
  'screen.setup.failedTo': 'Kan geen verbinding maken met {ssid}.',
  'screen.setup.failed': 'Kan geen verbinding maken.',
  'screen.setup.closesIn': 'Instellen sluit over {time}',

  'update.title': 'Software-update',
  'update.firmware': 'Firmware',
  'update.model': 'Model',
  'update.headline.available': 'Update v{version} beschikbaar (toestemming nodig)',
  'update.headline.installing': 'Update v{version} wordt geïnstalleerd',
  'update.headline.failed': 'Update v{version} niet geïnstalleerd',
  'update.status.forced': 'Verplichte update: deze wordt zonder te vragen gedownload en geïnstalleerd.',
  'update.status.starting': 'Download wordt gestart…',
  'update.status.downloading': 'Downloaden…',
  'update.status.downloadingPercent': 'Downloaden… {percent}',
  'update.status.verifying': 'Download wordt gecontroleerd…',
  'update.status.consent': 'Klaar om te installeren. Het apparaat start daarna opnieuw op.',
  'update.status.installing': 'Installeren… Zet het apparaat niet uit.',
  'update.status.restarting': 'Opnieuw opstarten…',
  'update.status.failed': 'De update is niet geïnstalleerd.',
  'update.bytesOf': '{received} van {total}',
  'update.error.md5':
    'De gedownloade update was beschadigd (MD5 klopt niet) en is verwijderd. Bij de volgende controle wordt hij opnieuw gedownload.',
  'update.error.battery':
    'De batterij is te leeg om de update te installeren. Laad het apparaat op; de update wordt bij de volgende controle geïnstalleerd.',
  'update.error.space':
    'Niet genoeg opslagruimte voor de update. Maak ruimte vrij; bij de volgende controle wordt hij opnieuw gedownload.',
  'update.error.install': 'De update kon niet worden geïnstalleerd. Het apparaat houdt zijn huidige versie.',
  'update.error.reboot':
    'De update is geïnstalleerd, maar het apparaat kon niet opnieuw opstarten. Zet het uit en weer aan.',
  'update.error.package': 'Het updatepakket heeft de controles niet doorstaan en is niet geïnstalleerd.',
  'update.error.download': 'De download is gestopt ({detail}). Hij gaat verder bij de volgende controle.',
  'update.error.other': 'De update is niet geïnstalleerd ({detail}).',
  'unit.bytes': '{n} B',
  'unit.kibibytes': '{n} KiB',
  'unit.mebibytes': '{n} MiB',
  'unit.gibibytes': '{n} GiB',

  'verify.title': 'PC Link',
  'verify.prompt': 'Voer het apparaatwachtwoord in op het apparaat',
  'verify.detail': 'Een via USB verbonden computer vraagt te bevestigen dat jij het bent.',
  'verify.verified': 'Bevestigd. Je kunt verder op de computer.',
  'verify.password': 'Wachtwoord',
  'verify.entered': '{count, plural, one {# cijfer ingevoerd} other {# cijfers ingevoerd}}',
  'verify.closesIn': 'Sluit over {time}',
  'verify.error.unavailable': 'PC Link-verificatie is niet beschikbaar op dit apparaat.',
  'verify.error.length': 'Voer {min} tot {max} cijfers in.',
  'verify.error.noPassword':
    'Er is geen apparaatwachtwoord ingesteld. Stel er eerst een in bij de apparaatinstellingen.',
  'verify.error.wrong': 'Onjuist wachtwoord. {left, plural, one {Nog # poging} other {Nog # pogingen}}.',
  'verify.error.refused': 'Onjuist wachtwoord. Aan de computer is doorgegeven dat de verificatie is mislukt.',
  'verify.error.locked': 'Te veel onjuiste wachtwoorden. Probeer het over {wait, duration} opnieuw.',

  'page.title': 'Scherm van het waved-apparaat',
  'page.loading': 'Laden…',
};
