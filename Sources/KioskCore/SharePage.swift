// The share folder's page (issue 31): what a guest's phone shows after scanning the booth's QR code.
// One self-contained file: the booth may have no internet, so the page asks for nothing outside its
// folder (inline CSS, no scripts, no fonts, no address anywhere), only `video.mp4` and `poster.jpg`.

/// The words of the share page, in the booth's language.
public enum SharePageText: CaseIterable, Sendable {
    /// The heading when the operator gave no `--share-title`.
    case heading
    /// The Save button.
    case save
    /// How to put the video into the iPhone's Photos (Safari saves a download into Files).
    case iPhoneHint

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
        }
    }
}

/// The page itself: `index.html` of a share folder.
public enum SharePage {
    /// The folder's video and poster, the only files the page names.
    public static let video = "video.mp4"
    public static let poster = "poster.jpg"

    /// The page: the operator's `title` (or the language's heading), the video with its poster, and a
    /// large Save link that downloads the video as `downloadName` (e.g. `video-20261202-0714.mp4`).
    public static func html(title: String?, language: Language, downloadName: String) -> String {
        let heading = escape(title.flatMap { $0.isEmpty ? nil : $0 } ?? SharePageText.heading.text(in: language))
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
            .save { display: block; margin: 20px auto 12px; max-width: 420px; padding: 18px; border-radius: 12px; background: #1a73e8;
                    color: #fff; font-size: 1.4em; font-weight: bold; text-decoration: none; }
            p { margin: 0 auto; max-width: 420px; font-size: 0.95em; color: #bbb; line-height: 1.4; }
            </style>
            </head>
            <body>
            <h1>\(heading)</h1>
            <video controls playsinline preload="metadata" poster="\(poster)" src="\(video)"></video>
            <a class="save" href="\(video)" download="\(escape(downloadName))">\(escape(SharePageText.save.text(in: language)))</a>
            <p>\(escape(SharePageText.iPhoneHint.text(in: language)))</p>
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
