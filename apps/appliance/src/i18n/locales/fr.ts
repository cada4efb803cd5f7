import type { Catalog, LocaleMeta } from '../catalog.js';

/**
 * Français. Machine-made translation of the English catalog, not yet checked by a native speaker;
 * formal address (vous), non-breaking spaces before « : ; ? ! » and inside guillemets, the
 * typographic apostrophe, and French unit symbols (o, Kio, Mio, Gio). Corrections are welcome
 * here: the catalog tests keep the keys and the parameters in step with English.
 */
export const meta: LocaleMeta = {
  tag: 'fr',
  name: 'Français',
  made: 'Machine-made translation of the English catalog; not yet checked by a native speaker.',
};

export const messages: Catalog = {
  'failure.wrong-password':
    'Le mot de passe Wi-Fi n’a pas été accepté. Vérifiez-le (les majuscules comptent) et réessayez.',
  'failure.network-not-found':
    'Le réseau est introuvable. Vérifiez son nom, rapprochez l’appareil du routeur et réessayez.',
  'failure.no-address':
    'L’appareil a rejoint le réseau mais n’a reçu aucune adresse du routeur (DHCP). Vérifiez le routeur et réessayez.',
  'failure.association-timeout': 'L’appareil n’a pas pu rejoindre le réseau à temps. Réessayez.',
  'failure.ap-failed': 'Le réseau de configuration n’a pas pu démarrer. Réessayez.',
  'failure.unknown': 'La connexion a échoué. Réessayez.',

  'screen.rowLabel': '{label}\u00a0:',

  'screen.action.back': 'Retour',
  'screen.action.cancel': 'Annuler',
  'screen.action.changeNetwork': 'Changer de réseau',
  'screen.action.delete': 'Effacer',
  'screen.action.done': 'Terminé',
  'screen.action.install': 'Installer',
  'screen.action.later': 'Plus tard',
  'screen.action.ok': 'OK',
  'screen.action.setUpWifi': 'Configurer le Wi-Fi',
  'screen.action.stayConnected': 'Rester connecté',
  'screen.action.tryAgain': 'Réessayer',

  'screen.menu.title': 'Menu',
  'screen.menu.wifi': 'Wi-Fi',
  'screen.menu.bluetooth': 'Bluetooth',
  'screen.menu.options': 'Son et vie privée',
  'screen.bt.title': 'Bluetooth',
  'screen.bt.name': 'Nom',
  'screen.bt.status': 'État',
  'screen.bt.contacts': 'Contacts',
  'screen.bt.address': 'Adresse',
  'screen.bt.version': 'Version',
  'screen.bt.off': 'Désactivé',
  'screen.bt.idle': 'Activé, aucun téléphone connecté',
  'screen.bt.connectedTo': 'Connecté à {name}',
  'screen.bt.request': '{name} souhaite se connecter',
  'screen.bt.requestDetail': 'Autoriser ce téléphone à se connecter à l’appareil ?',
  'screen.bt.unavailable': 'Le module Bluetooth ne répond pas.',
  'screen.bt.paired': 'Appairage effacé : appairez votre téléphone maintenant.',
  'screen.bt.synced': '{count, plural, one {# contact synchronisé} other {# contacts synchronisés}}.',
  'screen.action.btAccept': 'Connecter',
  'screen.action.btReject': 'Refuser',
  'screen.action.btSync': 'Synchro. contacts',
  'screen.action.btDisconnect': 'Déconnecter',
  'screen.action.btPair': 'Nouvel appairage',
  'screen.action.btOff': 'Désactiver',
  'screen.action.btOn': 'Activer',
  'screen.options.title': 'Son et vie privée',
  'screen.options.mic': 'Microphone',
  'screen.options.speaker': 'Haut-parleur',
  'screen.options.privacy': 'Accord de confidentialité',
  'screen.options.experience': 'Programme d’expérience',
  'screen.options.on': 'Activé',
  'screen.options.muted': 'Muet',
  'screen.options.yes': 'Oui',
  'screen.options.no': 'Non',
  'screen.action.muteMic': 'Couper le micro',
  'screen.action.unmuteMic': 'Activer le micro',
  'screen.action.muteSpeaker': 'Couper le son',
  'screen.action.unmuteSpeaker': 'Activer le son',
  'screen.action.agreePrivacy': 'Accepter l’accord',
  'screen.action.joinExperience': 'Participer',
  'screen.wifi.title': 'Wi-Fi',
  'screen.wifi.network': 'Réseau',
  'screen.wifi.status': 'État',
  'screen.wifi.ipv4': 'IPv4',
  'screen.wifi.statusLine': '{status} · {signal}',
  'screen.status.connected': 'Connecté',
  'screen.status.connecting': 'Connexion en cours',
  'screen.status.scanning': 'Recherche de réseaux',
  'screen.status.off': 'Wi-Fi désactivé',
  'screen.status.unknown': 'Inconnu',
  'screen.status.disconnected': 'Non connecté',
  'screen.signal.excellent': 'Signal excellent',
  'screen.signal.good': 'Bon signal',
  'screen.signal.fair': 'Signal moyen',
  'screen.signal.weak': 'Signal faible',
  'screen.confirm.question': 'Changer de réseau\u00a0?',
  'screen.confirm.detail':
    'L’appareil quitte «\u00a0{ssid}\u00a0» tant que le réseau de configuration est ouvert.',
  'screen.notice.timedOut':
    'Configuration fermée après {minutes, plural, one {# minute} other {# minutes}}. L’appareil est revenu à ses réseaux enregistrés.',
  'screen.notice.closed': 'Configuration fermée. L’appareil est revenu à ses réseaux enregistrés.',

  'screen.setup.title': 'Configurer le Wi-Fi',
  'screen.setup.network': 'Réseau',
  'screen.setup.password': 'Mot de passe',
  'screen.setup.passwordHidden': '(affiché sur l’écran de l’appareil)',
  'screen.page.hostRefused': 'cette page est réservée à l’écran de l’appareil',
  'screen.setup.address': 'Adresse',
  'screen.setup.qr': 'Code QR Wi-Fi',
  'screen.setup.starting': 'Démarrage du réseau de configuration…',
  'screen.setup.scanning': 'Recherche de réseaux…',
  'screen.setup.ready':
    'Scannez le code avec l’appareil photo de votre téléphone, ou rejoignez le réseau ci-dessus et ouvrez l’adresse.',
  'screen.setup.connecting': 'Connexion à {ssid}…',
  'screen.setup.connected': 'Connecté à {ssid}.',
  'screen.setup.failedTo': 'Impossible de se connecter à {ssid}.',
  'screen.setup.failed': 'Connexion impossible.',
  'screen.setup.closesIn': 'La configuration se ferme dans {time}',

  'update.title': 'Mise à jour logicielle',
  'update.firmware': 'Micrologiciel',
  'update.model': 'Modèle',
  'update.headline.available': 'Mise à jour v{version} disponible (accord requis)',
  'update.headline.installing': 'Installation de la mise à jour v{version}',
  'update.headline.failed': 'Mise à jour v{version} non installée',
  'update.status.forced': 'Mise à jour obligatoire\u00a0: elle se télécharge et s’installe sans demander.',
  'update.status.starting': 'Démarrage du téléchargement…',
  'update.status.downloading': 'Téléchargement…',
  'update.status.downloadingPercent': 'Téléchargement… {percent}',
  'update.status.verifying': 'Vérification du téléchargement…',
  'update.status.consent': 'Prêt à installer. L’appareil redémarre une fois terminé.',
  'update.status.installing': 'Installation… N’éteignez pas l’appareil.',
  'update.status.restarting': 'Redémarrage…',
  'update.status.failed': 'La mise à jour n’a pas été installée.',
  'update.bytesOf': '{received} sur {total}',
  'update.error.md5':
    'La mise à jour téléchargée ne correspondait pas à sa somme de contrôle MD5 et a été supprimée. Elle ne sera plus téléchargée tant qu’aucune nouvelle mise à jour n’est proposée.',
  'update.error.hash':
    'Une image de la mise à jour n’a pas de somme de contrôle SHA-256 ou en a une fausse. La mise à jour a été supprimée et ne sera plus téléchargée tant qu’aucune nouvelle n’est proposée.',
  'update.error.signature':
    'La mise à jour n’est pas signée par le fabricant de l’appareil, ou sa signature est fausse. Elle a été supprimée et ne sera plus téléchargée tant qu’aucune nouvelle n’est proposée.',
  'update.error.policy':
    'Cet appareil n’accepte pas cette mise à jour (version, matériel ou taille). Elle ne sera plus téléchargée tant qu’aucune nouvelle n’est proposée.',
  'update.error.battery':
    'Batterie trop faible pour installer la mise à jour. Rechargez l’appareil\u00a0; la mise à jour s’installera à la prochaine vérification.',
  'update.error.space':
    'Espace de stockage insuffisant pour la mise à jour. Libérez de l’espace\u00a0; elle sera de nouveau téléchargée à la prochaine vérification.',
  'update.error.install': 'La mise à jour n’a pas pu être installée. L’appareil garde sa version actuelle.',
  'update.error.reboot':
    'La mise à jour est installée mais l’appareil n’a pas pu redémarrer. Éteignez-le puis rallumez-le.',
  'update.error.package': 'Le paquet de mise à jour n’a pas passé les vérifications et n’a pas été installé.',
  'update.error.download':
    'Le téléchargement s’est interrompu ({detail}). Il reprendra à la prochaine vérification.',
  'update.error.other': 'La mise à jour n’a pas été installée ({detail}).',
  'unit.bytes': '{n}\u00a0o',
  'unit.kibibytes': '{n}\u00a0Kio',
  'unit.mebibytes': '{n}\u00a0Mio',
  'unit.gibibytes': '{n}\u00a0Gio',

  'verify.title': 'PC Link',
  'verify.prompt': 'Saisissez le mot de passe de l’appareil sur l’appareil',
  'verify.detail': 'Un ordinateur connecté en USB demande de confirmer que c’est bien vous.',
  'verify.verified': 'Vérifié. Vous pouvez continuer sur l’ordinateur.',
  'verify.password': 'Mot de passe',
  'verify.entered': '{count, plural, one {# chiffre saisi} other {# chiffres saisis}}',
  'verify.closesIn': 'Fermeture dans {time}',
  'verify.error.unavailable': 'La vérification PC Link n’est pas disponible sur cet appareil.',
  'verify.error.length': 'Saisissez {min} à {max} chiffres.',
  'verify.error.noPassword':
    'Aucun mot de passe d’appareil n’est défini. Définissez-en un d’abord dans les réglages de l’appareil.',
  'verify.error.wrong':
    'Mot de passe incorrect. {left, plural, one {Encore # essai} other {Encore # essais}}.',
  'verify.error.refused': 'Mot de passe incorrect. L’ordinateur a été informé de l’échec de la vérification.',
  'verify.error.locked': 'Trop de mots de passe incorrects. Réessayez dans {wait, duration}.',

  'page.title': 'Écran de l’appareil waved',
  'page.loading': 'Chargement…',

  'group.wifi': 'Wi-Fi',
  'group.device': 'Appareil',
  'group.audio': 'Audio',
  'group.webhook': 'Webhook',
  'group.storage': 'Stockage',
  'group.security': 'Sécurité',
  'group.ntp': 'Heure (NTP)',
  'field.wifi.country': 'Pays du Wi-Fi',
  'field.wifi.country.hint':
    'Définit les canaux radio autorisés. «\u00a0Monde\u00a0» est sans risque partout.',
  'field.device.name': 'Nom de l’appareil',
  'field.device.name.hint': 'Jusqu’à {max}\u00a0caractères.',
  'field.device.country': 'Pays',
  'field.device.country.hint':
    'Choisit la région du cloud (Chine, États-Unis, ou Europe pour tous les autres).',
  'field.device.timezone': 'Fuseau horaire',
  'field.device.language': 'Langue',
  'field.audio.volume': 'Volume',
  'field.audio.volume.hint': 'De {min} à {max}.',
  'field.audio.prompt_tones': 'Jouer les sons de guidage',
  'field.webhook.url': 'URL du webhook',
  'field.webhook.url.hint': 'Adresse https:// qui reçoit les événements, signés avec le secret ci-dessous.',
  'field.webhook.url.remove': 'Supprimer le webhook',
  'field.webhook.secret': 'Secret du webhook',
  'field.webhook.secret.hint':
    'De {min} à {max}\u00a0caractères. Les requêtes sont signées avec lui\u00a0; il n’est jamais envoyé.',
  'field.webhook.secret.remove': 'Supprimer le secret du webhook',
  'field.storage.auto_upload': 'Envoyer les enregistrements automatiquement',
  'field.storage.max_usage_percent': 'Utilisation maximale du stockage (%)',
  'field.storage.max_usage_percent.hint':
    'De {min} à {max}. Au-delà, les plus anciens enregistrements déjà envoyés sont supprimés.',
  'field.security.device_password': 'Code PIN de l’appareil',
  'field.security.device_password.hint': 'De {min} à {max}\u00a0chiffres.',
  'field.security.device_password.remove': 'Supprimer le code PIN de l’appareil',
  'field.ntp.enabled': 'Régler l’horloge sur des serveurs de temps',
  'field.ntp.servers': 'Serveurs de temps',
  'field.ntp.servers.hint':
    'Noms d’hôte ou adresses IPv4, séparés par des virgules ou des espaces (jusqu’à {max}).',

  'error.device.name.empty': 'Saisissez un nom pour l’appareil.',
  'error.device.name.long': 'Utilisez au plus {max}\u00a0caractères.',
  'error.device.name.chars':
    'Utilisez uniquement des lettres, des chiffres, des espaces et de la ponctuation.',
  'error.country': 'Choisissez un pays dans la liste.',
  'error.wifi.country': 'Choisissez un pays dans la liste, ou Monde.',
  'error.timezone': 'Choisissez un fuseau horaire dans la liste.',
  'error.language': 'Choisissez une langue dans la liste.',
  'error.webhook.url': 'Saisissez une adresse complète commençant par https://.',
  'error.webhook.http':
    'Utilisez une adresse https://\u00a0: cet appareil n’envoie pas d’événements en http non chiffré.',
  'error.webhook.secret':
    'Utilisez de {min} à {max}\u00a0caractères imprimables sans espace (saisissez-le de nouveau).',
  'error.pin': 'Le code PIN doit comporter de {min} à {max}\u00a0chiffres (saisissez-le de nouveau).',
  'error.currentPin.missing': 'Saisissez le code PIN actuel de l’appareil pour enregistrer.',
  'error.currentPin.invalid': 'Le code PIN comporte de {min} à {max}\u00a0chiffres. Saisissez-le de nouveau.',
  'error.currentPin.locked': 'Trop de codes PIN erronés. Réessayez dans {wait, duration}.',
  'error.currentPin.wrong': 'Code PIN erroné. Rien n’a été enregistré.',
  'error.currentPin.wrongWait':
    'Code PIN erroné. Rien n’a été enregistré. Attendez {wait, duration} avant le prochain essai.',
  'error.ntp.none': 'Saisissez au moins un serveur de temps.',
  'error.ntp.many': 'Saisissez au plus {max, plural, one {#\u00a0serveur} other {#\u00a0serveurs}}.',
  'error.ntp.host': '«\u00a0{name}\u00a0» n’est ni un nom d’hôte ni une adresse IPv4.',
  'error.ntp.reserved':
    '«\u00a0{name}\u00a0» ne peut pas être un serveur de temps (adresse locale, du réseau de configuration ou réservée).',
  'error.boolean': 'Cochez ou décochez la case.',
  'error.number': 'Saisissez un nombre entier de {min} à {max}.',
  'error.unknown': 'Réglage inconnu.',
  'error.wifi.choose':
    'Choisissez un réseau, ou choisissez «\u00a0Autre\u00a0» et saisissez le nom d’un réseau masqué.',
  'error.wifi.chooseListed':
    'Choisissez un réseau dans la liste, ou choisissez «\u00a0Autre\u00a0» et saisissez le nom d’un réseau masqué.',
  'error.wifi.ssidLength':
    'Un nom de réseau compte de 1 à {max}\u00a0octets (moins de caractères avec des lettres accentuées ou des emoji).',
  'error.wifi.open': 'Ce réseau est ouvert. L’appareil ne rejoint que des réseaux protégés par WPA2.',
  'error.wifi.passwordMissing': 'Saisissez le mot de passe Wi-Fi.',
  'error.wifi.passwordInvalid':
    'Utilisez de {min} à {max}\u00a0caractères sans accents ni emoji, ou {hex}\u00a0chiffres hexadécimaux. Saisissez-le de nouveau.',
  'error.body.type': 'Envoyez le formulaire en application/x-www-form-urlencoded ou multipart/form-data.',
  'error.body.incomplete': 'Le formulaire n’a pas été reçu en entier.',
  'error.body.tooLarge': 'Le formulaire dépasse {size}\u00a0Kio.',
  'error.body.multipart': 'Le corps multipart n’a pas pu être lu.',

  'portal.language': 'Langue',
  'portal.form.title': 'Configurer {ssid}',
  'portal.form.lead': 'Choisissez le réseau Wi-Fi que l’appareil doit rejoindre, puis vérifiez ses réglages.',
  'portal.form.closesIn': 'Cette page de configuration se ferme dans {time}.',
  'portal.form.saveConnect': 'Enregistrer et connecter',
  'portal.form.saveOnly': 'Enregistrer les réglages seulement',
  'portal.errors.summary':
    'Rien n’a été enregistré. Corrigez {count, plural, one {ce champ} other {ces #\u00a0champs}}\u00a0:',
  'portal.errors.item': '{field}\u00a0: {error}',
  'portal.stale':
    'Les réglages ont été modifiés depuis un autre téléphone pendant que cette page était ouverte. Rien n’a été enregistré\u00a0: vérifiez le formulaire ci-dessous et enregistrez de nouveau.',
  'portal.wifi.choose': 'Choisissez votre réseau',
  'portal.wifi.noNetworks': 'Aucun réseau n’a été trouvé à proximité. Saisissez son nom ci-dessous.',
  'portal.wifi.openNetwork': 'Réseau ouvert, non pris en charge',
  'portal.wifi.other': 'Autre réseau (masqué)…',
  'portal.wifi.network': 'Réseau',
  'portal.wifi.hiddenName': 'Nom du réseau masqué',
  'portal.wifi.hiddenHint':
    'Seulement pour un réseau qui ne diffuse pas son nom\u00a0; choisissez «\u00a0Autre\u00a0» ci-dessus.',
  'portal.wifi.password': 'Mot de passe Wi-Fi',
  'portal.wifi.passwordHint':
    'Mot de passe WPA2, de {min} à {max}\u00a0caractères. Il n’est conservé que sous forme de clé dérivée.',
  'portal.wifi.showPassword': 'Afficher le mot de passe',
  'portal.wifi.secured': 'Sécurisé',
  'portal.signal.excellent': 'Excellent',
  'portal.signal.good': 'Bon',
  'portal.signal.fair': 'Moyen',
  'portal.signal.weak': 'Faible',
  'portal.country.world': 'Monde (sans risque partout)',
  'portal.country.notSet': 'Non défini (région Europe)',
  'portal.secret.unchanged': 'inchangé',
  'portal.secret.notSet': 'non défini',
  'portal.secret.keepUnchanged': 'Laissez vide pour ne rien changer.',
  'portal.secret.keepUnset': 'Laissez vide pour ne rien définir.',
  'portal.webhook.now':
    'Actuellement\u00a0: {url}. Laissez vide pour la conserver, ou saisissez une nouvelle adresse (il faudra alors saisir de nouveau le secret).',
  'portal.currentPin.label': 'Code PIN actuel de l’appareil',
  'portal.currentPin.hint':
    'Cet appareil est protégé par un code PIN. Saisissez-le pour enregistrer toute modification.',
  'portal.banner.scanning': 'Recherche de réseaux…',
  'portal.banner.connecting': 'Connexion à «\u00a0{ssid}\u00a0»…',
  'portal.banner.connectingHint':
    'Regardez l’écran de l’appareil. Ce téléphone quitte maintenant le réseau de configuration.',
  'portal.banner.connected': 'Connecté à «\u00a0{ssid}\u00a0».',
  'portal.banner.connectedHint': 'La configuration est terminée. Vous pouvez fermer cette page.',
  'portal.banner.failedTo': 'Impossible de se connecter à «\u00a0{ssid}\u00a0».',
  'portal.banner.failed': 'Impossible de se connecter.',
  'portal.tryAgain': 'Réessayer',
  'portal.inactive.title': 'La configuration n’est pas active',
  'portal.inactive.body':
    'Ouvrez {path} sur l’appareil, rejoignez le réseau qu’il affiche, puis rouvrez cette page.',
  'portal.status.title': 'État de la configuration',
  'portal.status.waiting': 'En attente de vos réglages.',
  'portal.status.openForm': 'Ouvrir le formulaire',
  'portal.status.hint':
    'Si ce téléphone a quitté le réseau de configuration, l’écran de l’appareil affiche le résultat. Pour réessayer, rejoignez de nouveau {ap} et ouvrez {url}.',
  'portal.notSaved.title': 'Rien n’a été enregistré',
  'portal.backToForm': 'Retour au formulaire',
  'portal.expired.title': 'Cette page a expiré',
  'portal.expired.body':
    'Rien n’a été enregistré. La session de configuration a changé depuis le chargement de cette page.',
  'portal.reloadForm': 'Recharger le formulaire',
  'portal.busy.title': 'Veuillez patienter',
  'portal.busy.body': 'L’appareil est en train de se connecter. Attendez le résultat, puis réessayez.',
  'portal.showStatus': 'Afficher l’état',
  'portal.saveFailed.body': 'L’appareil n’a pas pu écrire ses réglages. Réessayez.',
  'portal.saved.title': 'Réglages enregistrés',
  'portal.saved.done': 'Vos réglages sont enregistrés.',
  'portal.saved.secretCleared':
    'L’adresse du webhook a changé, son secret a donc été supprimé\u00a0: saisissez de nouveau un secret pour signer les requêtes.',
  'portal.saved.leaving':
    'L’appareil ferme maintenant le réseau de configuration {ap}\u00a0: ce téléphone s’en déconnectera et reviendra à son réseau habituel.',
  'portal.saved.next':
    'L’écran de l’appareil affiche {connected}, ou la raison de l’échec avec {tryAgain}. En cas d’échec, rejoignez de nouveau {ap} et rouvrez {url}.',
};
