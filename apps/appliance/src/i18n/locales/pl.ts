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
  'screen.setup.passwordHidden': '(widoczne na ekranie urządzenia)',
  'screen.page.hostRefused': 'ta strona jest tylko dla ekranu urządzenia',
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
    'Pobrana aktualizacja nie zgadzała się z sumą kontrolną MD5 i została usunięta. Nie zostanie pobrana ponownie, dopóki nie pojawi się nowa aktualizacja.',
  'update.error.hash':
    'Obraz w aktualizacji nie ma sumy kontrolnej SHA-256 lub jest ona błędna. Aktualizacja została usunięta i nie zostanie pobrana ponownie, dopóki nie pojawi się nowa.',
  'update.error.signature':
    'Aktualizacja nie jest podpisana przez producenta urządzenia lub jej podpis jest błędny. Została usunięta i nie zostanie pobrana ponownie, dopóki nie pojawi się nowa.',
  'update.error.policy':
    'To urządzenie nie przyjmuje tej aktualizacji (wersja, sprzęt lub rozmiar). Nie zostanie pobrana ponownie, dopóki nie pojawi się nowa.',
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

  'group.wifi': 'Wi-Fi',
  'group.device': 'Urządzenie',
  'group.audio': 'Dźwięk',
  'group.webhook': 'Webhook',
  'group.storage': 'Pamięć',
  'group.security': 'Bezpieczeństwo',
  'group.ntp': 'Czas (NTP)',
  'field.wifi.country': 'Kraj Wi-Fi',
  'field.wifi.country.hint': 'Ustala dozwolone kanały radiowe. „Cały świat” jest bezpieczny wszędzie.',
  'field.device.name': 'Nazwa urządzenia',
  'field.device.name.hint':
    'Najwyżej {max, plural, one {# znak} few {# znaki} many {# znaków} other {# znaku}}.',
  'field.device.country': 'Kraj',
  'field.device.country.hint': 'Wybiera region chmury (Chiny, USA lub Europa dla wszystkich pozostałych).',
  'field.device.timezone': 'Strefa czasowa',
  'field.device.language': 'Język',
  'field.audio.volume': 'Głośność',
  'field.audio.volume.hint': 'Od {min} do {max}.',
  'field.audio.prompt_tones': 'Odtwarzaj dźwięki podpowiedzi',
  'field.webhook.url': 'Adres URL webhooka',
  'field.webhook.url.hint': 'Adres https://, który odbiera zdarzenia podpisane sekretem poniżej.',
  'field.webhook.url.remove': 'Usuń webhook',
  'field.webhook.secret': 'Sekret webhooka',
  'field.webhook.secret.hint':
    'Od {min} do {max} znaków. Żądania są nim podpisywane; sam sekret nigdy nie jest wysyłany.',
  'field.webhook.secret.remove': 'Usuń sekret webhooka',
  'field.storage.auto_upload': 'Automatycznie wysyłaj nagrania',
  'field.storage.max_usage_percent': 'Maksymalne zajęcie pamięci (%)',
  'field.storage.max_usage_percent.hint':
    'Od {min} do {max}. Powyżej tej wartości najstarsze wysłane nagrania są usuwane.',
  'field.security.device_password': 'PIN urządzenia',
  'field.security.device_password.hint': 'Od {min} do {max} cyfr.',
  'field.security.device_password.remove': 'Usuń PIN urządzenia',
  'field.ntp.enabled': 'Ustawiaj zegar według serwerów czasu',
  'field.ntp.servers': 'Serwery czasu',
  'field.ntp.servers.hint':
    'Nazwy hostów lub adresy IPv4, oddzielone przecinkami lub spacjami (najwyżej {max}).',

  'error.device.name.empty': 'Wpisz nazwę urządzenia.',
  'error.device.name.long':
    'Nazwa może mieć najwyżej {max, plural, one {# znak} few {# znaki} many {# znaków} other {# znaku}}.',
  'error.device.name.chars': 'Używaj tylko liter, cyfr, spacji i znaków interpunkcyjnych.',
  'error.country': 'Wybierz kraj z listy.',
  'error.wifi.country': 'Wybierz kraj z listy lub „Cały świat”.',
  'error.timezone': 'Wybierz strefę czasową z listy.',
  'error.language': 'Wybierz język z listy.',
  'error.webhook.url': 'Wpisz pełny adres zaczynający się od https://.',
  'error.webhook.http': 'Użyj adresu https://: to urządzenie nie wysyła zdarzeń przez nieszyfrowany http.',
  'error.webhook.secret': 'Użyj od {min} do {max} drukowalnych znaków bez spacji (wpisz go ponownie).',
  'error.pin': 'PIN musi mieć od {min} do {max} cyfr (wpisz go ponownie).',
  'error.currentPin.missing': 'Aby zapisać, wpisz obecny PIN urządzenia.',
  'error.currentPin.invalid': 'PIN ma od {min} do {max} cyfr. Wpisz go ponownie.',
  'error.currentPin.locked': 'Zbyt wiele błędnych PIN-ów. Spróbuj ponownie za {wait, duration}.',
  'error.currentPin.wrong': 'Błędny PIN. Nic nie zostało zapisane.',
  'error.currentPin.wrongWait':
    'Błędny PIN. Nic nie zostało zapisane. Odczekaj {wait, duration} przed następną próbą.',
  'error.ntp.none': 'Wpisz co najmniej jeden serwer czasu.',
  'error.ntp.many':
    'Wpisz najwyżej {max, plural, one {# serwer} few {# serwery} many {# serwerów} other {# serwera}}.',
  'error.ntp.host': '„{name}” nie jest nazwą hosta ani adresem IPv4.',
  'error.ntp.reserved':
    '„{name}” nie może być serwerem czasu (adres lokalny, sieci konfiguracji lub zarezerwowany).',
  'error.boolean': 'Zaznacz lub odznacz pole.',
  'error.number': 'Wpisz liczbę całkowitą od {min} do {max}.',
  'error.unknown': 'Nieznane ustawienie.',
  'error.wifi.choose': 'Wybierz sieć albo wybierz „Inna” i wpisz nazwę ukrytej sieci.',
  'error.wifi.chooseListed': 'Wybierz sieć z listy albo wybierz „Inna” i wpisz nazwę ukrytej sieci.',
  'error.wifi.ssidLength':
    'Nazwa sieci ma od 1 do {max} bajtów (mniej znaków przy literach ze znakami diakrytycznymi lub emoji).',
  'error.wifi.open': 'To jest sieć otwarta. Urządzenie łączy się tylko z sieciami chronionymi przez WPA2.',
  'error.wifi.passwordMissing': 'Wpisz hasło Wi-Fi.',
  'error.wifi.passwordInvalid':
    'Użyj od {min} do {max} znaków bez znaków diakrytycznych i emoji albo {hex} cyfr szesnastkowych. Wpisz je ponownie.',
  'error.body.type': 'Wyślij formularz jako application/x-www-form-urlencoded lub multipart/form-data.',
  'error.body.incomplete': 'Formularz nie dotarł w całości.',
  'error.body.tooLarge': 'Formularz jest większy niż {size} KiB.',
  'error.body.multipart': 'Nie udało się odczytać treści multipart.',

  'portal.language': 'Język',
  'portal.form.title': 'Konfiguracja {ssid}',
  'portal.form.lead':
    'Wybierz sieć Wi-Fi, z którą ma się łączyć urządzenie, a potem sprawdź jego ustawienia.',
  'portal.form.closesIn': 'Ta strona konfiguracji zamknie się za {time}.',
  'portal.form.saveConnect': 'Zapisz i połącz',
  'portal.form.saveOnly': 'Zapisz tylko ustawienia',
  'portal.errors.summary':
    'Nic nie zostało zapisane. {count, plural, one {Popraw to pole} few {Popraw te # pola} many {Popraw te # pól} other {Popraw te # pola}}:',
  'portal.errors.item': '{field}: {error}',
  'portal.stale':
    'Ustawienia zostały zmienione z innego telefonu, gdy ta strona była otwarta. Nic nie zostało zapisane: sprawdź formularz poniżej i zapisz ponownie.',
  'portal.wifi.choose': 'Wybierz swoją sieć',
  'portal.wifi.noNetworks': 'W pobliżu nie znaleziono sieci. Wpisz nazwę poniżej.',
  'portal.wifi.openNetwork': 'Sieć otwarta, nieobsługiwana',
  'portal.wifi.other': 'Inna (ukryta) sieć…',
  'portal.wifi.network': 'Sieć',
  'portal.wifi.hiddenName': 'Nazwa ukrytej sieci',
  'portal.wifi.hiddenHint': 'Tylko dla sieci, która nie rozgłasza swojej nazwy; wybierz powyżej „Inna”.',
  'portal.wifi.password': 'Hasło Wi-Fi',
  'portal.wifi.passwordHint':
    'Hasło WPA2, od {min} do {max} znaków. Jest przechowywane tylko jako klucz pochodny.',
  'portal.wifi.showPassword': 'Pokaż hasło',
  'portal.wifi.secured': 'Zabezpieczona',
  'portal.signal.excellent': 'Doskonały',
  'portal.signal.good': 'Dobry',
  'portal.signal.fair': 'Średni',
  'portal.signal.weak': 'Słaby',
  'portal.country.world': 'Cały świat (bezpieczne wszędzie)',
  'portal.country.notSet': 'Nie ustawiono (region Europa)',
  'portal.secret.unchanged': 'bez zmian',
  'portal.secret.notSet': 'nie ustawiono',
  'portal.secret.keepUnchanged': 'Zostaw puste, aby nic nie zmieniać.',
  'portal.secret.keepUnset': 'Zostaw puste, aby niczego nie ustawiać.',
  'portal.webhook.now':
    'Obecnie: {url}. Zostaw puste, aby go zachować, albo wpisz nowy adres (wtedy trzeba ponownie wpisać sekret).',
  'portal.currentPin.label': 'Obecny PIN urządzenia',
  'portal.currentPin.hint': 'To urządzenie jest chronione PIN-em. Wpisz go, aby zapisać jakąkolwiek zmianę.',
  'portal.banner.scanning': 'Wyszukiwanie sieci…',
  'portal.banner.connecting': 'Łączenie z „{ssid}”…',
  'portal.banner.connectingHint':
    'Patrz na ekran urządzenia. Ten telefon opuszcza teraz sieć konfiguracyjną.',
  'portal.banner.connected': 'Połączono z „{ssid}”.',
  'portal.banner.connectedHint': 'Konfiguracja zakończona. Możesz zamknąć tę stronę.',
  'portal.banner.failedTo': 'Nie udało się połączyć z „{ssid}”.',
  'portal.banner.failed': 'Nie udało się połączyć.',
  'portal.tryAgain': 'Spróbuj ponownie',
  'portal.inactive.title': 'Konfiguracja nie jest aktywna',
  'portal.inactive.body':
    'Otwórz {path} na urządzeniu, połącz się z wyświetloną siecią i ponownie otwórz tę stronę.',
  'portal.status.title': 'Stan konfiguracji',
  'portal.status.waiting': 'Oczekiwanie na ustawienia.',
  'portal.status.openForm': 'Otwórz formularz',
  'portal.status.hint':
    'Jeśli ten telefon opuścił sieć konfiguracyjną, wynik pokazuje ekran urządzenia. Aby spróbować ponownie, połącz się znów z {ap} i otwórz {url}.',
  'portal.notSaved.title': 'Nic nie zostało zapisane',
  'portal.backToForm': 'Wróć do formularza',
  'portal.expired.title': 'Ta strona wygasła',
  'portal.expired.body':
    'Nic nie zostało zapisane. Sesja konfiguracji zmieniła się od załadowania tej strony.',
  'portal.reloadForm': 'Załaduj formularz ponownie',
  'portal.busy.title': 'Zaczekaj',
  'portal.busy.body': 'Urządzenie właśnie się łączy. Poczekaj na wynik, a potem spróbuj ponownie.',
  'portal.showStatus': 'Pokaż stan',
  'portal.saveFailed.body': 'Urządzenie nie mogło zapisać ustawień. Spróbuj ponownie.',
  'portal.saved.title': 'Ustawienia zapisane',
  'portal.saved.done': 'Twoje ustawienia zostały zapisane.',
  'portal.saved.secretCleared':
    'Adres webhooka się zmienił, więc jego sekret został usunięty: wpisz sekret ponownie, aby podpisywać żądania.',
  'portal.saved.leaving':
    'Urządzenie zamyka teraz sieć konfiguracyjną {ap}, więc ten telefon się od niej rozłączy i wróci do swojej zwykłej sieci.',
  'portal.saved.next':
    'Ekran urządzenia pokaże {connected} albo przyczynę błędu i przycisk {tryAgain}. Jeśli się nie uda, połącz się znów z {ap} i ponownie otwórz {url}.',
};
