import type { Catalog, LocaleMeta } from '../catalog.js';

/**
 * Polski. Machine-made translation of the English catalog, not yet checked by a native speaker;
 * informal imperative, as Polish phone interfaces use; plural forms one, few, many and other.
 * Corrections are welcome here: the catalog tests keep the keys, the parameters and the plural
 * forms in step with English and with Polish plural rules.
 */
export const meta: LocaleMeta = {
  tag: 'pl',
  name: 'Polski',
  made: 'Machine-made translation of the English catalog; not yet checked by a native speaker.',
};

export const messages: Catalog = {
  'failure.wrong-password':
    'Hasło Wi-Fi nie zostało zaakceptowane. Sprawdź je (wielkość liter ma znaczenie) i spróbuj ponownie.',
  'failure.network-not-found':
    'Nie znaleziono sieci. Sprawdź nazwę, przenieś urządzenie bliżej routera i spróbuj ponownie.',
  'failure.no-address':
    'Urządzenie połączyło się z siecią, ale nie otrzymało adresu od routera (DHCP). Sprawdź router i spróbuj ponownie.',
  'failure.association-timeout': 'Urządzenie nie zdołało połączyć się z siecią na czas. Spróbuj ponownie.',
  'failure.ap-failed': 'Nie udało się uruchomić sieci konfiguracyjnej. Spróbuj ponownie.',
  'failure.unknown': 'Nie udało się połączyć. Spróbuj ponownie.',

  'screen.rowLabel': '{label}:',

  'screen.action.back': 'Wstecz',
  'screen.action.cancel': 'Anuluj',
  'screen.action.changeNetwork': 'Zmień sieć',
  'screen.action.delete': 'Usuń',
  'screen.action.done': 'Gotowe',
  'screen.action.install': 'Zainstaluj',
  'screen.action.later': 'Później',
  'screen.action.ok': 'OK',
  'screen.action.setUpWifi': 'Skonfiguruj Wi-Fi',
  'screen.action.stayConnected': 'Pozostań połączony',
  'screen.action.tryAgain': 'Spróbuj ponownie',

  'screen.menu.title': 'Menu',
  'screen.menu.wifi': 'Wi-Fi',
  'screen.wifi.title': 'Wi-Fi',
  'screen.wifi.network': 'Sieć',
  'screen.wifi.status': 'Stan',
  'screen.wifi.ipv4': 'IPv4',
  'screen.wifi.statusLine': '{status} · {signal}',
  'screen.status.connected': 'Połączono',
  'screen.status.connecting': 'Łączenie',
  'screen.status.scanning': 'Wyszukiwanie sieci',
  'screen.status.off': 'Wi-Fi jest wyłączone',
  'screen.status.unknown': 'Nieznany',
  'screen.status.disconnected': 'Nie połączono',
  'screen.signal.excellent': 'Doskonały sygnał',
  'screen.signal.good': 'Dobry sygnał',
  'screen.signal.fair': 'Średni sygnał',
  'screen.signal.weak': 'Słaby sygnał',
  'screen.confirm.question': 'Zmienić sieć?',
  'screen.confirm.detail': 'Urządzenie rozłącza się z „{ssid}”, dopóki sieć konfiguracyjna jest otwarta.',
  'screen.notice.timedOut':
    'Konfigurację zamknięto po {minutes, plural, one {# minucie} few {# minutach} many {# minutach} other {# minuty}}. Urządzenie wróciło do zapisanych sieci.',
  'screen.notice.closed': 'Konfigurację zamknięto. Urządzenie wróciło do zapisanych sieci.',

  'screen.setup.title': 'Konfiguracja Wi-Fi',
  'screen.setup.network': 'Sieć',
  'screen.setup.password': 'Hasło',
  'screen.setup.address': 'Adres',
  'screen.setup.qr': 'Kod QR Wi-Fi',
  'screen.setup.starting': 'Uruchamianie sieci konfiguracyjnej…',
  'screen.setup.scanning': 'Wyszukiwanie sieci…',
  'screen.setup.ready': 'Zeskanuj kod aparatem telefonu albo połącz się z siecią powyżej i otwórz adres.',
  'screen.setup.connecting': 'Łączenie z {ssid}…',
  'screen.setup.connected': 'Połączono z {ssid}.',
  'screen.setup.failedTo': 'Nie udało się połączyć z {ssid}.',
  'screen.setup.failed': 'Nie udało się połączyć.',
  'screen.setup.closesIn': 'Konfiguracja zamknie się za {time}',

  'update.title': 'Aktualizacja oprogramowania',
  'update.firmware': 'Oprogramowanie układowe',
  'update.model': 'Model',
  'update.headline.available': 'Dostępna aktualizacja v{version} (wymaga zgody)',
  'update.headline.installing': 'Instalowanie aktualizacji v{version}',
  'update.headline.failed': 'Aktualizacja v{version} nie została zainstalowana',
  'update.status.forced': 'Obowiązkowa aktualizacja: pobiera się i instaluje bez pytania.',
  'update.status.starting': 'Rozpoczynanie pobierania…',
  'update.status.downloading': 'Pobieranie…',
  'update.status.downloadingPercent': 'Pobieranie… {percent}',
  'update.status.verifying': 'Sprawdzanie pobranego pliku…',
  'update.status.consent': 'Gotowa do instalacji. Po zakończeniu urządzenie uruchomi się ponownie.',
  'update.status.installing': 'Instalowanie… Nie wyłączaj urządzenia.',
  'update.status.restarting': 'Ponowne uruchamianie…',
  'update.status.failed': 'Aktualizacja nie została zainstalowana.',
  'update.bytesOf': '{received} z {total}',
  'update.error.md5':
    'Pobrana aktualizacja była uszkodzona (niezgodna suma MD5) i została usunięta. Zostanie pobrana ponownie przy następnym sprawdzeniu.',
  'update.error.battery':
    'Bateria jest zbyt słaba, by zainstalować aktualizację. Naładuj urządzenie; aktualizacja zainstaluje się przy następnym sprawdzeniu.',
  'update.error.space':
    'Za mało miejsca na aktualizację. Zwolnij miejsce; zostanie pobrana ponownie przy następnym sprawdzeniu.',
  'update.error.install': 'Nie udało się zainstalować aktualizacji. Urządzenie zachowuje obecną wersję.',
  'update.error.reboot':
    'Aktualizacja jest zainstalowana, ale urządzenie nie mogło uruchomić się ponownie. Wyłącz je i włącz ponownie.',
  'update.error.package': 'Pakiet aktualizacji nie przeszedł kontroli i nie został zainstalowany.',
  'update.error.download':
    'Pobieranie zostało przerwane ({detail}). Zostanie wznowione przy następnym sprawdzeniu.',
  'update.error.other': 'Aktualizacja nie została zainstalowana ({detail}).',
  'unit.bytes': '{n} B',
  'unit.kibibytes': '{n} KiB',
  'unit.mebibytes': '{n} MiB',
  'unit.gibibytes': '{n} GiB',

  'verify.title': 'PC Link',
  'verify.prompt': 'Wpisz hasło urządzenia na urządzeniu',
  'verify.detail': 'Komputer podłączony przez USB prosi o potwierdzenie, że to Ty.',
  'verify.verified': 'Potwierdzono. Możesz kontynuować na komputerze.',
  'verify.password': 'Hasło',
  'verify.entered':
    '{count, plural, one {Wpisano # cyfrę} few {Wpisano # cyfry} many {Wpisano # cyfr} other {Wpisano # cyfry}}',
  'verify.closesIn': 'Zamknie się za {time}',
  'verify.error.unavailable': 'Weryfikacja PC Link nie jest dostępna na tym urządzeniu.',
  'verify.error.length': 'Wpisz od {min} do {max} cyfr.',
  'verify.error.noPassword': 'Nie ustawiono hasła urządzenia. Najpierw ustaw je w ustawieniach urządzenia.',
  'verify.error.wrong':
    'Błędne hasło. {left, plural, one {Została # próba} few {Zostały # próby} many {Zostało # prób} other {Zostało # próby}}.',
  'verify.error.refused': 'Błędne hasło. Komputer otrzymał informację, że weryfikacja się nie powiodła.',
  'verify.error.locked': 'Zbyt wiele błędnych haseł. Spróbuj ponownie za {wait, duration}.',

  'page.title': 'Ekran urządzenia waved',
  'page.loading': 'Ładowanie…',
};
