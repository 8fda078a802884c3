// The share page: its words in each language, the title escaped, nothing outside its folder.
import Foundation
import KioskScreenText
import Testing

/// What every share page must hold and must not: shared with KioskMediaTests' written pages.
enum SharePageChecks {
    /// The values of every `src=`, `href=` and `poster=` attribute in the page.
    static func references(in html: String) -> [String] {
        var found: [String] = []
        for name in ["src=\"", "href=\"", "poster=\""] {
            var rest = html[...]
            while let start = rest.range(of: name) {
                let value = rest[start.upperBound...].prefix { $0 != "\"" }
                found.append(String(value))
                rest = rest[start.upperBound...]
            }
        }
        return found
    }
}

@Suite("Share page")
struct SharePageTests {
    @Test("each language's page carries its words and its lang attribute", arguments: Language.allCases)
    func words(language: Language) {
        let page = SharePage.html(title: nil, language: language, downloadName: "video-20261202-0714.mp4")
        #expect(page.contains("<html lang=\"\(language.rawValue)\">"))
        for text: SharePageText in [.heading, .save, .iPhoneHint] {
            #expect(page.contains(SharePage.escape(text.text(in: language))), "\(text) in \(language)")
        }
        #expect(page.contains("<h1>\(SharePage.escape(SharePageText.heading.text(in: language)))</h1>"))
        #expect(page.contains("<meta name=\"viewport\""))
        #expect(page.contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(page.contains("<video controls playsinline preload=\"metadata\" poster=\"poster.jpg\" src=\"video.mp4\">"))
        #expect(page.contains("<a class=\"save\" href=\"video.mp4\" download=\"video-20261202-0714.mp4\">"))
    }

    @Test("the words differ from one language to the next (none left in English)")
    func translated() {
        for text in SharePageText.allCases {
            let all = Language.allCases.map { text.text(in: $0) }
            #expect(Set(all).count == all.count, "\(text): \(all)")
        }
    }

    @Test("the operator's title replaces the heading, escaped; an empty one is no title")
    func title() {
        let page = SharePage.html(title: "<script>alert(\"x\") & 'y'</script>", language: .en, downloadName: "video.mp4")
        #expect(!page.contains("<script>") && !page.contains("alert(\"x\")"))
        #expect(page.contains("<h1>&lt;script&gt;alert(&quot;x&quot;) &amp; &#39;y&#39;&lt;/script&gt;</h1>"))
        #expect(page.contains("<title>&lt;script&gt;"))
        #expect(!page.contains(SharePageText.heading.text(in: .en)))
        #expect(SharePage.html(title: "", language: .de, downloadName: "v.mp4").contains("<h1>Dein Video</h1>"))
    }

    @Test("the guestbook's question above the video, escaped; without one, no question paragraph")
    func question() {
        let page = SharePage.html(title: "Anna & Tom", question: "<b>Any advice</b> for \"them\"? ふたりへ", language: .en, downloadName: "v.mp4")
        #expect(page.contains("<p class=\"question\">&lt;b&gt;Any advice&lt;/b&gt; for &quot;them&quot;? ふたりへ</p>"))
        #expect(!page.contains("<b>Any advice</b>"))
        let question = page.range(of: "class=\"question\"")?.lowerBound, video = page.range(of: "<video")?.lowerBound
        #expect(question != nil && video != nil && question! < video!, "the question comes before the video")
        #expect(!SharePage.html(title: nil, language: .en, downloadName: "v.mp4").contains("<p class=\"question\">"))
    }

    @Test("no outside address: no http:, https: or //, and every src and href is the video or the poster",
          arguments: Language.allCases)
    func selfContained(language: Language) {
        let page = SharePage.html(title: "Anna & Ben's wedding", language: language, downloadName: "video-20261202-0714.mp4")
        for bad in ["http:", "https:", "//", "<script", "@import", "url("] {
            #expect(!page.lowercased().contains(bad), "\(bad)")
        }
        // One link: an empty icon of its own, so that a browser does not ask the server for /favicon.ico
        // (outside the folder).
        #expect(page.components(separatedBy: "<link").count == 2 && page.contains("<link rel=\"icon\" href=\"data:,\">"))
        let references = SharePageChecks.references(in: page)
        #expect(references.sorted() == ["data:,", "poster.jpg", "video.mp4", "video.mp4"], "\(references)")
    }

    @Test("a photo's page: its words in each language, the picture at its size and a Save link to photo.jpg, the same look, nothing of a video",
          arguments: Language.allCases)
    func photo(language: Language) {
        let page = SharePage.photoHTML(title: nil, language: language, downloadName: "photo-20261202-0714.jpg", width: 1280, height: 720)
        #expect(page.contains("<html lang=\"\(language.rawValue)\">"))
        for text: SharePageText in [.photoHeading, .savePhoto, .photoIPhoneHint] {
            #expect(page.contains(SharePage.escape(text.text(in: language))), "\(text) in \(language)")
        }
        for text: SharePageText in [.heading, .save, .iPhoneHint] {
            #expect(!page.contains(SharePage.escape(text.text(in: language))), "\(text) in \(language)")
        }
        #expect(page.contains("<h1>\(SharePage.escape(SharePageText.photoHeading.text(in: language)))</h1>"))
        #expect(page.contains("<img src=\"photo.jpg\" width=\"1280\" height=\"720\""))
        #expect(page.contains("<a class=\"save\" href=\"photo.jpg\" download=\"photo-20261202-0714.jpg\">"))
        // The same head and style as the video's page.
        let video = SharePage.html(title: nil, language: language, downloadName: "v.mp4")
        let style = { (html: String) in html.components(separatedBy: "<style>").last?.components(separatedBy: "</style>").first }
        #expect(style(page) != nil && style(page) == style(video))
        for bad in ["http:", "https:", "//", "<script", "<video", "video.mp4"] {
            #expect(!page.lowercased().contains(bad), "\(bad)")
        }
        #expect(SharePageChecks.references(in: page).sorted() == ["data:,", "photo.jpg", "photo.jpg"])
        let titled = SharePage.photoHTML(title: "Anna & Tom", language: language, downloadName: "p.jpg", width: 2, height: 2)
        #expect(titled.contains("<h1>Anna &amp; Tom</h1>"))
    }
}
