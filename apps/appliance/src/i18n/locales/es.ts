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
    'La actualización descargada estaba dañada (el MD5 no coincide) y se eliminó. Se volverá a descargar en la próxima comprobación.',
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
};
