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
  'screen.setup.passwordHidden': '（デバイスの画面に表示）',
  'screen.page.hostRefused': 'このページはデバイスの画面専用です',
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
    'ダウンロードした更新は MD5 チェックサムと一致しなかったため削除されました。新しい更新が提供されるまで再度ダウンロードされません。',
  'update.error.hash':
    '更新内のイメージに SHA-256 チェックサムがないか、一致しません。更新は削除され、新しい更新が提供されるまで再度ダウンロードされません。',
  'update.error.signature':
    '更新がデバイスメーカーによって署名されていないか、署名が正しくありません。更新は削除され、新しい更新が提供されるまで再度ダウンロードされません。',
  'update.error.policy':
    'このデバイスはこの更新を受け付けません（バージョン、ハードウェア、またはサイズ）。新しい更新が提供されるまで再度ダウンロードされません。',
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

  'group.wifi': 'Wi-Fi',
  'group.device': 'デバイス',
  'group.audio': 'オーディオ',
  'group.webhook': 'Webhook',
  'group.storage': 'ストレージ',
  'group.security': 'セキュリティ',
  'group.ntp': '時刻（NTP）',
  'field.wifi.country': 'Wi-Fiの国',
  'field.wifi.country.hint': '使用できる無線チャンネルを決めます。「全世界」はどこでも安全です。',
  'field.device.name': 'デバイス名',
  'field.device.name.hint': '{max}文字まで。',
  'field.device.country': '国',
  'field.device.country.hint': 'クラウドのリージョンを選びます（中国、米国、それ以外はすべてヨーロッパ）。',
  'field.device.timezone': 'タイムゾーン',
  'field.device.language': '言語',
  'field.audio.volume': '音量',
  'field.audio.volume.hint': '{min}～{max}。',
  'field.audio.prompt_tones': '案内音を鳴らす',
  'field.webhook.url': 'WebhookのURL',
  'field.webhook.url.hint':
    'イベントを受け取る https:// のアドレスです。イベントには下のシークレットで署名されます。',
  'field.webhook.url.remove': 'Webhookを削除',
  'field.webhook.secret': 'Webhookのシークレット',
  'field.webhook.secret.hint':
    '{min}～{max}文字。リクエストの署名に使われ、シークレット自体は送信されません。',
  'field.webhook.secret.remove': 'Webhookのシークレットを削除',
  'field.storage.auto_upload': '録音を自動でアップロード',
  'field.storage.max_usage_percent': 'ストレージの最大使用率（%）',
  'field.storage.max_usage_percent.hint':
    '{min}～{max}。これを超えると、アップロード済みの古い録音から削除されます。',
  'field.security.device_password': 'デバイスのPIN',
  'field.security.device_password.hint': '{min}～{max}桁の数字。',
  'field.security.device_password.remove': 'デバイスのPINを削除',
  'field.ntp.enabled': 'タイムサーバーで時計を合わせる',
  'field.ntp.servers': 'タイムサーバー',
  'field.ntp.servers.hint':
    'ホスト名またはIPv4アドレスを、カンマかスペースで区切って入力します（{max}個まで）。',

  'error.device.name.empty': 'デバイスの名前を入力してください。',
  'error.device.name.long': '{max}文字以内にしてください。',
  'error.device.name.chars': '文字、数字、スペース、句読点だけを使ってください。',
  'error.country': 'リストから国を選んでください。',
  'error.wifi.country': 'リストから国を選ぶか、「全世界」を選んでください。',
  'error.timezone': 'リストからタイムゾーンを選んでください。',
  'error.language': 'リストから言語を選んでください。',
  'error.webhook.url': 'https:// で始まる完全なアドレスを入力してください。',
  'error.webhook.http':
    'https:// のアドレスを使ってください。このデバイスは暗号化されていない http ではイベントを送信しません。',
  'error.webhook.secret':
    'スペースを含まない印字可能な文字を{min}～{max}文字使ってください（もう一度入力してください）。',
  'error.pin': 'PINは{min}～{max}桁の数字です（もう一度入力してください）。',
  'error.currentPin.missing': '保存するには、現在のデバイスのPINを入力してください。',
  'error.currentPin.invalid': 'PINは{min}～{max}桁の数字です。もう一度入力してください。',
  'error.currentPin.locked': '間違ったPINが多すぎます。{wait, duration}後にもう一度お試しください。',
  'error.currentPin.wrong': 'PINが違います。何も保存されていません。',
  'error.currentPin.wrongWait':
    'PINが違います。何も保存されていません。次に試すまで{wait, duration}お待ちください。',
  'error.ntp.none': 'タイムサーバーを1つ以上入力してください。',
  'error.ntp.many': 'サーバーは{max, plural, other {#個}}までにしてください。',
  'error.ntp.host': '「{name}」はホスト名でもIPv4アドレスでもありません。',
  'error.ntp.reserved':
    '「{name}」はタイムサーバーにできません（ローカル、セットアップネットワーク、または予約済みのアドレス）。',
  'error.boolean': 'チェックボックスをオンまたはオフにしてください。',
  'error.number': '{min}～{max}の整数を入力してください。',
  'error.unknown': '不明な設定です。',
  'error.wifi.choose': 'ネットワークを選ぶか、「その他」を選んで非公開ネットワークの名前を入力してください。',
  'error.wifi.chooseListed':
    'リストからネットワークを選ぶか、「その他」を選んで非公開ネットワークの名前を入力してください。',
  'error.wifi.ssidLength':
    'ネットワーク名は1～{max}バイトです（アクセント付きの文字や絵文字を使うと、入る文字数は少なくなります）。',
  'error.wifi.open':
    'これは暗号化されていないネットワークです。このデバイスはWPA2で保護されたネットワークにのみ接続します。',
  'error.wifi.passwordMissing': 'Wi-Fiのパスワードを入力してください。',
  'error.wifi.passwordInvalid':
    'アクセント付きの文字や絵文字を含まない{min}～{max}文字、または16進数{hex}桁を使ってください。もう一度入力してください。',
  'error.body.type':
    'フォームは application/x-www-form-urlencoded または multipart/form-data で送信してください。',
  'error.body.incomplete': 'フォームを最後まで受信できませんでした。',
  'error.body.tooLarge': 'フォームが{size} KiBを超えています。',
  'error.body.multipart': 'マルチパートの本文を読み取れませんでした。',

  'portal.language': '言語',
  'portal.form.title': '{ssid}のセットアップ',
  'portal.form.lead': 'デバイスが接続するWi-Fiネットワークを選び、設定を確認してください。',
  'portal.form.closesIn': 'このセットアップページはあと{time}で閉じます。',
  'portal.form.saveConnect': '保存して接続',
  'portal.form.saveOnly': '設定のみ保存',
  'portal.errors.summary': '何も保存されていません。次の{count, plural, other {#項目}}を修正してください：',
  'portal.errors.item': '{field}：{error}',
  'portal.stale':
    'このページを開いている間に、別のスマートフォンから設定が変更されました。何も保存されていません。下のフォームを確認して、もう一度保存してください。',
  'portal.wifi.choose': 'ネットワークを選択',
  'portal.wifi.noNetworks': '近くにネットワークが見つかりませんでした。下に名前を入力してください。',
  'portal.wifi.openNetwork': '暗号化なしのネットワーク（非対応）',
  'portal.wifi.other': 'その他（非公開）のネットワーク…',
  'portal.wifi.network': 'ネットワーク',
  'portal.wifi.hiddenName': '非公開ネットワークの名前',
  'portal.wifi.hiddenHint':
    '名前を公開していないネットワークの場合だけです。上で「その他」を選んでください。',
  'portal.wifi.password': 'Wi-Fiのパスワード',
  'portal.wifi.passwordHint': 'WPA2のパスワード（{min}～{max}文字）。派生した鍵としてのみ保存されます。',
  'portal.wifi.showPassword': 'パスワードを表示',
  'portal.wifi.secured': '保護あり',
  'portal.signal.excellent': '非常に強い',
  'portal.signal.good': '強い',
  'portal.signal.fair': '普通',
  'portal.signal.weak': '弱い',
  'portal.country.world': '全世界（どこでも安全）',
  'portal.country.notSet': '未設定（ヨーロッパのリージョン）',
  'portal.secret.unchanged': '変更なし',
  'portal.secret.notSet': '未設定',
  'portal.secret.keepUnchanged': '変更しない場合は空欄のままにしてください。',
  'portal.secret.keepUnset': '設定しない場合は空欄のままにしてください。',
  'portal.webhook.now':
    '現在：{url}。変更しない場合は空欄のままにします。新しいアドレスを入力した場合は、シークレットも入力し直す必要があります。',
  'portal.currentPin.label': '現在のデバイスのPIN',
  'portal.currentPin.hint': 'このデバイスはPINで保護されています。変更を保存するにはPINを入力してください。',
  'portal.banner.scanning': 'ネットワークを探しています…',
  'portal.banner.connecting': '「{ssid}」に接続しています…',
  'portal.banner.connectingHint':
    'デバイスの画面を見てください。このスマートフォンはこれからセットアップ用ネットワークから切断されます。',
  'portal.banner.connected': '「{ssid}」に接続しました。',
  'portal.banner.connectedHint': 'セットアップが完了しました。このページは閉じてかまいません。',
  'portal.banner.failedTo': '「{ssid}」に接続できませんでした。',
  'portal.banner.failed': '接続できませんでした。',
  'portal.tryAgain': '再試行',
  'portal.inactive.title': 'セットアップは開始されていません',
  'portal.inactive.body':
    'デバイスで{path}を開き、表示されたネットワークに接続してから、このページをもう一度開いてください。',
  'portal.status.title': 'セットアップの状況',
  'portal.status.waiting': '設定の送信を待っています。',
  'portal.status.openForm': 'フォームを開く',
  'portal.status.hint':
    'このスマートフォンがセットアップ用ネットワークから切断された場合は、デバイスの画面に結果が表示されます。もう一度試すには、{ap}に接続し直して{url}を開いてください。',
  'portal.notSaved.title': '何も保存されていません',
  'portal.backToForm': 'フォームに戻る',
  'portal.expired.title': 'このページの有効期限が切れました',
  'portal.expired.body':
    '何も保存されていません。このページを読み込んだ後に、セットアップのセッションが変わりました。',
  'portal.reloadForm': 'フォームを再読み込み',
  'portal.busy.title': 'お待ちください',
  'portal.busy.body': 'デバイスは接続中です。結果が出てから、もう一度お試しください。',
  'portal.showStatus': '状況を表示',
  'portal.saveFailed.body': 'デバイスが設定を書き込めませんでした。もう一度お試しください。',
  'portal.saved.title': '設定を保存しました',
  'portal.saved.done': '設定を保存しました。',
  'portal.saved.secretCleared':
    'Webhookのアドレスが変わったため、シークレットを削除しました。リクエストに署名するには、シークレットをもう一度入力してください。',
  'portal.saved.leaving':
    'デバイスはこれからセットアップ用ネットワーク{ap}を閉じます。このスマートフォンはそこから切断され、いつものネットワークに戻ります。',
  'portal.saved.next':
    'デバイスの画面には{connected}、または失敗した理由と{tryAgain}が表示されます。失敗した場合は、{ap}に接続し直して{url}をもう一度開いてください。',
};
