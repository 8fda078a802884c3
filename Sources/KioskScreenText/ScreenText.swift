// Every word the guest reads, from one table in six languages; an operator may replace any of them
// (`label.use-video = …` in the config). The screen asks for text by key, never by English words.
import KioskContract

/// The languages of the table (`--language`): BCP 47 tags.
public enum Language: String, CaseIterable, Codable, Sendable {
    case en, ja, zhHans = "zh-Hans", de, fr, es

    /// The language fontconfig is asked for when a text needs a font beyond DejaVu: `zh-cn`
    /// picks Simplified Chinese shapes (Noto Sans CJK SC), `ja` Japanese ones (Noto Sans CJK JP).
    public var fontconfigLanguage: String {
        switch self {
        case .zhHans: "zh-cn"
        default: rawValue
        }
    }

    /// The language's name in itself, for logs and `--help`.
    public var nativeName: String {
        switch self {
        case .en: "English"
        case .ja: "日本語"
        case .zhHans: "简体中文"
        case .de: "Deutsch"
        case .fr: "Français"
        case .es: "Español"
        }
    }
}

/// One string on screen, named by its config key (`label.<rawValue>`). The buttons' keys are their
/// commands' names.
public enum ScreenText: String, CaseIterable, Codable, Sendable {
    case start, stop, cancel, retake, useVideo, playVideo, closePlayer, switchCamera
    /// The share screen's button.
    case done
    /// The shutter (`--photo-button`): a circle without a title, like the record button.
    case photo
    /// The Boomerang button (`--boomerang-button`): the title under its circle.
    case boomerang
    /// `--library`: ready's button to the takes already made, and the library's way back.
    case openLibrary, back
    /// The message while no camera gives pictures.
    case cameraUnavailable
    /// `--camera auto` has found no camera yet (and looks again every second).
    case noCameraFound
    /// The microphone asked for did not open at launch: the video will have no sound.
    case noMicrophone
    /// The warning while recording when the microphone has heard nothing for 3 s.
    case microphoneSilent
    /// A stopped take the disk is slow to save (after half a second).
    case saving
    /// The share screen's words under the take's QR code.
    case shareScan
    /// With `--share-wifi-ssid`: under the first QR code, the one that joins the booth's Wi-Fi.
    case shareJoinWifi
    /// With `--share-wifi-ssid`: under the second QR code, the take's.
    case shareScanVideo
    /// In place of the take's QR code while its share folder is still written.
    case sharePreparing
    /// A photo's share screen: the words under its QR code (`shareScan`'s for a photo).
    case sharePhotoScan
    /// A photo's share screen with `--share-wifi-ssid`: under the second QR code, the photo's.
    case shareScanPhoto
    /// The booth closed by its operator (`closeBooth`): the only words on its screen.
    case backSoon
    /// Pairing (`--console-pairing`): above the operator's keyboard.
    case pairingPassword
    /// Pairing: the keyboard's key that checks the password.
    case pairingEnter
    /// Pairing: under the QR code that signs the operator's phone in to the console.
    case pairingScan
    /// `--consent`: the consent screen's buttons, Agree and No thanks.
    case agree, decline
    /// `--consent-choice`: beside each switch of the consent screen, what it allows.
    case consentShare, consentSlideshow, consentFilm

    /// A button's title.
    public init(_ button: Button) {
        switch button {
        case .cancel: self = .cancel
        case .start: self = .start
        case .stop: self = .stop
        case .retake: self = .retake
        case .useVideo: self = .useVideo
        case .playVideo: self = .playVideo
        case .closePlayer: self = .closePlayer
        case .switchCamera: self = .switchCamera
        case .done: self = .done
        case .photo: self = .photo
        case .boomerang: self = .boomerang
        case .openLibrary: self = .openLibrary
        case .back: self = .back
        case .agree: self = .agree
        case .decline: self = .decline
        }
    }

    /// Whether the screen shows these words anywhere. The record, stop and photo buttons are
    /// circles without a title, so `label.start`, `label.stop` and `label.photo` change nothing:
    /// they are still read (old configs name them), with a warning, and no longer offered in
    /// --help, the example config or the docs.
    public var isShown: Bool { self != .start && self != .stop && self != .photo }

    /// The config key that replaces it, kebab-case as every other key (`label.use-video`).
    public var key: String {
        "label." + rawValue.unicodeScalars.map { $0.properties.isUppercase ? "-" + String($0).lowercased() : String($0) }.joined()
    }

    /// The key as it was first spelled (`label.useVideo`, the command's name), still read with a
    /// warning; nil where it is the same.
    public var oldKey: String? { "label." + rawValue == key ? nil : "label." + rawValue }

    /// The table. Titles are short enough for the side buttons at the normal text size in
    /// 800x480; longer ones shrink (all side buttons together) rather than overflow.
    public func text(in language: Language) -> String {
        switch language {
        case .en: english
        case .ja: japanese
        case .zhHans: chinese
        case .de: german
        case .fr: french
        case .es: spanish
        }
    }

    private var english: String {
        switch self {
        case .start: "Record"
        case .stop: "Stop"
        case .cancel: "Cancel"
        case .retake: "Retake"
        case .useVideo: "Use Video"
        case .playVideo: "Play Video"
        case .closePlayer: "Close"
        case .switchCamera: "Switch Camera"
        case .photo: "Photo"
        case .boomerang: "Boomerang"
        case .done: "Done"
        case .openLibrary: "Library"
        case .back: "Back"
        case .cameraUnavailable: "Camera unavailable. Connect a camera; retrying every second."
        case .noCameraFound: "No camera found. Connect a camera; looking again every second."
        case .noMicrophone: "No microphone found: the video will have no sound."
        case .microphoneSilent: "No sound from the microphone. Is it on?"
        case .saving: "Saving your video…"
        case .shareScan: "Scan to get your video"
        case .shareJoinWifi: "1. Join the Wi-Fi"
        case .shareScanVideo: "2. Scan for your video"
        case .sharePreparing: "Getting your video ready…"
        case .sharePhotoScan: "Scan to get your photo"
        case .shareScanPhoto: "2. Scan for your photo"
        case .backSoon: "The booth is closed for a moment. Back soon!"
        case .pairingPassword: "Operator password"
        case .pairingEnter: "Enter"
        case .pairingScan: "Scan with the operator's phone: it opens the console, once, within 2 minutes"
        case .agree: "Agree"
        case .decline: "No thanks"
        case .consentShare: "Take the video home (QR code)"
        case .consentSlideshow: "Show it on the booth's screen"
        case .consentFilm: "Include it in the hosts' film"
        }
    }

    private var japanese: String {
        switch self {
        case .start: "録画"
        case .stop: "停止"
        case .cancel: "キャンセル"
        case .retake: "撮り直す"
        case .useVideo: "この動画を使う"
        case .playVideo: "再生"
        case .closePlayer: "閉じる"
        case .switchCamera: "カメラ切替"
        case .photo: "写真"
        case .boomerang: "ブーメラン"
        case .done: "完了"
        case .openLibrary: "ライブラリ"
        case .back: "戻る"
        case .cameraUnavailable: "カメラが使えません。カメラを接続してください（1秒ごとに再試行します）。"
        case .noCameraFound: "カメラが見つかりません。カメラを接続してください（1秒ごとに探します）。"
        case .noMicrophone: "マイクが見つかりません。動画に音声は入りません。"
        case .microphoneSilent: "マイクの音が聞こえません。電源は入っていますか？"
        case .saving: "動画を保存しています…"
        case .shareScan: "スキャンして動画を受け取る"
        case .shareJoinWifi: "1. Wi-Fiに接続"
        case .shareScanVideo: "2. スキャンして動画を受け取る"
        case .sharePreparing: "動画を準備しています…"
        case .sharePhotoScan: "スキャンして写真を受け取る"
        case .shareScanPhoto: "2. スキャンして写真を受け取る"
        case .backSoon: "ただいま休止中です。まもなく再開します。"
        case .pairingPassword: "オペレーターのパスワード"
        case .pairingEnter: "決定"
        case .pairingScan: "オペレーターの電話でスキャン：2分以内に1回だけコンソールを開きます"
        case .agree: "同意する"
        case .decline: "同意しない"
        case .consentShare: "動画を持ち帰る（QRコード）"
        case .consentSlideshow: "ブースの画面で流す"
        case .consentFilm: "主催者のムービーに入れる"
        }
    }

    private var chinese: String {
        switch self {
        case .start: "录制"
        case .stop: "停止"
        case .cancel: "取消"
        case .retake: "重录"
        case .useVideo: "使用视频"
        case .playVideo: "播放视频"
        case .closePlayer: "关闭"
        case .switchCamera: "切换摄像头"
        case .photo: "拍照"
        case .boomerang: "回旋镖"
        case .done: "完成"
        case .openLibrary: "视频库"
        case .back: "返回"
        case .cameraUnavailable: "摄像头不可用。请连接摄像头（每秒重试一次）。"
        case .noCameraFound: "未找到摄像头。请连接摄像头（每秒查找一次）。"
        case .noMicrophone: "未找到麦克风：视频将没有声音。"
        case .microphoneSilent: "麦克风没有声音。它打开了吗？"
        case .saving: "正在保存视频…"
        case .shareScan: "扫码获取你的视频"
        case .shareJoinWifi: "1. 连接 Wi-Fi"
        case .shareScanVideo: "2. 扫码获取视频"
        case .sharePreparing: "正在准备你的视频…"
        case .sharePhotoScan: "扫码获取你的照片"
        case .shareScanPhoto: "2. 扫码获取照片"
        case .backSoon: "拍摄亭暂停服务，马上回来！"
        case .pairingPassword: "操作员密码"
        case .pairingEnter: "确定"
        case .pairingScan: "用操作员的手机扫描：2 分钟内可打开控制台一次"
        case .agree: "同意"
        case .decline: "不，谢谢"
        case .consentShare: "带走视频（二维码）"
        case .consentSlideshow: "在拍摄亭屏幕上播放"
        case .consentFilm: "收入主办方的影片"
        }
    }

    private var german: String {
        switch self {
        case .start: "Aufnehmen"
        case .stop: "Stopp"
        case .cancel: "Abbrechen"
        case .retake: "Neu aufnehmen"
        case .useVideo: "Video verwenden"
        case .playVideo: "Video ansehen"
        case .closePlayer: "Schließen"
        case .switchCamera: "Kamera wechseln"
        case .photo: "Foto"
        case .boomerang: "Bumerang"
        case .done: "Fertig"
        case .openLibrary: "Mediathek"
        case .back: "Zurück"
        case .cameraUnavailable: "Kamera nicht verfügbar. Bitte eine Kamera anschließen; neuer Versuch jede Sekunde."
        case .noCameraFound: "Keine Kamera gefunden. Bitte eine Kamera anschließen; Suche jede Sekunde."
        case .noMicrophone: "Kein Mikrofon gefunden: Das Video hat keinen Ton."
        case .microphoneSilent: "Kein Ton vom Mikrofon. Ist es eingeschaltet?"
        case .saving: "Das Video wird gespeichert…"
        case .shareScan: "Scannen und Video mitnehmen"
        case .shareJoinWifi: "1. Mit dem WLAN verbinden"
        case .shareScanVideo: "2. Für das Video scannen"
        case .sharePreparing: "Das Video wird vorbereitet…"
        case .sharePhotoScan: "Scannen und Foto mitnehmen"
        case .shareScanPhoto: "2. Für das Foto scannen"
        case .backSoon: "Die Box macht kurz Pause. Gleich geht es weiter!"
        case .pairingPassword: "Passwort der Betreuung"
        case .pairingEnter: "OK"
        case .pairingScan: "Mit dem Telefon der Betreuung scannen: öffnet die Konsole einmal, innerhalb von 2 Minuten"
        case .agree: "Zustimmen"
        case .decline: "Nein, danke"
        case .consentShare: "Video mitnehmen (QR-Code)"
        case .consentSlideshow: "Auf dem Bildschirm der Box zeigen"
        case .consentFilm: "In den Film der Gastgeber aufnehmen"
        }
    }

    private var french: String {
        switch self {
        case .start: "Enregistrer"
        case .stop: "Arrêter"
        case .cancel: "Annuler"
        case .retake: "Refaire"
        case .useVideo: "Garder la vidéo"
        case .playVideo: "Voir la vidéo"
        case .closePlayer: "Fermer"
        case .switchCamera: "Changer de caméra"
        case .photo: "Prendre une photo"
        case .boomerang: "Aller-retour"
        case .done: "Terminé"
        case .openLibrary: "Vidéothèque"
        case .back: "Retour"
        // French puts a (no-break) space before ; ? : and !
        case .cameraUnavailable: "Caméra indisponible. Branchez une caméra\u{A0}; nouvel essai chaque seconde."
        case .noCameraFound: "Aucune caméra trouvée. Branchez une caméra\u{A0}; recherche chaque seconde."
        case .noMicrophone: "Aucun micro trouvé\u{A0}: la vidéo n’aura pas de son."
        case .microphoneSilent: "Aucun son du micro. Est-il allumé\u{A0}?"
        case .saving: "Sauvegarde de la vidéo…"
        case .shareScan: "Scannez pour récupérer votre vidéo"
        case .shareJoinWifi: "1. Connectez-vous au Wi-Fi"
        case .shareScanVideo: "2. Scannez pour votre vidéo"
        case .sharePreparing: "Préparation de votre vidéo…"
        case .sharePhotoScan: "Scannez pour récupérer votre photo"
        case .shareScanPhoto: "2. Scannez pour votre photo"
        case .backSoon: "La cabine est fermée un instant. De retour bientôt\u{A0}!"
        case .pairingPassword: "Mot de passe de l'opérateur"
        case .pairingEnter: "Valider"
        case .pairingScan: "Scannez avec le téléphone de l'opérateur\u{A0}: la console s'ouvre une fois, dans les 2\u{A0}minutes"
        case .agree: "J'accepte"
        case .decline: "Non merci"
        case .consentShare: "Emporter la vidéo (code QR)"
        case .consentSlideshow: "La montrer sur l'écran de la cabine"
        case .consentFilm: "L'inclure dans le film des hôtes"
        }
    }

    private var spanish: String {
        switch self {
        case .start: "Grabar"
        case .stop: "Detener"
        case .cancel: "Cancelar"
        case .retake: "Repetir"
        case .useVideo: "Usar vídeo"
        case .playVideo: "Ver vídeo"
        case .closePlayer: "Cerrar"
        case .switchCamera: "Cambiar cámara"
        case .photo: "Foto"
        case .boomerang: "Bumerán"
        case .done: "Listo"
        case .openLibrary: "Biblioteca"
        case .back: "Atrás"
        case .cameraUnavailable: "Cámara no disponible. Conecte una cámara; se reintenta cada segundo."
        case .noCameraFound: "No se encontró ninguna cámara. Conecte una cámara; se busca cada segundo."
        case .noMicrophone: "No se encontró ningún micrófono: el vídeo no tendrá sonido."
        case .microphoneSilent: "No llega sonido del micrófono. ¿Está encendido?"
        case .saving: "Guardando el vídeo…"
        case .shareScan: "Escanee para llevarse su vídeo"
        case .shareJoinWifi: "1. Conéctese al wifi"
        case .shareScanVideo: "2. Escanee para su vídeo"
        case .sharePreparing: "Preparando su vídeo…"
        case .sharePhotoScan: "Escanee para llevarse su foto"
        case .shareScanPhoto: "2. Escanee para su foto"
        case .backSoon: "La cabina está cerrada un momento. ¡Volvemos enseguida!"
        case .pairingPassword: "Contraseña del operador"
        case .pairingEnter: "Aceptar"
        case .pairingScan: "Escanea con el teléfono del operador: abre la consola una vez, en 2 minutos"
        case .agree: "Acepto"
        case .decline: "No, gracias"
        case .consentShare: "Llevarme el vídeo (código QR)"
        case .consentSlideshow: "Mostrarlo en la pantalla de la cabina"
        case .consentFilm: "Incluirlo en la película de los anfitriones"
        }
    }
}

/// The words on screen for one configuration: the language's table with the operator's overrides.
public struct ScreenWords: Equatable, Sendable {
    public var language: Language
    public var overrides: [ScreenText: String]

    public init(language: Language = .en, overrides: [ScreenText: String] = [:]) {
        self.language = language
        self.overrides = overrides
    }

    public subscript(_ text: ScreenText) -> String { overrides[text] ?? text.text(in: language) }
    /// A button's title.
    public func title(of button: Button) -> String { self[ScreenText(button)] }

    /// Everything that can be on screen with these words: each string of the table (with the
    /// overrides), the prompt, and the characters of the timers and the countdown. The screen
    /// checks at launch that a font has every glyph of each.
    public func all(prompt: String?) -> [String] { shownTexts(prompt: prompt).map(\.text) }

    /// `all(prompt:)`, each text with where it comes from: the language's table (`--language de`),
    /// the label that replaces one (`label.done`), `--prompt`, the timers.
    public func shownTexts(prompt: String?) -> [ShownText] {
        ScreenText.allCases.map { ShownText(self[$0], origin: overrides[$0] == nil ? "--language \(language.rawValue)" : $0.key) }
            + (prompt.map { [ShownText($0, origin: "--prompt")] } ?? []) + [ShownText("0123456789: /", origin: "the timer")]
    }
}
