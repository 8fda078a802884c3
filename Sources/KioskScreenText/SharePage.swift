// The share folder's page: what a guest's phone shows after scanning the booth's QR code.
// One self-contained file: the booth may have no internet, so the page asks for nothing outside its
// folder (inline CSS, no scripts, no fonts, no address anywhere), only `video.mp4` and `poster.jpg`
// (a photo's page: only `photo.jpg`).

/// The words of the share page, in the booth's language.
public enum SharePageText: CaseIterable, Sendable {
    /// The heading when the operator gave no `--share-title`.
    case heading
    /// The Save button.
    case save
    /// How to put the video into the iPhone's Photos (Safari saves a download into Files).
    case iPhoneHint
    /// A photo's page: its heading without `--share-title`, its Save button, and how to keep it on an iPhone.
    case photoHeading, savePhoto, photoIPhoneHint

    public func text(in language: Language) -> String {
        switch (self, language) {
        case (.heading, .en): "Your video"
        case (.heading, .ja): "あなたの動画"
        case (.heading, .zhHans): "你的视频"
        case (.heading, .de): "Dein Video"
        case (.heading, .fr): "Ta vidéo"
        case (.heading, .es): "Tu vídeo"
        case (.save, .en): "Save video"
        case (.save, .ja): "動画を保存"
        case (.save, .zhHans): "保存视频"
        case (.save, .de): "Video speichern"
        case (.save, .fr): "Enregistrer la vidéo"
        case (.save, .es): "Guardar vídeo"
        case (.iPhoneHint, .en): "On iPhone: tap Save, then open the download, tap Share and choose Save Video."
        case (.iPhoneHint, .ja): "iPhoneの場合：「保存」をタップしてからダウンロードを開き、共有ボタンで「ビデオを保存」を選んでください。"
        case (.iPhoneHint, .zhHans): "iPhone 用户：轻点“保存”，打开下载的文件，再轻点“共享”并选择“存储视频”。"
        case (.iPhoneHint, .de): "Auf dem iPhone: Auf „Speichern“ tippen, den Download öffnen, dann „Teilen“ und „Video sichern“ wählen."
        case (.iPhoneHint, .fr): "Sur iPhone\u{A0}: touchez Enregistrer, ouvrez le téléchargement, puis touchez Partager et choisissez «\u{A0}Enregistrer la vidéo\u{A0}»."
        case (.iPhoneHint, .es): "En iPhone: toca Guardar, abre la descarga, toca Compartir y elige «Guardar vídeo»."
        case (.photoHeading, .en): "Your photo"
        case (.photoHeading, .ja): "あなたの写真"
        case (.photoHeading, .zhHans): "你的照片"
        case (.photoHeading, .de): "Dein Foto"
        case (.photoHeading, .fr): "Ta photo"
        case (.photoHeading, .es): "Tu foto"
        case (.savePhoto, .en): "Save photo"
        case (.savePhoto, .ja): "写真を保存"
        case (.savePhoto, .zhHans): "保存照片"
        case (.savePhoto, .de): "Foto speichern"
        case (.savePhoto, .fr): "Enregistrer la photo"
        case (.savePhoto, .es): "Guardar foto"
        case (.photoIPhoneHint, .en): "On iPhone: touch and hold the photo, then choose Save to Photos."
        case (.photoIPhoneHint, .ja): "iPhoneの場合：写真を長押しして「“写真”に保存」を選んでください。"
        case (.photoIPhoneHint, .zhHans): "iPhone 用户：按住照片，然后选择“存储到‘照片’”。"
        case (.photoIPhoneHint, .de): "Auf dem iPhone: Das Foto gedrückt halten und „In Fotos sichern“ wählen."
        case (.photoIPhoneHint, .fr): "Sur iPhone\u{A0}: touchez longuement la photo, puis choisissez «\u{A0}Enregistrer dans Photos\u{A0}»."
        case (.photoIPhoneHint, .es): "En iPhone: mantén pulsada la foto y elige «Guardar en Fotos»."
        }
    }
}

/// The page itself: `index.html` of a share folder.
public enum SharePage {
    /// The folder's video and poster, the only files the page names.
    public static let video = "video.mp4"
    public static let poster = "poster.jpg"
    /// A photo's folder: its one picture, the only file its page names.
    public static let photo = "photo.jpg"

    /// The page: the operator's `title` (or the language's heading), the guestbook's `question` the
    /// take answers (`--questions`; nil: none), the video with its poster, and a large Save link
    /// that downloads the video as `downloadName` (e.g. `video-20261202-0714.mp4`).
    /// `loops` (a boomerang): the video plays by itself, muted (which lets every phone's browser
    /// start it), looping and inline.
    public static func html(title: String?, question: String? = nil, language: Language, downloadName: String, loops: Bool = false) -> String {
        let playing = loops ? "autoplay muted loop playsinline preload=\"auto\"" : "playsinline preload=\"metadata\""
        return page(title: title, heading: .heading, language: language, body: (question.map { "<p class=\"question\">\(escape($0))</p>\n" } ?? "") + """
            <video controls \(playing) poster="\(poster)" src="\(video)"></video>
            <a class="save" href="\(video)" download="\(escape(downloadName))">\(escape(SharePageText.save.text(in: language)))</a>
            <p>\(escape(SharePageText.iPhoneHint.text(in: language)))</p>
            """)
    }

    /// A photo's page: the same look, the picture (`photo.jpg`, `width` x `height`) and a Save link
    /// that downloads it as `downloadName` (e.g. `photo-20261202-0714.jpg`).
    public static func photoHTML(title: String?, language: Language, downloadName: String, width: Int, height: Int) -> String {
        page(title: title, heading: .photoHeading, language: language, body: """
            <img src="\(photo)" width="\(width)" height="\(height)" alt="\(escape(SharePageText.photoHeading.text(in: language)))">
            <a class="save" href="\(photo)" download="\(escape(downloadName))">\(escape(SharePageText.savePhoto.text(in: language)))</a>
            <p>\(escape(SharePageText.photoIPhoneHint.text(in: language)))</p>
            """)
    }

    /// The page around `body`: its heading (the operator's `title`, or `heading` in the language) and the one style.
    private static func page(title: String?, heading fallback: SharePageText, language: Language, body: String) -> String {
        let heading = escape(title.flatMap { $0.isEmpty ? nil : $0 } ?? fallback.text(in: language))
        return """
            <!DOCTYPE html>
            <html lang="\(language.rawValue)">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="robots" content="noindex">
            <link rel="icon" href="data:,">
            <title>\(heading)</title>
            <style>
            body { margin: 0; padding: 16px; font-family: system-ui, sans-serif; background: #111; color: #eee; text-align: center; }
            h1 { font-size: 1.5em; margin: 0.3em 0 0.6em; overflow-wrap: anywhere; }
            video { display: block; width: 100%; max-height: 70vh; margin: 0 auto; background: #000; border-radius: 8px; }
            img { display: block; max-width: 100%; max-height: 70vh; width: auto; height: auto; margin: 0 auto; border-radius: 8px; }
            .save { display: block; margin: 20px auto 12px; max-width: 420px; padding: 18px; border-radius: 12px; background: #1a73e8;
                    color: #fff; font-size: 1.4em; font-weight: bold; text-decoration: none; }
            p { margin: 0 auto; max-width: 420px; font-size: 0.95em; color: #bbb; line-height: 1.4; }
            p.question { margin: 0 auto 12px; max-width: 640px; font-size: 1.2em; color: #eee; font-style: italic; overflow-wrap: anywhere; }
            </style>
            </head>
            <body>
            <h1>\(heading)</h1>
            \(body)
            </body>
            </html>

            """
    }

    /// Text made safe inside an element or a quoted attribute: `& < > " '` as entities.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
