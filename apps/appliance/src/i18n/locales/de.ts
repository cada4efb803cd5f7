import type { Catalog, LocaleMeta } from '../catalog.js';

/**
 * Deutsch. Machine-made translation of the English catalog, not yet checked by a native speaker;
 * formal address (Sie). Corrections are welcome here: the catalog tests keep the keys and the
 * parameters in step with English.
 */
export const meta: LocaleMeta = {
  tag: 'de',
  name: 'Deutsch',
  made: 'Machine-made translation of the English catalog; not yet checked by a native speaker.',
};

export const messages: Catalog = {
  'failure.wrong-password':
    'Das WLAN-Passwort wurde nicht akzeptiert. Prüfen Sie es (Groß- und Kleinschreibung beachten) und versuchen Sie es erneut.',
  'failure.network-not-found':
    'Das Netzwerk wurde nicht gefunden. Prüfen Sie den Namen, bringen Sie das Gerät näher an den Router und versuchen Sie es erneut.',
  'failure.no-address':
    'Das Gerät hat sich mit dem Netzwerk verbunden, aber vom Router keine Adresse erhalten (DHCP). Prüfen Sie den Router und versuchen Sie es erneut.',
  'failure.association-timeout':
    'Das Gerät konnte sich nicht rechtzeitig mit dem Netzwerk verbinden. Versuchen Sie es erneut.',
  'failure.ap-failed': 'Das Einrichtungsnetzwerk konnte nicht gestartet werden. Versuchen Sie es erneut.',
  'failure.unknown': 'Die Verbindung ist fehlgeschlagen. Versuchen Sie es erneut.',

  'screen.rowLabel': '{label}:',

  'screen.action.back': 'Zurück',
  'screen.action.cancel': 'Abbrechen',
  'screen.action.changeNetwork': 'Netzwerk wechseln',
  'screen.action.delete': 'Löschen',
  'screen.action.done': 'Fertig',
  'screen.action.install': 'Installieren',
  'screen.action.later': 'Später',
  'screen.action.ok': 'OK',
  'screen.action.setUpWifi': 'WLAN einrichten',
  'screen.action.stayConnected': 'Verbunden bleiben',
  'screen.action.tryAgain': 'Erneut versuchen',

  'screen.menu.title': 'Menü',
  'screen.menu.wifi': 'WLAN',
  'screen.menu.bluetooth': 'Bluetooth',
  'screen.menu.options': 'Ton und Datenschutz',
  'screen.bt.title': 'Bluetooth',
  'screen.bt.name': 'Name',
  'screen.bt.status': 'Status',
  'screen.bt.contacts': 'Kontakte',
  'screen.bt.address': 'Adresse',
  'screen.bt.version': 'Version',
  'screen.bt.off': 'Aus',
  'screen.bt.idle': 'Ein, kein Telefon verbunden',
  'screen.bt.connectedTo': 'Verbunden mit {name}',
  'screen.bt.request': '{name} möchte sich verbinden',
  'screen.bt.requestDetail': 'Soll sich dieses Telefon mit dem Gerät verbinden?',
  'screen.bt.unavailable': 'Das Bluetooth-Modul antwortet nicht.',
  'screen.bt.paired': 'Kopplung gelöscht: Koppeln Sie jetzt Ihr Telefon.',
  'screen.bt.synced': '{count, plural, one {# Kontakt synchronisiert} other {# Kontakte synchronisiert}}.',
  'screen.action.btAccept': 'Verbinden',
  'screen.action.btReject': 'Ablehnen',
  'screen.action.btSync': 'Kontakte abgleichen',
  'screen.action.btDisconnect': 'Trennen',
  'screen.action.btPair': 'Telefon koppeln',
  'screen.action.btOff': 'Ausschalten',
  'screen.action.btOn': 'Einschalten',
  'screen.options.title': 'Ton und Datenschutz',
  'screen.options.mic': 'Mikrofon',
  'screen.options.speaker': 'Lautsprecher',
  'screen.options.privacy': 'Datenschutzvereinbarung',
  'screen.options.experience': 'Programm zur Nutzererfahrung',
  'screen.options.on': 'Ein',
  'screen.options.muted': 'Stumm',
  'screen.options.yes': 'Ja',
  'screen.options.no': 'Nein',
  'screen.action.muteMic': 'Mikrofon stumm',
  'screen.action.unmuteMic': 'Mikrofon an',
  'screen.action.muteSpeaker': 'Lautsprecher stumm',
  'screen.action.unmuteSpeaker': 'Lautsprecher an',
  'screen.action.agreePrivacy': 'Datenschutz annehmen',
  'screen.action.joinExperience': 'Teilnehmen',
  'screen.wifi.title': 'WLAN',
  'screen.wifi.network': 'Netzwerk',
  'screen.wifi.status': 'Status',
  'screen.wifi.ipv4': 'IPv4',
  'screen.wifi.statusLine': '{status} · {signal}',
  'screen.status.connected': 'Verbunden',
  'screen.status.connecting': 'Verbindung wird hergestellt',
  'screen.status.scanning': 'Suche nach Netzwerken',
  'screen.status.off': 'WLAN ist aus',
  'screen.status.unknown': 'Unbekannt',
  'screen.status.disconnected': 'Nicht verbunden',
  'screen.signal.excellent': 'Ausgezeichnetes Signal',
  'screen.signal.good': 'Gutes Signal',
  'screen.signal.fair': 'Mittleres Signal',
  'screen.signal.weak': 'Schwaches Signal',
  'screen.confirm.question': 'Netzwerk wechseln?',
  'screen.confirm.detail': 'Das Gerät trennt sich von „{ssid}“, solange das Einrichtungsnetzwerk offen ist.',
  'screen.notice.timedOut':
    'Die Einrichtung wurde nach {minutes, plural, one {# Minute} other {# Minuten}} beendet. Das Gerät ist zu seinen gespeicherten Netzwerken zurückgekehrt.',
  'screen.notice.closed':
    'Die Einrichtung wurde beendet. Das Gerät ist zu seinen gespeicherten Netzwerken zurückgekehrt.',

  'screen.setup.title': 'WLAN einrichten',
  'screen.setup.network': 'Netzwerk',
  'screen.setup.password': 'Passwort',
  'screen.setup.passwordHidden': '(auf dem Gerätebildschirm angezeigt)',
  'screen.page.hostRefused': 'diese Seite ist nur für den Gerätebildschirm',
  'screen.setup.address': 'Adresse',
  'screen.setup.qr': 'WLAN-QR-Code',
  'screen.setup.starting': 'Einrichtungsnetzwerk wird gestartet…',
  'screen.setup.scanning': 'Suche nach Netzwerken…',
  'screen.setup.ready':
    'Scannen Sie den Code mit der Kamera Ihres Telefons, oder verbinden Sie sich mit dem Netzwerk oben und öffnen Sie die Adresse.',
  'screen.setup.connecting': 'Verbindung mit {ssid} wird hergestellt…',
  'screen.setup.connected': 'Mit {ssid} verbunden.',
  'screen.setup.failedTo': 'Verbindung mit {ssid} fehlgeschlagen.',
  'screen.setup.failed': 'Verbindung fehlgeschlagen.',
  'screen.setup.closesIn': 'Die Einrichtung endet in {time}',

  'update.title': 'Softwareaktualisierung',
  'update.firmware': 'Firmware',
  'update.model': 'Modell',
  'update.headline.available': 'Aktualisierung v{version} verfügbar (Zustimmung nötig)',
  'update.headline.installing': 'Aktualisierung v{version} wird installiert',
  'update.headline.failed': 'Aktualisierung v{version} nicht installiert',
  'update.status.forced': 'Pflichtaktualisierung: Sie wird ohne Rückfrage heruntergeladen und installiert.',
  'update.status.starting': 'Download wird gestartet…',
  'update.status.downloading': 'Wird heruntergeladen…',
  'update.status.downloadingPercent': 'Wird heruntergeladen… {percent}',
  'update.status.verifying': 'Download wird geprüft…',
  'update.status.consent': 'Bereit zur Installation. Das Gerät startet danach neu.',
  'update.status.installing': 'Wird installiert… Schalten Sie das Gerät nicht aus.',
  'update.status.restarting': 'Neustart…',
  'update.status.failed': 'Die Aktualisierung wurde nicht installiert.',
  'update.bytesOf': '{received} von {total}',
  'update.error.md5':
    'Die heruntergeladene Aktualisierung stimmte nicht mit ihrer MD5-Prüfsumme überein und wurde gelöscht. Sie wird erst wieder heruntergeladen, wenn eine neue Aktualisierung angeboten wird.',
  'update.error.hash':
    'Ein Abbild der Aktualisierung hat keine oder eine falsche SHA-256-Prüfsumme. Die Aktualisierung wurde gelöscht und wird erst wieder heruntergeladen, wenn eine neue angeboten wird.',
  'update.error.signature':
    'Die Aktualisierung ist nicht vom Gerätehersteller signiert, oder ihre Signatur ist falsch. Sie wurde gelöscht und wird erst wieder heruntergeladen, wenn eine neue angeboten wird.',
  'update.error.policy':
    'Dieses Gerät nimmt diese Aktualisierung nicht an (Version, Hardware oder Größe). Sie wird erst wieder heruntergeladen, wenn eine neue angeboten wird.',
  'update.error.battery':
    'Der Akku ist zu schwach für die Installation. Laden Sie das Gerät; die Aktualisierung wird bei der nächsten Prüfung installiert.',
  'update.error.space':
    'Nicht genug Speicher für die Aktualisierung. Geben Sie Speicher frei; sie wird bei der nächsten Prüfung erneut heruntergeladen.',
  'update.error.install':
    'Die Aktualisierung konnte nicht installiert werden. Das Gerät behält seine aktuelle Version.',
  'update.error.reboot':
    'Die Aktualisierung ist installiert, aber das Gerät konnte nicht neu starten. Schalten Sie es aus und wieder ein.',
  'update.error.package':
    'Das Aktualisierungspaket hat die Prüfungen nicht bestanden und wurde nicht installiert.',
  'update.error.download':
    'Der Download wurde unterbrochen ({detail}). Er wird bei der nächsten Prüfung fortgesetzt.',
  'update.error.other': 'Die Aktualisierung wurde nicht installiert ({detail}).',
  'unit.bytes': '{n} B',
  'unit.kibibytes': '{n} KiB',
  'unit.mebibytes': '{n} MiB',
  'unit.gibibytes': '{n} GiB',

  'verify.title': 'PC Link',
  'verify.prompt': 'Geben Sie das Gerätepasswort am Gerät ein',
  'verify.detail': 'Ein per USB verbundener Computer bittet um die Bestätigung, dass Sie es sind.',
  'verify.verified': 'Bestätigt. Sie können am Computer fortfahren.',
  'verify.password': 'Passwort',
  'verify.entered': '{count, plural, one {# Ziffer eingegeben} other {# Ziffern eingegeben}}',
  'verify.closesIn': 'Schließt in {time}',
  'verify.error.unavailable': 'Die PC-Link-Bestätigung ist auf diesem Gerät nicht verfügbar.',
  'verify.error.length': 'Geben Sie {min} bis {max} Ziffern ein.',
  'verify.error.noPassword':
    'Es ist kein Gerätepasswort festgelegt. Legen Sie zuerst eines in den Geräteeinstellungen fest.',
  'verify.error.wrong': 'Falsches Passwort. {left, plural, one {Noch # Versuch} other {Noch # Versuche}}.',
  'verify.error.refused':
    'Falsches Passwort. Dem Computer wurde mitgeteilt, dass die Bestätigung fehlgeschlagen ist.',
  'verify.error.locked': 'Zu viele falsche Passwörter. Versuchen Sie es in {wait, duration} erneut.',

  'page.title': 'waved-Gerätebildschirm',
  'page.loading': 'Wird geladen…',

  'group.wifi': 'WLAN',
  'group.device': 'Gerät',
  'group.audio': 'Audio',
  'group.webhook': 'Webhook',
  'group.storage': 'Speicher',
  'group.security': 'Sicherheit',
  'group.ntp': 'Uhrzeit (NTP)',
  'field.wifi.country': 'WLAN-Land',
  'field.wifi.country.hint': 'Legt die zulässigen Funkkanäle fest. „Weltweit“ ist überall zulässig.',
  'field.device.name': 'Gerätename',
  'field.device.name.hint': 'Bis zu {max} Zeichen.',
  'field.device.country': 'Land',
  'field.device.country.hint': 'Bestimmt die Cloud-Region (China, USA oder Europa für alle anderen).',
  'field.device.timezone': 'Zeitzone',
  'field.device.language': 'Sprache',
  'field.audio.volume': 'Lautstärke',
  'field.audio.volume.hint': '{min} bis {max}.',
  'field.audio.prompt_tones': 'Hinweistöne abspielen',
  'field.webhook.url': 'Webhook-URL',
  'field.webhook.url.hint':
    'https://-Adresse, die die Ereignisse empfängt, signiert mit dem Geheimnis darunter.',
  'field.webhook.url.remove': 'Webhook entfernen',
  'field.webhook.secret': 'Webhook-Geheimnis',
  'field.webhook.secret.hint':
    '{min} bis {max} Zeichen. Die Anfragen werden damit signiert; es selbst wird nie gesendet.',
  'field.webhook.secret.remove': 'Webhook-Geheimnis entfernen',
  'field.storage.auto_upload': 'Aufnahmen automatisch hochladen',
  'field.storage.max_usage_percent': 'Maximale Speichernutzung (%)',
  'field.storage.max_usage_percent.hint':
    '{min} bis {max}. Darüber werden ältere, bereits hochgeladene Aufnahmen entfernt.',
  'field.security.device_password': 'Geräte-PIN',
  'field.security.device_password.hint': '{min} bis {max} Ziffern.',
  'field.security.device_password.remove': 'Geräte-PIN entfernen',
  'field.ntp.enabled': 'Uhr über Zeitserver stellen',
  'field.ntp.servers': 'Zeitserver',
  'field.ntp.servers.hint':
    'Hostnamen oder IPv4-Adressen, getrennt durch Kommas oder Leerzeichen (bis zu {max}).',

  'error.device.name.empty': 'Geben Sie einen Namen für das Gerät ein.',
  'error.device.name.long': 'Verwenden Sie höchstens {max} Zeichen.',
  'error.device.name.chars': 'Verwenden Sie nur Buchstaben, Ziffern, Leerzeichen und Satzzeichen.',
  'error.country': 'Wählen Sie ein Land aus der Liste.',
  'error.wifi.country': 'Wählen Sie ein Land aus der Liste oder „Weltweit“.',
  'error.timezone': 'Wählen Sie eine Zeitzone aus der Liste.',
  'error.language': 'Wählen Sie eine Sprache aus der Liste.',
  'error.webhook.url': 'Geben Sie eine vollständige Adresse ein, die mit https:// beginnt.',
  'error.webhook.http':
    'Verwenden Sie eine https://-Adresse: Dieses Gerät sendet keine Ereignisse über unverschlüsseltes http.',
  'error.webhook.secret':
    'Verwenden Sie {min} bis {max} druckbare Zeichen ohne Leerzeichen (geben Sie es erneut ein).',
  'error.pin': 'Die PIN muss {min} bis {max} Ziffern haben (geben Sie sie erneut ein).',
  'error.currentPin.missing': 'Geben Sie zum Speichern die aktuelle Geräte-PIN ein.',
  'error.currentPin.invalid': 'Die PIN hat {min} bis {max} Ziffern. Geben Sie sie erneut ein.',
  'error.currentPin.locked': 'Zu viele falsche PINs. Versuchen Sie es in {wait, duration} erneut.',
  'error.currentPin.wrong': 'Falsche PIN. Es wurde nichts gespeichert.',
  'error.currentPin.wrongWait':
    'Falsche PIN. Es wurde nichts gespeichert. Warten Sie {wait, duration} bis zum nächsten Versuch.',
  'error.ntp.none': 'Geben Sie mindestens einen Zeitserver ein.',
  'error.ntp.many': 'Geben Sie höchstens {max, plural, one {# Server} other {# Server}} ein.',
  'error.ntp.host': '„{name}“ ist weder ein Hostname noch eine IPv4-Adresse.',
  'error.ntp.reserved':
    '„{name}“ kann kein Zeitserver sein (eine lokale, Einrichtungsnetz- oder reservierte Adresse).',
  'error.boolean': 'Setzen oder entfernen Sie das Häkchen.',
  'error.number': 'Geben Sie eine ganze Zahl von {min} bis {max} ein.',
  'error.unknown': 'Unbekannte Einstellung.',
  'error.wifi.choose':
    'Wählen Sie ein Netzwerk, oder wählen Sie „Anderes“ und geben Sie den Namen eines versteckten Netzwerks ein.',
  'error.wifi.chooseListed':
    'Wählen Sie ein Netzwerk aus der Liste, oder wählen Sie „Anderes“ und geben Sie den Namen eines versteckten Netzwerks ein.',
  'error.wifi.ssidLength':
    'Ein Netzwerkname ist 1 bis {max} Byte lang (weniger Zeichen bei Umlauten, Akzenten oder Emoji).',
  'error.wifi.open':
    'Dies ist ein offenes Netzwerk. Das Gerät verbindet sich nur mit WPA2-geschützten Netzwerken.',
  'error.wifi.passwordMissing': 'Geben Sie das WLAN-Passwort ein.',
  'error.wifi.passwordInvalid':
    'Verwenden Sie {min} bis {max} Zeichen ohne Umlaute, Akzente oder Emoji, oder {hex} Hexadezimalziffern. Geben Sie es erneut ein.',
  'error.body.type':
    'Senden Sie das Formular als application/x-www-form-urlencoded oder multipart/form-data.',
  'error.body.incomplete': 'Das Formular wurde nicht vollständig empfangen.',
  'error.body.tooLarge': 'Das Formular ist größer als {size} KiB.',
  'error.body.multipart': 'Der Multipart-Inhalt konnte nicht gelesen werden.',

  'portal.language': 'Sprache',
  'portal.form.title': '{ssid} einrichten',
  'portal.form.lead':
    'Wählen Sie das WLAN, mit dem sich das Gerät verbinden soll, und prüfen Sie dann seine Einstellungen.',
  'portal.form.closesIn': 'Diese Einrichtungsseite schließt in {time}.',
  'portal.form.saveConnect': 'Speichern und verbinden',
  'portal.form.saveOnly': 'Nur Einstellungen speichern',
  'portal.errors.summary':
    'Es wurde nichts gespeichert. Bitte korrigieren Sie {count, plural, one {dieses Feld} other {diese # Felder}}:',
  'portal.errors.item': '{field}: {error}',
  'portal.stale':
    'Die Einstellungen wurden von einem anderen Telefon geändert, während diese Seite offen war. Es wurde nichts gespeichert: Prüfen Sie das Formular unten und speichern Sie erneut.',
  'portal.wifi.choose': 'Wählen Sie Ihr Netzwerk',
  'portal.wifi.noNetworks': 'In der Nähe wurden keine Netzwerke gefunden. Geben Sie den Namen unten ein.',
  'portal.wifi.openNetwork': 'Offenes Netzwerk, nicht unterstützt',
  'portal.wifi.other': 'Anderes (verstecktes) Netzwerk…',
  'portal.wifi.network': 'Netzwerk',
  'portal.wifi.hiddenName': 'Name des versteckten Netzwerks',
  'portal.wifi.hiddenHint': 'Nur für ein Netzwerk, das seinen Namen nicht sendet; wählen Sie oben „Anderes“.',
  'portal.wifi.password': 'WLAN-Passwort',
  'portal.wifi.passwordHint':
    'WPA2-Passwort, {min} bis {max} Zeichen. Es wird nur als abgeleiteter Schlüssel gespeichert.',
  'portal.wifi.showPassword': 'Passwort anzeigen',
  'portal.wifi.secured': 'Geschützt',
  'portal.signal.excellent': 'Ausgezeichnet',
  'portal.signal.good': 'Gut',
  'portal.signal.fair': 'Mittel',
  'portal.signal.weak': 'Schwach',
  'portal.country.world': 'Weltweit (überall zulässig)',
  'portal.country.notSet': 'Nicht festgelegt (Region Europa)',
  'portal.secret.unchanged': 'unverändert',
  'portal.secret.notSet': 'nicht festgelegt',
  'portal.secret.keepUnchanged': 'Leer lassen, damit nichts geändert wird.',
  'portal.secret.keepUnset': 'Leer lassen, damit nichts festgelegt wird.',
  'portal.webhook.now':
    'Derzeit: {url}. Leer lassen, um sie zu behalten, oder eine neue Adresse eingeben (dann muss auch das Geheimnis erneut eingegeben werden).',
  'portal.currentPin.label': 'Aktuelle Geräte-PIN',
  'portal.currentPin.hint':
    'Dieses Gerät ist durch eine PIN geschützt. Geben Sie sie ein, um Änderungen zu speichern.',
  'portal.banner.scanning': 'Suche nach Netzwerken…',
  'portal.banner.connecting': 'Verbindung mit „{ssid}“ wird hergestellt…',
  'portal.banner.connectingHint':
    'Achten Sie auf den Gerätebildschirm. Dieses Telefon verlässt jetzt das Einrichtungsnetzwerk.',
  'portal.banner.connected': 'Mit „{ssid}“ verbunden.',
  'portal.banner.connectedHint': 'Die Einrichtung ist abgeschlossen. Sie können diese Seite schließen.',
  'portal.banner.failedTo': 'Verbindung mit „{ssid}“ fehlgeschlagen.',
  'portal.banner.failed': 'Verbindung fehlgeschlagen.',
  'portal.tryAgain': 'Erneut versuchen',
  'portal.inactive.title': 'Die Einrichtung ist nicht aktiv',
  'portal.inactive.body':
    'Öffnen Sie {path} am Gerät, verbinden Sie sich mit dem angezeigten Netzwerk und öffnen Sie diese Seite erneut.',
  'portal.status.title': 'Stand der Einrichtung',
  'portal.status.waiting': 'Warten auf Ihre Einstellungen.',
  'portal.status.openForm': 'Formular öffnen',
  'portal.status.hint':
    'Falls dieses Telefon das Einrichtungsnetzwerk verlassen hat, zeigt der Gerätebildschirm das Ergebnis. Für einen neuen Versuch verbinden Sie sich wieder mit {ap} und öffnen Sie {url}.',
  'portal.notSaved.title': 'Es wurde nichts gespeichert',
  'portal.backToForm': 'Zurück zum Formular',
  'portal.expired.title': 'Diese Seite ist abgelaufen',
  'portal.expired.body':
    'Es wurde nichts gespeichert. Die Einrichtungssitzung hat sich geändert, seit diese Seite geladen wurde.',
  'portal.reloadForm': 'Formular neu laden',
  'portal.busy.title': 'Bitte warten',
  'portal.busy.body':
    'Das Gerät stellt gerade eine Verbindung her. Warten Sie auf das Ergebnis und versuchen Sie es dann erneut.',
  'portal.showStatus': 'Stand anzeigen',
  'portal.saveFailed.body': 'Das Gerät konnte seine Einstellungen nicht schreiben. Versuchen Sie es erneut.',
  'portal.saved.title': 'Einstellungen gespeichert',
  'portal.saved.done': 'Ihre Einstellungen sind gespeichert.',
  'portal.saved.secretCleared':
    'Die Webhook-Adresse hat sich geändert, daher wurde ihr Geheimnis entfernt: Geben Sie erneut ein Geheimnis ein, um die Anfragen zu signieren.',
  'portal.saved.leaving':
    'Das Gerät schließt jetzt das Einrichtungsnetzwerk {ap}. Dieses Telefon wird davon getrennt und kehrt zu seinem üblichen Netzwerk zurück.',
  'portal.saved.next':
    'Der Gerätebildschirm zeigt {connected} oder den Grund des Fehlers mit {tryAgain}. Falls es nicht klappt, verbinden Sie sich wieder mit {ap} und öffnen Sie erneut {url}.',
};
