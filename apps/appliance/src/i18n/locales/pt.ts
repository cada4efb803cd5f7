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
  'screen.setup.passwordHidden': '(exibida na tela do dispositivo)',
  'screen.page.hostRefused': 'esta página é apenas para a tela do dispositivo',
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
    'A atualização baixada não correspondia à sua soma de verificação MD5 e foi apagada. Ela não será baixada de novo até que uma nova atualização seja oferecida.',
  'update.error.hash':
    'Uma imagem da atualização não tem soma de verificação SHA-256 ou tem uma errada. A atualização foi apagada e não será baixada de novo até que uma nova seja oferecida.',
  'update.error.signature':
    'A atualização não foi assinada pelo fabricante do dispositivo ou a assinatura está errada. Ela foi apagada e não será baixada de novo até que uma nova seja oferecida.',
  'update.error.policy':
    'Este dispositivo não aceita esta atualização (versão, hardware ou tamanho). Ela não será baixada de novo até que uma nova seja oferecida.',
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

  'group.wifi': 'Wi-Fi',
  'group.device': 'Dispositivo',
  'group.audio': 'Áudio',
  'group.webhook': 'Webhook',
  'group.storage': 'Armazenamento',
  'group.security': 'Segurança',
  'group.ntp': 'Hora (NTP)',
  'field.wifi.country': 'País do Wi-Fi',
  'field.wifi.country.hint': 'Define os canais de rádio permitidos. “Mundo” é seguro em qualquer lugar.',
  'field.device.name': 'Nome do dispositivo',
  'field.device.name.hint': 'Até {max} caracteres.',
  'field.device.country': 'País',
  'field.device.country.hint': 'Escolhe a região da nuvem (China, EUA ou Europa para todos os demais).',
  'field.device.timezone': 'Fuso horário',
  'field.device.language': 'Idioma',
  'field.audio.volume': 'Volume',
  'field.audio.volume.hint': 'De {min} a {max}.',
  'field.audio.prompt_tones': 'Tocar sons de aviso',
  'field.webhook.url': 'URL do webhook',
  'field.webhook.url.hint': 'Endereço https:// que recebe os eventos, assinados com o segredo abaixo.',
  'field.webhook.url.remove': 'Remover o webhook',
  'field.webhook.secret': 'Segredo do webhook',
  'field.webhook.secret.hint':
    'De {min} a {max} caracteres. As requisições são assinadas com ele; ele nunca é enviado.',
  'field.webhook.secret.remove': 'Remover o segredo do webhook',
  'field.storage.auto_upload': 'Enviar gravações automaticamente',
  'field.storage.max_usage_percent': 'Uso máximo do armazenamento (%)',
  'field.storage.max_usage_percent.hint':
    'De {min} a {max}. Acima disso, as gravações já enviadas mais antigas são removidas.',
  'field.security.device_password': 'PIN do dispositivo',
  'field.security.device_password.hint': 'De {min} a {max} dígitos.',
  'field.security.device_password.remove': 'Remover o PIN do dispositivo',
  'field.ntp.enabled': 'Acertar o relógio por servidores de hora',
  'field.ntp.servers': 'Servidores de hora',
  'field.ntp.servers.hint': 'Nomes de host ou endereços IPv4, separados por vírgulas ou espaços (até {max}).',

  'error.device.name.empty': 'Digite um nome para o dispositivo.',
  'error.device.name.long': 'Use no máximo {max} caracteres.',
  'error.device.name.chars': 'Use apenas letras, dígitos, espaços e pontuação.',
  'error.country': 'Escolha um país da lista.',
  'error.wifi.country': 'Escolha um país da lista, ou Mundo.',
  'error.timezone': 'Escolha um fuso horário da lista.',
  'error.language': 'Escolha um idioma da lista.',
  'error.webhook.url': 'Digite um endereço completo que comece com https://.',
  'error.webhook.http':
    'Use um endereço https://: este dispositivo não envia eventos por http sem criptografia.',
  'error.webhook.secret': 'Use de {min} a {max} caracteres imprimíveis sem espaços (digite-o novamente).',
  'error.pin': 'O PIN deve ter de {min} a {max} dígitos (digite-o novamente).',
  'error.currentPin.missing': 'Digite o PIN atual do dispositivo para salvar.',
  'error.currentPin.invalid': 'O PIN tem de {min} a {max} dígitos. Digite-o novamente.',
  'error.currentPin.locked': 'Muitos PINs incorretos. Tente novamente em {wait, duration}.',
  'error.currentPin.wrong': 'PIN incorreto. Nada foi salvo.',
  'error.currentPin.wrongWait':
    'PIN incorreto. Nada foi salvo. Aguarde {wait, duration} antes da próxima tentativa.',
  'error.ntp.none': 'Digite pelo menos um servidor de hora.',
  'error.ntp.many': 'Digite no máximo {max, plural, one {# servidor} other {# servidores}}.',
  'error.ntp.host': '“{name}” não é um nome de host nem um endereço IPv4.',
  'error.ntp.reserved':
    '“{name}” não pode ser um servidor de hora (um endereço local, da rede de configuração ou reservado).',
  'error.boolean': 'Marque ou desmarque a caixa.',
  'error.number': 'Digite um número inteiro de {min} a {max}.',
  'error.unknown': 'Configuração desconhecida.',
  'error.wifi.choose': 'Escolha uma rede, ou escolha “Outra” e digite o nome de uma rede oculta.',
  'error.wifi.chooseListed':
    'Escolha uma rede da lista, ou escolha “Outra” e digite o nome de uma rede oculta.',
  'error.wifi.ssidLength':
    'Um nome de rede tem de 1 a {max} bytes (menos caracteres com letras acentuadas ou emoji).',
  'error.wifi.open': 'Esta é uma rede aberta. O dispositivo só se conecta a redes protegidas por WPA2.',
  'error.wifi.passwordMissing': 'Digite a senha do Wi-Fi.',
  'error.wifi.passwordInvalid':
    'Use de {min} a {max} caracteres sem acentos nem emoji, ou {hex} dígitos hexadecimais. Digite-a novamente.',
  'error.body.type': 'Envie o formulário como application/x-www-form-urlencoded ou multipart/form-data.',
  'error.body.incomplete': 'O formulário não foi recebido por completo.',
  'error.body.tooLarge': 'O formulário tem mais de {size} KiB.',
  'error.body.multipart': 'Não foi possível ler o corpo multipart.',

  'portal.language': 'Idioma',
  'portal.form.title': 'Configurar {ssid}',
  'portal.form.lead':
    'Escolha a rede Wi-Fi à qual o dispositivo deve se conectar e depois confira as configurações dele.',
  'portal.form.closesIn': 'Esta página de configuração fecha em {time}.',
  'portal.form.saveConnect': 'Salvar e conectar',
  'portal.form.saveOnly': 'Salvar só as configurações',
  'portal.errors.summary':
    'Nada foi salvo. Corrija {count, plural, one {este campo} other {estes # campos}}:',
  'portal.errors.item': '{field}: {error}',
  'portal.stale':
    'As configurações foram alteradas em outro celular enquanto esta página estava aberta. Nada foi salvo: confira o formulário abaixo e salve novamente.',
  'portal.wifi.choose': 'Escolha sua rede',
  'portal.wifi.noNetworks': 'Nenhuma rede foi encontrada por perto. Digite o nome abaixo.',
  'portal.wifi.openNetwork': 'Rede aberta, não suportada',
  'portal.wifi.other': 'Outra rede (oculta)…',
  'portal.wifi.network': 'Rede',
  'portal.wifi.hiddenName': 'Nome da rede oculta',
  'portal.wifi.hiddenHint': 'Só para uma rede que não divulga o nome; escolha “Outra” acima.',
  'portal.wifi.password': 'Senha do Wi-Fi',
  'portal.wifi.passwordHint':
    'Senha WPA2, de {min} a {max} caracteres. Ela é guardada só como chave derivada.',
  'portal.wifi.showPassword': 'Mostrar a senha',
  'portal.wifi.secured': 'Protegida',
  'portal.signal.excellent': 'Excelente',
  'portal.signal.good': 'Bom',
  'portal.signal.fair': 'Regular',
  'portal.signal.weak': 'Fraco',
  'portal.country.world': 'Mundo (seguro em qualquer lugar)',
  'portal.country.notSet': 'Não definido (região Europa)',
  'portal.secret.unchanged': 'sem alteração',
  'portal.secret.notSet': 'não definido',
  'portal.secret.keepUnchanged': 'Deixe vazio para não alterar.',
  'portal.secret.keepUnset': 'Deixe vazio para não definir.',
  'portal.webhook.now':
    'Agora: {url}. Deixe vazio para mantê-lo, ou digite um novo endereço (aí o segredo precisa ser digitado novamente).',
  'portal.currentPin.label': 'PIN atual do dispositivo',
  'portal.currentPin.hint':
    'Este dispositivo é protegido por um PIN. Digite-o para salvar qualquer alteração.',
  'portal.banner.scanning': 'Procurando redes…',
  'portal.banner.connecting': 'Conectando a “{ssid}”…',
  'portal.banner.connectingHint':
    'Observe a tela do dispositivo. Este celular sai agora da rede de configuração.',
  'portal.banner.connected': 'Conectado a “{ssid}”.',
  'portal.banner.connectedHint': 'A configuração foi concluída. Você pode fechar esta página.',
  'portal.banner.failedTo': 'Não foi possível conectar a “{ssid}”.',
  'portal.banner.failed': 'Não foi possível conectar.',
  'portal.tryAgain': 'Tentar novamente',
  'portal.inactive.title': 'A configuração não está ativa',
  'portal.inactive.body':
    'Abra {path} no dispositivo, entre na rede que ele mostra e abra esta página de novo.',
  'portal.status.title': 'Status da configuração',
  'portal.status.waiting': 'Aguardando suas configurações.',
  'portal.status.openForm': 'Abrir o formulário',
  'portal.status.hint':
    'Se este celular saiu da rede de configuração, a tela do dispositivo mostra o resultado. Para tentar de novo, entre outra vez em {ap} e abra {url}.',
  'portal.notSaved.title': 'Nada foi salvo',
  'portal.backToForm': 'Voltar ao formulário',
  'portal.expired.title': 'Esta página expirou',
  'portal.expired.body':
    'Nada foi salvo. A sessão de configuração mudou desde que esta página foi carregada.',
  'portal.reloadForm': 'Recarregar o formulário',
  'portal.busy.title': 'Aguarde',
  'portal.busy.body': 'O dispositivo está se conectando. Aguarde o resultado e tente novamente.',
  'portal.showStatus': 'Mostrar o status',
  'portal.saveFailed.body': 'O dispositivo não conseguiu gravar as configurações. Tente novamente.',
  'portal.saved.title': 'Configurações salvas',
  'portal.saved.done': 'Suas configurações foram salvas.',
  'portal.saved.secretCleared':
    'O endereço do webhook mudou, então o segredo dele foi removido: digite um segredo novamente para assinar as requisições.',
  'portal.saved.leaving':
    'O dispositivo agora fecha a rede de configuração {ap}, então este celular vai se desconectar dela e voltar à sua rede habitual.',
  'portal.saved.next':
    'A tela do dispositivo mostra {connected}, ou o motivo da falha com {tryAgain}. Se falhar, entre outra vez em {ap} e abra {url} novamente.',
};
