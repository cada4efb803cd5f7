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
    'La mise à jour téléchargée était endommagée (MD5 différent) et a été supprimée. Elle sera de nouveau téléchargée à la prochaine vérification.',
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
};
