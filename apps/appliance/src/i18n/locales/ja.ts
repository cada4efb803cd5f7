import type { Catalog, LocaleMeta } from '../catalog.js';

/**
 * 日本語. Machine-made translation of the English catalog, not yet checked by a native speaker;
 * polite form (です・ます), full-width punctuation. Japanese has one plural form (other).
 * Corrections are welcome here: the catalog tests keep the keys and the parameters in step with
 * English.
 */
export const meta: LocaleMeta = {
  tag: 'ja',
  name: '日本語',
  made: 'Machine-made translation of the English catalog; not yet checked by a native speaker.',
};

export const messages: Catalog = {
  'failure.wrong-password':
    'Wi-Fiのパスワードが受け入れられませんでした。パスワード（大文字と小文字は区別されます）を確認して、もう一度お試しください。',
  'failure.network-not-found':
    'ネットワークが見つかりませんでした。名前を確認し、デバイスをルーターに近づけて、もう一度お試しください。',
  'failure.no-address':
    'デバイスはネットワークに接続しましたが、ルーターからアドレスを取得できませんでした（DHCP）。ルーターを確認して、もう一度お試しください。',
  'failure.association-timeout': '時間内にネットワークに接続できませんでした。もう一度お試しください。',
  'failure.ap-failed': 'セットアップ用ネットワークを開始できませんでした。もう一度お試しください。',
  'failure.unknown': '接続に失敗しました。もう一度お試しください。',

  'screen.rowLabel': '{label}：',

  'screen.action.back': '戻る',
  'screen.action.cancel': 'キャンセル',
  'screen.action.changeNetwork': 'ネットワークを変更',
  'screen.action.delete': '削除',
  'screen.action.done': '完了',
  'screen.action.install': 'インストール',
  'screen.action.later': '後で',
  'screen.action.ok': 'OK',
  'screen.action.setUpWifi': 'Wi-Fiを設定',
  'screen.action.stayConnected': '接続を維持',
  'screen.action.tryAgain': '再試行',

  'screen.menu.title': 'メニュー',
  'screen.menu.wifi': 'Wi-Fi',
  'screen.wifi.title': 'Wi-Fi',
  'screen.wifi.network': 'ネットワーク',
  'screen.wifi.status': '状態',
  'screen.wifi.ipv4': 'IPv4',
  'screen.wifi.statusLine': '{status}・{signal}',
  'screen.status.connected': '接続済み',
  'screen.status.connecting': '接続中',
  'screen.status.scanning': 'ネットワークを検索中',
  'screen.status.off': 'Wi-Fiはオフです',
  'screen.status.unknown': '不明',
  'screen.status.disconnected': '未接続',
  'screen.signal.excellent': '電波：非常に強い',
  'screen.signal.good': '電波：強い',
  'screen.signal.fair': '電波：普通',
  'screen.signal.weak': '電波：弱い',
  'screen.confirm.question': 'ネットワークを変更しますか？',
  'screen.confirm.detail': 'セットアップ用ネットワークが開いている間、デバイスは「{ssid}」から切断されます。',
  'screen.notice.timedOut':
    '{minutes, plural, other {#分}}が経過したため、セットアップを終了しました。デバイスは保存済みのネットワークに戻りました。',
  'screen.notice.closed': 'セットアップを終了しました。デバイスは保存済みのネットワークに戻りました。',

  'screen.setup.title': 'Wi-Fiを設定',
  'screen.setup.network': 'ネットワーク',
  'screen.setup.password': 'パスワード',
  'screen.setup.address': 'アドレス',
  'screen.setup.qr': 'Wi-Fi QRコード',
  'screen.setup.starting': 'セットアップ用ネットワークを開始しています…',
  'screen.setup.scanning': 'ネットワークを検索しています…',
  'screen.setup.ready':
    'スマートフォンのカメラでコードを読み取るか、上のネットワークに接続してアドレスを開いてください。',
  'screen.setup.connecting': '{ssid}に接続しています…',
  'screen.setup.connected': '{ssid}に接続しました。',
  'screen.setup.failedTo': '{ssid}に接続できませんでした。',
  'screen.setup.failed': '接続できませんでした。',
  'screen.setup.closesIn': 'セットアップ終了まで {time}',

  'update.title': 'ソフトウェア・アップデート',
  'update.firmware': 'ファームウェア',
  'update.model': 'モデル',
  'update.headline.available': 'アップデート v{version} があります（同意が必要です）',
  'update.headline.installing': 'アップデート v{version} をインストールしています',
  'update.headline.failed': 'アップデート v{version} はインストールされませんでした',
  'update.status.forced': '必須のアップデートです。確認なしでダウンロードしてインストールします。',
  'update.status.starting': 'ダウンロードを開始しています…',
  'update.status.downloading': 'ダウンロード中…',
  'update.status.downloadingPercent': 'ダウンロード中… {percent}',
  'update.status.verifying': 'ダウンロードを確認しています…',
  'update.status.consent': 'インストールの準備ができました。完了するとデバイスが再起動します。',
  'update.status.installing': 'インストール中… デバイスの電源を切らないでください。',
  'update.status.restarting': '再起動しています…',
  'update.status.failed': 'アップデートはインストールされませんでした。',
  'update.bytesOf': '{received} / {total}',
  'update.error.md5':
    'ダウンロードしたアップデートが破損していたため（MD5の不一致）、削除しました。次回の確認時にもう一度ダウンロードします。',
  'update.error.battery':
    'バッテリー残量が少ないため、アップデートをインストールできません。デバイスを充電してください。次回の確認時にインストールします。',
  'update.error.space':
    'アップデートに必要な空き容量がありません。空き容量を確保してください。次回の確認時にもう一度ダウンロードします。',
  'update.error.install':
    'アップデートをインストールできませんでした。デバイスは現在のバージョンのままです。',
  'update.error.reboot':
    'アップデートはインストールされましたが、デバイスを再起動できませんでした。電源を一度切ってから入れ直してください。',
  'update.error.package': 'アップデートパッケージが検査に合格しなかったため、インストールしませんでした。',
  'update.error.download': 'ダウンロードが中断しました（{detail}）。次回の確認時に再開します。',
  'update.error.other': 'アップデートはインストールされませんでした（{detail}）。',
  'unit.bytes': '{n} B',
  'unit.kibibytes': '{n} KiB',
  'unit.mebibytes': '{n} MiB',
  'unit.gibibytes': '{n} GiB',

  'verify.title': 'PC Link',
  'verify.prompt': 'デバイス上でデバイスのパスワードを入力してください',
  'verify.detail': 'USBで接続されたコンピューターが、ご本人であることの確認を求めています。',
  'verify.verified': '確認しました。コンピューターで操作を続けてください。',
  'verify.password': 'パスワード',
  'verify.entered': '{count, plural, other {#桁入力済み}}',
  'verify.closesIn': '残り {time} で閉じます',
  'verify.error.unavailable': 'このデバイスではPC Linkの確認を利用できません。',
  'verify.error.length': '{min}〜{max}桁の数字を入力してください。',
  'verify.error.noPassword':
    'デバイスのパスワードが設定されていません。先にデバイスの設定でパスワードを設定してください。',
  'verify.error.wrong': 'パスワードが違います。あと{left, plural, other {#回}}試せます。',
  'verify.error.refused': 'パスワードが違います。確認に失敗したことをコンピューターに通知しました。',
  'verify.error.locked': '間違ったパスワードが多すぎます。{wait, duration}後にもう一度お試しください。',

  'page.title': 'waved デバイス画面',
  'page.loading': '読み込み中…',
};
