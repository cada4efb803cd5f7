import type { Catalog, LocaleMeta } from '../catalog.js';

/**
 * Español. Machine-made translation of the English catalog, not yet checked by a native speaker;
 * informal address (tú), as phone interfaces in Spanish commonly use. Corrections are welcome
 * here: the catalog tests keep the keys and the parameters in step with English.
 */
export const meta: LocaleMeta = {
  tag: 'es',
  name: 'Español',
  made: 'Machine-made translation of the English catalog; not yet checked by a native speaker.',
};

export const messages: Catalog = {
  'failure.wrong-password':
    'No se aceptó la contraseña de la red Wi-Fi. Compruébala (distingue mayúsculas y minúsculas) y vuelve a intentarlo.',
  'failure.network-not-found':
    'No se encontró la red. Comprueba el nombre, acerca el dispositivo al router y vuelve a intentarlo.',
  'failure.no-address':
    'El dispositivo se unió a la red, pero el router no le asignó ninguna dirección (DHCP). Comprueba el router y vuelve a intentarlo.',
  'failure.association-timeout': 'El dispositivo no pudo unirse a la red a tiempo. Vuelve a intentarlo.',
  'failure.ap-failed': 'No se pudo iniciar la red de configuración. Vuelve a intentarlo.',
  'failure.unknown': 'La conexión falló. Vuelve a intentarlo.',

  'screen.rowLabel': '{label}:',

  'screen.action.back': 'Atrás',
  'screen.action.cancel': 'Cancelar',
  'screen.action.changeNetwork': 'Cambiar de red',
  'screen.action.delete': 'Borrar',
  'screen.action.done': 'Listo',
  'screen.action.install': 'Instalar',
  'screen.action.later': 'Más tarde',
  'screen.action.ok': 'Aceptar',
  'screen.action.setUpWifi': 'Configurar Wi-Fi',
  'screen.action.stayConnected': 'Seguir conectado',
  'screen.action.tryAgain': 'Reintentar',

  'screen.menu.title': 'Menú',
  'screen.menu.wifi': 'Wi-Fi',
  'screen.wifi.title': 'Wi-Fi',
  'screen.wifi.network': 'Red',
  'screen.wifi.status': 'Estado',
  'screen.wifi.ipv4': 'IPv4',
  'screen.wifi.statusLine': '{status} · {signal}',
  'screen.status.connected': 'Conectado',
  'screen.status.connecting': 'Conectando',
  'screen.status.scanning': 'Buscando redes',
  'screen.status.off': 'Wi-Fi desactivado',
  'screen.status.unknown': 'Desconocido',
  'screen.status.disconnected': 'No conectado',
  'screen.signal.excellent': 'Señal excelente',
  'screen.signal.good': 'Señal buena',
  'screen.signal.fair': 'Señal aceptable',
  'screen.signal.weak': 'Señal débil',
  'screen.confirm.question': '¿Cambiar de red?',
  'screen.confirm.detail':
    'El dispositivo se desconecta de «{ssid}» mientras la red de configuración esté abierta.',
  'screen.notice.timedOut':
    'La configuración se cerró tras {minutes, plural, one {# minuto} other {# minutos}}. El dispositivo volvió a sus redes guardadas.',
  'screen.notice.closed': 'La configuración se cerró. El dispositivo volvió a sus redes guardadas.',

  'screen.setup.title': 'Configurar Wi-Fi',
  'screen.setup.network': 'Red',
  'screen.setup.password': 'Contraseña',
  'screen.setup.passwordHidden': '(se muestra en la pantalla del dispositivo)',
  'screen.page.hostRefused': 'esta página es solo para la pantalla del dispositivo',
  'screen.setup.address': 'Dirección',
  'screen.setup.qr': 'Código QR de Wi-Fi',
  'screen.setup.starting': 'Iniciando la red de configuración…',
  'screen.setup.scanning': 'Buscando redes…',
  'screen.setup.ready':
    'Escanea el código con la cámara del teléfono, o únete a la red de arriba y abre la dirección.',
  'screen.setup.connecting': 'Conectando a {ssid}…',
  'screen.setup.connected': 'Conectado a {ssid}.',
  'screen.setup.failedTo': 'No se pudo conectar a {ssid}.',
  'screen.setup.failed': 'No se pudo conectar.',
  'screen.setup.closesIn': 'La configuración se cierra en {time}',

  'update.title': 'Actualización de software',
  'update.firmware': 'Firmware',
  'update.model': 'Modelo',
  'update.headline.available': 'Actualización v{version} disponible (requiere tu consentimiento)',
  'update.headline.installing': 'Instalando la actualización v{version}',
  'update.headline.failed': 'Actualización v{version} no instalada',
  'update.status.forced': 'Actualización obligatoria: se descarga e instala sin preguntar.',
  'update.status.starting': 'Iniciando la descarga…',
  'update.status.downloading': 'Descargando…',
  'update.status.downloadingPercent': 'Descargando… {percent}',
  'update.status.verifying': 'Comprobando la descarga…',
  'update.status.consent': 'Lista para instalar. El dispositivo se reinicia al terminar.',
  'update.status.installing': 'Instalando… No apagues el dispositivo.',
  'update.status.restarting': 'Reiniciando…',
  'update.status.failed': 'La actualización no se instaló.',
  'update.bytesOf': '{received} de {total}',
  'update.error.md5':
    'La actualización descargada no coincidía con su suma de comprobación MD5 y se ha eliminado. No se volverá a descargar hasta que se ofrezca una nueva actualización.',
  'update.error.hash':
    'Una imagen de la actualización no tiene suma de comprobación SHA-256 o la tiene incorrecta. La actualización se ha eliminado y no se volverá a descargar hasta que se ofrezca una nueva.',
  'update.error.signature':
    'La actualización no está firmada por el fabricante del dispositivo o su firma es incorrecta. Se ha eliminado y no se volverá a descargar hasta que se ofrezca una nueva.',
  'update.error.policy':
    'Este dispositivo no acepta esta actualización (versión, hardware o tamaño). No se volverá a descargar hasta que se ofrezca una nueva.',
  'update.error.battery':
    'Batería demasiado baja para instalar la actualización. Carga el dispositivo; la actualización se instalará en la próxima comprobación.',
  'update.error.space':
    'No hay espacio suficiente para la actualización. Libera espacio; se volverá a descargar en la próxima comprobación.',
  'update.error.install': 'No se pudo instalar la actualización. El dispositivo conserva su versión actual.',
  'update.error.reboot':
    'La actualización está instalada, pero el dispositivo no pudo reiniciarse. Apágalo y vuelve a encenderlo.',
  'update.error.package': 'El paquete de actualización no superó las comprobaciones y no se instaló.',
  'update.error.download': 'La descarga se detuvo ({detail}). Se reanudará en la próxima comprobación.',
  'update.error.other': 'La actualización no se instaló ({detail}).',
  'unit.bytes': '{n} B',
  'unit.kibibytes': '{n} KiB',
  'unit.mebibytes': '{n} MiB',
  'unit.gibibytes': '{n} GiB',

  'verify.title': 'PC Link',
  'verify.prompt': 'Introduce la contraseña del dispositivo en el dispositivo',
  'verify.detail': 'Un ordenador conectado por USB pide confirmar que eres tú.',
  'verify.verified': 'Verificado. Puedes continuar en el ordenador.',
  'verify.password': 'Contraseña',
  'verify.entered': '{count, plural, one {# dígito introducido} other {# dígitos introducidos}}',
  'verify.closesIn': 'Se cierra en {time}',
  'verify.error.unavailable': 'La verificación de PC Link no está disponible en este dispositivo.',
  'verify.error.length': 'Introduce de {min} a {max} dígitos.',
  'verify.error.noPassword':
    'No hay ninguna contraseña de dispositivo. Establece una primero en los ajustes del dispositivo.',
  'verify.error.wrong':
    'Contraseña incorrecta. {left, plural, one {Queda # intento} other {Quedan # intentos}}.',
  'verify.error.refused': 'Contraseña incorrecta. Se informó al ordenador de que la verificación falló.',
  'verify.error.locked':
    'Demasiadas contraseñas incorrectas. Vuelve a intentarlo dentro de {wait, duration}.',

  'page.title': 'Pantalla del dispositivo waved',
  'page.loading': 'Cargando…',

  'group.wifi': 'Wi-Fi',
  'group.device': 'Dispositivo',
  'group.audio': 'Audio',
  'group.webhook': 'Webhook',
  'group.storage': 'Almacenamiento',
  'group.security': 'Seguridad',
  'group.ntp': 'Hora (NTP)',
  'field.wifi.country': 'País del Wi-Fi',
  'field.wifi.country.hint':
    'Define los canales de radio permitidos. «Mundial» es seguro en cualquier lugar.',
  'field.device.name': 'Nombre del dispositivo',
  'field.device.name.hint': 'Hasta {max} caracteres.',
  'field.device.country': 'País',
  'field.device.country.hint': 'Elige la región de la nube (China, EE. UU. o Europa para todos los demás).',
  'field.device.timezone': 'Zona horaria',
  'field.device.language': 'Idioma',
  'field.audio.volume': 'Volumen',
  'field.audio.volume.hint': 'De {min} a {max}.',
  'field.audio.prompt_tones': 'Reproducir tonos de aviso',
  'field.webhook.url': 'URL del webhook',
  'field.webhook.url.hint': 'Dirección https:// que recibe los eventos, firmados con el secreto de abajo.',
  'field.webhook.url.remove': 'Quitar el webhook',
  'field.webhook.secret': 'Secreto del webhook',
  'field.webhook.secret.hint':
    'De {min} a {max} caracteres. Las solicitudes se firman con él; nunca se envía.',
  'field.webhook.secret.remove': 'Quitar el secreto del webhook',
  'field.storage.auto_upload': 'Subir las grabaciones automáticamente',
  'field.storage.max_usage_percent': 'Uso máximo del almacenamiento (%)',
  'field.storage.max_usage_percent.hint':
    'De {min} a {max}. Por encima, se borran las grabaciones ya subidas más antiguas.',
  'field.security.device_password': 'PIN del dispositivo',
  'field.security.device_password.hint': 'De {min} a {max} dígitos.',
  'field.security.device_password.remove': 'Quitar el PIN del dispositivo',
  'field.ntp.enabled': 'Poner el reloj en hora con servidores de hora',
  'field.ntp.servers': 'Servidores de hora',
  'field.ntp.servers.hint':
    'Nombres de host o direcciones IPv4, separados por comas o espacios (hasta {max}).',

  'error.device.name.empty': 'Escribe un nombre para el dispositivo.',
  'error.device.name.long': 'Usa como máximo {max} caracteres.',
  'error.device.name.chars': 'Usa solo letras, dígitos, espacios y signos de puntuación.',
  'error.country': 'Elige un país de la lista.',
  'error.wifi.country': 'Elige un país de la lista, o Mundial.',
  'error.timezone': 'Elige una zona horaria de la lista.',
  'error.language': 'Elige un idioma de la lista.',
  'error.webhook.url': 'Escribe una dirección completa que empiece por https://.',
  'error.webhook.http': 'Usa una dirección https://: este dispositivo no envía eventos por http sin cifrar.',
  'error.webhook.secret': 'Usa de {min} a {max} caracteres imprimibles sin espacios (vuelve a escribirlo).',
  'error.pin': 'El PIN debe tener de {min} a {max} dígitos (vuelve a escribirlo).',
  'error.currentPin.missing': 'Escribe el PIN actual del dispositivo para guardar.',
  'error.currentPin.invalid': 'El PIN tiene de {min} a {max} dígitos. Vuelve a escribirlo.',
  'error.currentPin.locked': 'Demasiados PIN incorrectos. Vuelve a intentarlo dentro de {wait, duration}.',
  'error.currentPin.wrong': 'PIN incorrecto. No se guardó nada.',
  'error.currentPin.wrongWait':
    'PIN incorrecto. No se guardó nada. Espera {wait, duration} antes del próximo intento.',
  'error.ntp.none': 'Escribe al menos un servidor de hora.',
  'error.ntp.many': 'Escribe como máximo {max, plural, one {# servidor} other {# servidores}}.',
  'error.ntp.host': '«{name}» no es un nombre de host ni una dirección IPv4.',
  'error.ntp.reserved':
    '«{name}» no puede ser un servidor de hora (una dirección local, de la red de configuración o reservada).',
  'error.boolean': 'Marca o desmarca la casilla.',
  'error.number': 'Escribe un número entero de {min} a {max}.',
  'error.unknown': 'Ajuste desconocido.',
  'error.wifi.choose': 'Elige una red, o elige «Otra» y escribe el nombre de una red oculta.',
  'error.wifi.chooseListed':
    'Elige una red de la lista, o elige «Otra» y escribe el nombre de una red oculta.',
  'error.wifi.ssidLength':
    'Un nombre de red tiene de 1 a {max} bytes (menos caracteres con letras acentuadas o emoji).',
  'error.wifi.open': 'Esta es una red abierta. El dispositivo solo se une a redes protegidas con WPA2.',
  'error.wifi.passwordMissing': 'Escribe la contraseña del Wi-Fi.',
  'error.wifi.passwordInvalid':
    'Usa de {min} a {max} caracteres sin acentos ni emoji, o {hex} dígitos hexadecimales. Vuelve a escribirla.',
  'error.body.type': 'Envía el formulario como application/x-www-form-urlencoded o multipart/form-data.',
  'error.body.incomplete': 'El formulario no se recibió completo.',
  'error.body.tooLarge': 'El formulario ocupa más de {size} KiB.',
  'error.body.multipart': 'No se pudo leer el cuerpo multipart.',

  'portal.language': 'Idioma',
  'portal.form.title': 'Configurar {ssid}',
  'portal.form.lead': 'Elige la red Wi-Fi a la que debe unirse el dispositivo y luego revisa sus ajustes.',
  'portal.form.closesIn': 'Esta página de configuración se cierra en {time}.',
  'portal.form.saveConnect': 'Guardar y conectar',
  'portal.form.saveOnly': 'Guardar solo los ajustes',
  'portal.errors.summary':
    'No se guardó nada. Corrige {count, plural, one {este campo} other {estos # campos}}:',
  'portal.errors.item': '{field}: {error}',
  'portal.stale':
    'Los ajustes se cambiaron desde otro teléfono mientras esta página estaba abierta. No se guardó nada: revisa el formulario de abajo y vuelve a guardar.',
  'portal.wifi.choose': 'Elige tu red',
  'portal.wifi.noNetworks': 'No se encontraron redes cerca. Escribe el nombre abajo.',
  'portal.wifi.openNetwork': 'Red abierta, no compatible',
  'portal.wifi.other': 'Otra red (oculta)…',
  'portal.wifi.network': 'Red',
  'portal.wifi.hiddenName': 'Nombre de la red oculta',
  'portal.wifi.hiddenHint': 'Solo para una red que no difunde su nombre; elige «Otra» arriba.',
  'portal.wifi.password': 'Contraseña del Wi-Fi',
  'portal.wifi.passwordHint':
    'Contraseña WPA2, de {min} a {max} caracteres. Solo se guarda como clave derivada.',
  'portal.wifi.showPassword': 'Mostrar la contraseña',
  'portal.wifi.secured': 'Protegida',
  'portal.signal.excellent': 'Excelente',
  'portal.signal.good': 'Buena',
  'portal.signal.fair': 'Regular',
  'portal.signal.weak': 'Débil',
  'portal.country.world': 'Mundial (seguro en cualquier lugar)',
  'portal.country.notSet': 'Sin definir (región Europa)',
  'portal.secret.unchanged': 'sin cambios',
  'portal.secret.notSet': 'sin definir',
  'portal.secret.keepUnchanged': 'Déjalo vacío para no cambiarlo.',
  'portal.secret.keepUnset': 'Déjalo vacío para dejarlo sin definir.',
  'portal.webhook.now':
    'Ahora: {url}. Déjalo vacío para conservarla, o escribe una dirección nueva (entonces hay que volver a escribir el secreto).',
  'portal.currentPin.label': 'PIN actual del dispositivo',
  'portal.currentPin.hint':
    'Este dispositivo está protegido con un PIN. Escríbelo para guardar cualquier cambio.',
  'portal.banner.scanning': 'Buscando redes…',
  'portal.banner.connecting': 'Conectando a «{ssid}»…',
  'portal.banner.connectingHint':
    'Mira la pantalla del dispositivo. Este teléfono sale ahora de la red de configuración.',
  'portal.banner.connected': 'Conectado a «{ssid}».',
  'portal.banner.connectedHint': 'La configuración ha terminado. Puedes cerrar esta página.',
  'portal.banner.failedTo': 'No se pudo conectar a «{ssid}».',
  'portal.banner.failed': 'No se pudo conectar.',
  'portal.tryAgain': 'Reintentar',
  'portal.inactive.title': 'La configuración no está activa',
  'portal.inactive.body':
    'Abre {path} en el dispositivo, únete a la red que muestra y vuelve a abrir esta página.',
  'portal.status.title': 'Estado de la configuración',
  'portal.status.waiting': 'Esperando tus ajustes.',
  'portal.status.openForm': 'Abrir el formulario',
  'portal.status.hint':
    'Si este teléfono salió de la red de configuración, la pantalla del dispositivo muestra el resultado. Para reintentarlo, vuelve a unirte a {ap} y abre {url}.',
  'portal.notSaved.title': 'No se guardó nada',
  'portal.backToForm': 'Volver al formulario',
  'portal.expired.title': 'Esta página ha caducado',
  'portal.expired.body':
    'No se guardó nada. La sesión de configuración cambió desde que se cargó esta página.',
  'portal.reloadForm': 'Recargar el formulario',
  'portal.busy.title': 'Espera un momento',
  'portal.busy.body': 'El dispositivo se está conectando. Espera el resultado y vuelve a intentarlo.',
  'portal.showStatus': 'Ver el estado',
  'portal.saveFailed.body': 'El dispositivo no pudo escribir sus ajustes. Vuelve a intentarlo.',
  'portal.saved.title': 'Ajustes guardados',
  'portal.saved.done': 'Tus ajustes se han guardado.',
  'portal.saved.secretCleared':
    'La dirección del webhook cambió, así que se quitó su secreto: escribe de nuevo un secreto para firmar las solicitudes.',
  'portal.saved.leaving':
    'El dispositivo cierra ahora la red de configuración {ap}, así que este teléfono se desconectará de ella y volverá a su red habitual.',
  'portal.saved.next':
    'La pantalla del dispositivo muestra {connected}, o el motivo del fallo con {tryAgain}. Si falla, vuelve a unirte a {ap} y abre {url} de nuevo.',
};
