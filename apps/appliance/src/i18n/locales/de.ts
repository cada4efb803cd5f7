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
    'Die heruntergeladene Aktualisierung war beschädigt (MD5 stimmt nicht) und wurde gelöscht. Sie wird bei der nächsten Prüfung erneut heruntergeladen.',
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
};
