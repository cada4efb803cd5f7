import type { Catalog, LocaleMeta } from '../catalog.js';

/**
 * Português, in Brazilian usage (the variant most `pt` users read; `pt-BR` and `pt-PT` both fall
 * back to this catalog). Machine-made translation of the English catalog, not yet checked by a
 * native speaker. Corrections are welcome here: the catalog tests keep the keys and the
 * parameters in step with English.
 */
export const meta: LocaleMeta = {
  tag: 'pt',
  name: 'Português',
  made: 'Machine-made translation of the English catalog (Brazilian usage); not yet checked by a native speaker.',
};

export const messages: Catalog = {
  'failure.wrong-password':
    'A senha do Wi-Fi não foi aceita. Verifique-a (maiúsculas e minúsculas fazem diferença) e tente novamente.',
  'failure.network-not-found':
    'A rede não foi encontrada. Verifique o nome, aproxime o dispositivo do roteador e tente novamente.',
  'failure.no-address':
    'O dispositivo entrou na rede, mas não recebeu um endereço do roteador (DHCP). Verifique o roteador e tente novamente.',
  'failure.association-timeout': 'O dispositivo não conseguiu entrar na rede a tempo. Tente novamente.',
  'failure.ap-failed': 'Não foi possível iniciar a rede de configuração. Tente novamente.',
  'failure.unknown': 'A conexão falhou. Tente novamente.',

  'screen.rowLabel': '{label}:',

  'screen.action.back': 'Voltar',
  'screen.action.cancel': 'Cancelar',
  'screen.action.changeNetwork': 'Trocar de rede',
  'screen.action.delete': 'Apagar',
  'screen.action.done': 'Concluído',
  'screen.action.install': 'Instalar',
  'screen.action.later': 'Mais tarde',
  'screen.action.ok': 'OK',
  'screen.action.setUpWifi': 'Configurar Wi-Fi',
  'screen.action.stayConnected': 'Continuar conectado',
  'screen.action.tryAgain': 'Tentar novamente',

  'screen.menu.title': 'Menu',
  'screen.menu.wifi': 'Wi-Fi',
  'screen.wifi.title': 'Wi-Fi',
  'screen.wifi.network': 'Rede',
  'screen.wifi.status': 'Estado',
  'screen.wifi.ipv4': 'IPv4',
  'screen.wifi.statusLine': '{status} · {signal}',
  'screen.status.connected': 'Conectado',
  'screen.status.connecting': 'Conectando',
  'screen.status.scanning': 'Procurando redes',
  'screen.status.off': 'Wi-Fi desligado',
  'screen.status.unknown': 'Desconhecido',
  'screen.status.disconnected': 'Não conectado',
  'screen.signal.excellent': 'Sinal excelente',
  'screen.signal.good': 'Sinal bom',
  'screen.signal.fair': 'Sinal razoável',
  'screen.signal.weak': 'Sinal fraco',
  'screen.confirm.question': 'Trocar de rede?',
  'screen.confirm.detail': 'O dispositivo sai de “{ssid}” enquanto a rede de configuração estiver aberta.',
  'screen.notice.timedOut':
    'A configuração foi encerrada após {minutes, plural, one {# minuto} other {# minutos}}. O dispositivo voltou às redes salvas.',
  'screen.notice.closed': 'A configuração foi encerrada. O dispositivo voltou às redes salvas.',

  'screen.setup.title': 'Configurar Wi-Fi',
  'screen.setup.network': 'Rede',
  'screen.setup.password': 'Senha',
  'screen.setup.address': 'Endereço',
  'screen.setup.qr': 'Código QR do Wi-Fi',
  'screen.setup.starting': 'Iniciando a rede de configuração…',
  'screen.setup.scanning': 'Procurando redes…',
  'screen.setup.ready': 'Leia o código com a câmera do celular, ou entre na rede acima e abra o endereço.',
  'screen.setup.connecting': 'Conectando a {ssid}…',
  'screen.setup.connected': 'Conectado a {ssid}.',
  'screen.setup.failedTo': 'Não foi possível conectar a {ssid}.',
  'screen.setup.failed': 'Não foi possível conectar.',
  'screen.setup.closesIn': 'A configuração fecha em {time}',

  'update.title': 'Atualização de software',
  'update.firmware': 'Firmware',
  'update.model': 'Modelo',
  'update.headline.available': 'Atualização v{version} disponível (requer consentimento)',
  'update.headline.installing': 'Instalando a atualização v{version}',
  'update.headline.failed': 'Atualização v{version} não instalada',
  'update.status.forced': 'Atualização obrigatória: ela é baixada e instalada sem perguntar.',
  'update.status.starting': 'Iniciando o download…',
  'update.status.downloading': 'Baixando…',
  'update.status.downloadingPercent': 'Baixando… {percent}',
  'update.status.verifying': 'Verificando o download…',
  'update.status.consent': 'Pronta para instalar. O dispositivo reinicia ao terminar.',
  'update.status.installing': 'Instalando… Não desligue o dispositivo.',
  'update.status.restarting': 'Reiniciando…',
  'update.status.failed': 'A atualização não foi instalada.',
  'update.bytesOf': '{received} de {total}',
  'update.error.md5':
    'A atualização baixada estava corrompida (o MD5 não confere) e foi apagada. Ela será baixada de novo na próxima verificação.',
  'update.error.battery':
    'Bateria fraca demais para instalar a atualização. Carregue o dispositivo; a atualização será instalada na próxima verificação.',
  'update.error.space':
    'Espaço insuficiente para a atualização. Libere espaço; ela será baixada de novo na próxima verificação.',
  'update.error.install': 'Não foi possível instalar a atualização. O dispositivo mantém a versão atual.',
  'update.error.reboot':
    'A atualização foi instalada, mas o dispositivo não conseguiu reiniciar. Desligue-o e ligue-o de novo.',
  'update.error.package': 'O pacote de atualização não passou nas verificações e não foi instalado.',
  'update.error.download': 'O download parou ({detail}). Ele continua na próxima verificação.',
  'update.error.other': 'A atualização não foi instalada ({detail}).',
  'unit.bytes': '{n} B',
  'unit.kibibytes': '{n} KiB',
  'unit.mebibytes': '{n} MiB',
  'unit.gibibytes': '{n} GiB',

  'verify.title': 'PC Link',
  'verify.prompt': 'Digite a senha do dispositivo no dispositivo',
  'verify.detail': 'Um computador conectado por USB pede para confirmar que é você.',
  'verify.verified': 'Verificado. Você pode continuar no computador.',
  'verify.password': 'Senha',
  'verify.entered':
    '{count, plural, =0 {Nenhum dígito digitado} one {# dígito digitado} other {# dígitos digitados}}',
  'verify.closesIn': 'Fecha em {time}',
  'verify.error.unavailable': 'A verificação do PC Link não está disponível neste dispositivo.',
  'verify.error.length': 'Digite de {min} a {max} dígitos.',
  'verify.error.noPassword':
    'Nenhuma senha do dispositivo foi definida. Defina uma primeiro nas configurações do dispositivo.',
  'verify.error.wrong':
    'Senha incorreta. {left, plural, one {Resta # tentativa} other {Restam # tentativas}}.',
  'verify.error.refused': 'Senha incorreta. O computador foi informado de que a verificação falhou.',
  'verify.error.locked': 'Muitas senhas incorretas. Tente novamente em {wait, duration}.',

  'page.title': 'Tela do dispositivo waved',
  'page.loading': 'Carregando…',
};
