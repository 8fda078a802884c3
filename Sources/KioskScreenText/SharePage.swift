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
    /// The guest's own delete (`POST delete`, the console's): the button that opens the confirm step,
    /// what it does, the confirming button; a photo's button.
    case deleteVideo, deletePhoto, deleteWarning, deleteConfirm
    /// The pages after it: deleted; no such video (or no longer); try again later.
    case deletedHeading, deletedText, notFoundText, tryLaterText

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
        case (.deleteVideo, .en): "Delete my video"
        case (.deleteVideo, .ja): "動画を削除する"
        case (.deleteVideo, .zhHans): "删除我的视频"
        case (.deleteVideo, .de): "Mein Video löschen"
        case (.deleteVideo, .fr): "Supprimer ma vidéo"
        case (.deleteVideo, .es): "Borrar mi vídeo"
        case (.deletePhoto, .en): "Delete my photo"
        case (.deletePhoto, .ja): "写真を削除する"
        case (.deletePhoto, .zhHans): "删除我的照片"
        case (.deletePhoto, .de): "Mein Foto löschen"
        case (.deletePhoto, .fr): "Supprimer ma photo"
        case (.deletePhoto, .es): "Borrar mi foto"
        case (.deleteWarning, .en): "It is erased from the booth and from the copies it sent on, for good. What you saved stays yours."
        case (.deleteWarning, .ja): "ブースと、ブースが送ったコピーから完全に消去されます。保存済みのものはそのまま残ります。"
        case (.deleteWarning, .zhHans): "它将从拍摄亭及其发出的副本中永久删除。你已保存的文件仍归你所有。"
        case (.deleteWarning, .de): "Es wird endgültig von der Kabine und aus den von ihr weitergegebenen Kopien gelöscht. Was du gespeichert hast, bleibt dir."
        case (.deleteWarning, .fr): "Elle est effacée pour de bon de la cabine et des copies qu’elle a envoyées. Ce que tu as enregistré reste à toi."
        case (.deleteWarning, .es): "Se borra para siempre de la cabina y de las copias que envió. Lo que guardaste sigue siendo tuyo."
        case (.deleteConfirm, .en): "Yes, delete it"
        case (.deleteConfirm, .ja): "はい、削除します"
        case (.deleteConfirm, .zhHans): "是的，删除"
        case (.deleteConfirm, .de): "Ja, löschen"
        case (.deleteConfirm, .fr): "Oui, supprimer"
        case (.deleteConfirm, .es): "Sí, borrar"
        case (.deletedHeading, .en): "Deleted"
        case (.deletedHeading, .ja): "削除しました"
        case (.deletedHeading, .zhHans): "已删除"
        case (.deletedHeading, .de): "Gelöscht"
        case (.deletedHeading, .fr): "Supprimée"
        case (.deletedHeading, .es): "Borrado"
        case (.deletedText, .en): "Your video was deleted from the booth. Copies it sent on are being deleted too."
        case (.deletedText, .ja): "動画はブースから削除されました。ブースが送ったコピーも削除されます。"
        case (.deletedText, .zhHans): "你的视频已从拍摄亭删除。它发出的副本也正在删除。"
        case (.deletedText, .de): "Dein Video wurde von der Kabine gelöscht. Die Kopien, die sie weitergegeben hat, werden ebenfalls gelöscht."
        case (.deletedText, .fr): "Ta vidéo a été supprimée de la cabine. Les copies qu’elle a envoyées sont supprimées aussi."
        case (.deletedText, .es): "Tu vídeo se ha borrado de la cabina. Las copias que envió también se están borrando."
        case (.notFoundText, .en): "There is no video here (any more)."
        case (.notFoundText, .ja): "ここに動画はありません。"
        case (.notFoundText, .zhHans): "这里没有视频（或已不存在）。"
        case (.notFoundText, .de): "Hier ist kein Video (mehr)."
        case (.notFoundText, .fr): "Il n’y a pas (ou plus) de vidéo ici."
        case (.notFoundText, .es): "Aquí no hay ningún vídeo (o ya no está)."
        case (.tryLaterText, .en): "The booth cannot delete it right now. Please try again in a minute."
        case (.tryLaterText, .ja): "ブースは今すぐ削除できません。1分後にもう一度お試しください。"
        case (.tryLaterText, .zhHans): "拍摄亭现在无法删除。请一分钟后再试。"
        case (.tryLaterText, .de): "Die Kabine kann es gerade nicht löschen. Bitte versuche es in einer Minute noch einmal."
        case (.tryLaterText, .fr): "La cabine ne peut pas la supprimer pour l’instant. Réessaie dans une minute."
        case (.tryLaterText, .es): "La cabina no puede borrarlo ahora. Vuelve a intentarlo dentro de un minuto."
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
            \(deleteForm(.deleteVideo, language: language))
            """)
    }

    /// A photo's page: the same look, the picture (`photo.jpg`, `width` x `height`) and a Save link
    /// that downloads it as `downloadName` (e.g. `photo-20261202-0714.jpg`).
    public static func photoHTML(title: String?, language: Language, downloadName: String, width: Int, height: Int) -> String {
        page(title: title, heading: .photoHeading, language: language, body: """
            <img src="\(photo)" width="\(width)" height="\(height)" alt="\(escape(SharePageText.photoHeading.text(in: language)))">
            <a class="save" href="\(photo)" download="\(escape(downloadName))">\(escape(SharePageText.savePhoto.text(in: language)))</a>
            <p>\(escape(SharePageText.photoIPhoneHint.text(in: language)))</p>
            \(deleteForm(.deletePhoto, language: language))
            """)
    }

    /// The path, relative to the page, the delete form posts to (nginx passes it to the console).
    public static let deleteAction = "delete"

    /// The guest's delete with its confirm step, without a script: the button opens a `<details>`
    /// holding what it does and a plain form, posted to `deleteAction` with the page's language.
    static func deleteForm(_ button: SharePageText, language: Language) -> String {
        """
        <details class="delete"><summary>\(escape(button.text(in: language)))</summary>
        <p>\(escape(SharePageText.deleteWarning.text(in: language)))</p>
        <form method="post" action="\(deleteAction)"><input type="hidden" name="lang" value="\(language.rawValue)"><button type="submit">\(escape(SharePageText.deleteConfirm.text(in: language)))</button></form>
        </details>
        """
    }

    /// The page the console answers a guest's delete with: `heading` and `text` in the language (the
    /// heading: `deletedHeading`, or the booth's own heading when nothing was deleted).
    public static func answerHTML(_ text: SharePageText, deleted: Bool, language: Language) -> String {
        page(title: nil, heading: deleted ? .deletedHeading : .heading, language: language,
             body: "<p class=\"answer\">\(escape(text.text(in: language)))</p>")
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
            details.delete { margin: 28px auto 0; max-width: 420px; }
            details.delete summary { cursor: pointer; color: #bbb; font-size: 0.95em; text-decoration: underline; padding: 12px; }
            details.delete p { margin: 8px auto 12px; }
            details.delete button { padding: 14px 22px; border: 0; border-radius: 12px; background: #c5221f; color: #fff; font-size: 1.1em; font-weight: bold; }
            p.answer { font-size: 1.1em; color: #eee; }
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
