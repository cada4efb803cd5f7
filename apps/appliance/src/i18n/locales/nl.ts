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
  'screen.setup.passwordHidden': '(getoond op het scherm van het apparaat)',
  'screen.page.hostRefused': 'deze pagina is alleen voor het scherm van het apparaat',
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
    'De gedownloade update kwam niet overeen met zijn MD5-controlesom en is verwijderd. Hij wordt pas opnieuw gedownload als er een nieuwe update wordt aangeboden.',
  'update.error.hash':
    'Een image in de update heeft geen of een verkeerde SHA-256-controlesom. De update is verwijderd en wordt pas opnieuw gedownload als er een nieuwe wordt aangeboden.',
  'update.error.signature':
    'De update is niet ondertekend door de fabrikant van het apparaat, of de handtekening klopt niet. Hij is verwijderd en wordt pas opnieuw gedownload als er een nieuwe wordt aangeboden.',
  'update.error.policy':
    'Dit apparaat accepteert deze update niet (versie, hardware of grootte). Hij wordt pas opnieuw gedownload als er een nieuwe wordt aangeboden.',
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

  'group.wifi': 'Wifi',
  'group.device': 'Apparaat',
  'group.audio': 'Audio',
  'group.webhook': 'Webhook',
  'group.storage': 'Opslag',
  'group.security': 'Beveiliging',
  'group.ntp': 'Tijd (NTP)',
  'field.wifi.country': 'Wifi-land',
  'field.wifi.country.hint': 'Bepaalt de toegestane radiokanalen. ‘Wereld’ is overal veilig.',
  'field.device.name': 'Apparaatnaam',
  'field.device.name.hint': 'Maximaal {max} tekens.',
  'field.device.country': 'Land',
  'field.device.country.hint': 'Kiest de cloudregio (China, VS of Europa voor alle andere).',
  'field.device.timezone': 'Tijdzone',
  'field.device.language': 'Taal',
  'field.audio.volume': 'Volume',
  'field.audio.volume.hint': '{min} tot {max}.',
  'field.audio.prompt_tones': 'Meldingstonen afspelen',
  'field.webhook.url': 'Webhook-URL',
  'field.webhook.url.hint':
    'https://-adres dat de gebeurtenissen ontvangt, ondertekend met het geheim hieronder.',
  'field.webhook.url.remove': 'Webhook verwijderen',
  'field.webhook.secret': 'Webhookgeheim',
  'field.webhook.secret.hint':
    '{min} tot {max} tekens. Verzoeken worden ermee ondertekend; het wordt zelf nooit verstuurd.',
  'field.webhook.secret.remove': 'Webhookgeheim verwijderen',
  'field.storage.auto_upload': 'Opnamen automatisch uploaden',
  'field.storage.max_usage_percent': 'Maximaal opslaggebruik (%)',
  'field.storage.max_usage_percent.hint':
    '{min} tot {max}. Daarboven worden oudere, al geüploade opnamen verwijderd.',
  'field.security.device_password': 'Apparaatpincode',
  'field.security.device_password.hint': '{min} tot {max} cijfers.',
  'field.security.device_password.remove': 'Apparaatpincode verwijderen',
  'field.ntp.enabled': 'Klok gelijkzetten met tijdservers',
  'field.ntp.servers': 'Tijdservers',
  'field.ntp.servers.hint':
    'Hostnamen of IPv4-adressen, gescheiden door komma’s of spaties (maximaal {max}).',

  'error.device.name.empty': 'Voer een naam voor het apparaat in.',
  'error.device.name.long': 'Gebruik maximaal {max} tekens.',
  'error.device.name.chars': 'Gebruik alleen letters, cijfers, spaties en leestekens.',
  'error.country': 'Kies een land uit de lijst.',
  'error.wifi.country': 'Kies een land uit de lijst, of Wereld.',
  'error.timezone': 'Kies een tijdzone uit de lijst.',
  'error.language': 'Kies een taal uit de lijst.',
  'error.webhook.url': 'Voer een volledig adres in dat begint met https://.',
  'error.webhook.http':
    'Gebruik een https://-adres: dit apparaat verstuurt geen gebeurtenissen via onversleuteld http.',
  'error.webhook.secret': 'Gebruik {min} tot {max} afdrukbare tekens zonder spaties (voer het opnieuw in).',
  'error.pin': 'De pincode moet {min} tot {max} cijfers hebben (voer hem opnieuw in).',
  'error.currentPin.missing': 'Voer de huidige pincode van het apparaat in om op te slaan.',
  'error.currentPin.invalid': 'De pincode heeft {min} tot {max} cijfers. Voer hem opnieuw in.',
  'error.currentPin.locked': 'Te veel onjuiste pincodes. Probeer het over {wait, duration} opnieuw.',
  'error.currentPin.wrong': 'Onjuiste pincode. Er is niets opgeslagen.',
  'error.currentPin.wrongWait':
    'Onjuiste pincode. Er is niets opgeslagen. Wacht {wait, duration} voor de volgende poging.',
  'error.ntp.none': 'Voer ten minste één tijdserver in.',
  'error.ntp.many': 'Voer maximaal {max, plural, one {# server} other {# servers}} in.',
  'error.ntp.host': '‘{name}’ is geen hostnaam of IPv4-adres.',
  'error.ntp.reserved':
    '‘{name}’ kan geen tijdserver zijn (een lokaal, installatienetwerk- of gereserveerd adres).',
  'error.boolean': 'Vink het vakje aan of uit.',
  'error.number': 'Voer een geheel getal van {min} tot {max} in.',
  'error.unknown': 'Onbekende instelling.',
  'error.wifi.choose': 'Kies een netwerk, of kies ‘Ander’ en voer de naam van een verborgen netwerk in.',
  'error.wifi.chooseListed':
    'Kies een netwerk uit de lijst, of kies ‘Ander’ en voer de naam van een verborgen netwerk in.',
  'error.wifi.ssidLength':
    'Een netwerknaam is 1 tot {max} bytes lang (minder tekens bij letters met accenten of emoji).',
  'error.wifi.open':
    'Dit is een open netwerk. Het apparaat maakt alleen verbinding met netwerken die met WPA2 zijn beveiligd.',
  'error.wifi.passwordMissing': 'Voer het wifi-wachtwoord in.',
  'error.wifi.passwordInvalid':
    'Gebruik {min} tot {max} tekens zonder accenten of emoji, of {hex} hexadecimale cijfers. Voer het opnieuw in.',
  'error.body.type': 'Verstuur het formulier als application/x-www-form-urlencoded of multipart/form-data.',
  'error.body.incomplete': 'Het formulier is niet volledig ontvangen.',
  'error.body.tooLarge': 'Het formulier is groter dan {size} KiB.',
  'error.body.multipart': 'De multipart-inhoud kon niet worden gelezen.',

  'portal.language': 'Taal',
  'portal.form.title': '{ssid} instellen',
  'portal.form.lead':
    'Kies het wifinetwerk waarmee het apparaat verbinding moet maken en controleer daarna de instellingen.',
  'portal.form.closesIn': 'Deze instelpagina sluit over {time}.',
  'portal.form.saveConnect': 'Opslaan en verbinden',
  'portal.form.saveOnly': 'Alleen instellingen opslaan',
  'portal.errors.summary':
    'Er is niets opgeslagen. Corrigeer {count, plural, one {dit veld} other {deze # velden}}:',
  'portal.errors.item': '{field}: {error}',
  'portal.stale':
    'De instellingen zijn vanaf een andere telefoon gewijzigd terwijl deze pagina open was. Er is niets opgeslagen: controleer het formulier hieronder en sla opnieuw op.',
  'portal.wifi.choose': 'Kies je netwerk',
  'portal.wifi.noNetworks': 'Er zijn geen netwerken in de buurt gevonden. Voer de naam hieronder in.',
  'portal.wifi.openNetwork': 'Open netwerk, niet ondersteund',
  'portal.wifi.other': 'Ander (verborgen) netwerk…',
  'portal.wifi.network': 'Netwerk',
  'portal.wifi.hiddenName': 'Naam van verborgen netwerk',
  'portal.wifi.hiddenHint': 'Alleen voor een netwerk dat zijn naam niet uitzendt; kies hierboven ‘Ander’.',
  'portal.wifi.password': 'Wifi-wachtwoord',
  'portal.wifi.passwordHint':
    'WPA2-wachtwoord, {min} tot {max} tekens. Het wordt alleen als afgeleide sleutel bewaard.',
  'portal.wifi.showPassword': 'Wachtwoord tonen',
  'portal.wifi.secured': 'Beveiligd',
  'portal.signal.excellent': 'Uitstekend',
  'portal.signal.good': 'Goed',
  'portal.signal.fair': 'Redelijk',
  'portal.signal.weak': 'Zwak',
  'portal.country.world': 'Wereld (overal veilig)',
  'portal.country.notSet': 'Niet ingesteld (regio Europa)',
  'portal.secret.unchanged': 'ongewijzigd',
  'portal.secret.notSet': 'niet ingesteld',
  'portal.secret.keepUnchanged': 'Laat leeg om niets te wijzigen.',
  'portal.secret.keepUnset': 'Laat leeg om niets in te stellen.',
  'portal.webhook.now':
    'Nu: {url}. Laat leeg om het te houden, of voer een nieuw adres in (dan moet ook het geheim opnieuw worden ingevoerd).',
  'portal.currentPin.label': 'Huidige apparaatpincode',
  'portal.currentPin.hint':
    'Dit apparaat is beveiligd met een pincode. Voer die in om een wijziging op te slaan.',
  'portal.banner.scanning': 'Netwerken zoeken…',
  'portal.banner.connecting': 'Verbinden met ‘{ssid}’…',
  'portal.banner.connectingHint':
    'Kijk op het scherm van het apparaat. Deze telefoon verlaat nu het instelnetwerk.',
  'portal.banner.connected': 'Verbonden met ‘{ssid}’.',
  'portal.banner.connectedHint': 'Het instellen is klaar. Je kunt deze pagina sluiten.',
  'portal.banner.failedTo': 'Kan geen verbinding maken met ‘{ssid}’.',
  'portal.banner.failed': 'Kan geen verbinding maken.',
  'portal.tryAgain': 'Opnieuw proberen',
  'portal.inactive.title': 'Instellen is niet actief',
  'portal.inactive.body':
    'Open {path} op het apparaat, maak verbinding met het netwerk dat het toont en open deze pagina opnieuw.',
  'portal.status.title': 'Stand van het instellen',
  'portal.status.waiting': 'Wachten op je instellingen.',
  'portal.status.openForm': 'Formulier openen',
  'portal.status.hint':
    'Als deze telefoon het instelnetwerk heeft verlaten, toont het scherm van het apparaat het resultaat. Wil je het opnieuw proberen, maak dan weer verbinding met {ap} en open {url}.',
  'portal.notSaved.title': 'Er is niets opgeslagen',
  'portal.backToForm': 'Terug naar het formulier',
  'portal.expired.title': 'Deze pagina is verlopen',
  'portal.expired.body':
    'Er is niets opgeslagen. De instelsessie is gewijzigd sinds deze pagina werd geladen.',
  'portal.reloadForm': 'Formulier opnieuw laden',
  'portal.busy.title': 'Even geduld',
  'portal.busy.body':
    'Het apparaat is bezig met verbinden. Wacht op het resultaat en probeer het dan opnieuw.',
  'portal.showStatus': 'Stand tonen',
  'portal.saveFailed.body': 'Het apparaat kon zijn instellingen niet wegschrijven. Probeer het opnieuw.',
  'portal.saved.title': 'Instellingen opgeslagen',
  'portal.saved.done': 'Je instellingen zijn opgeslagen.',
  'portal.saved.secretCleared':
    'Het webhookadres is gewijzigd, dus het geheim is verwijderd: voer opnieuw een geheim in om de verzoeken te ondertekenen.',
  'portal.saved.leaving':
    'Het apparaat sluit nu het instelnetwerk {ap}, dus deze telefoon verliest de verbinding ermee en gaat terug naar zijn gewone netwerk.',
  'portal.saved.next':
    'Het scherm van het apparaat toont {connected}, of de reden van de fout met {tryAgain}. Mislukt het, maak dan weer verbinding met {ap} en open {url} opnieuw.',
};
