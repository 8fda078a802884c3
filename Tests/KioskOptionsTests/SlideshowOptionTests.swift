// `--attract-slideshow`'s option: what it needs (its rule is KioskCoreTests' SlideshowRuleTests).
import Testing
@testable import KioskOptions

@Suite("--attract-slideshow's option")
struct SlideshowOptionTests {
    @Test("it needs --output-dir and --attract-after, each named when missing; with both it is set; a config file's key too")
    func needs() throws {
        #expect(usageError(["--attract-slideshow", "--attract-after", "30"])
                == "--attract-slideshow needs --output-dir (the slideshow plays that folder's accepted takes)")
        #expect(usageError(["--attract-slideshow", "--output-dir", "/tmp/takes"])
                == "--attract-slideshow needs --attract-after SECONDS (the slideshow plays on the attract screen)")
        #expect(usageError(["--attract-slideshow", "--output-dir", "/tmp/takes", "--attract-after", "0"])?
            .hasPrefix("--attract-slideshow needs --attract-after") == true)
        let c = try record(["--attract-slideshow", "--output-dir", "/tmp/takes", "--attract-after", "30"])
        #expect(c.guest.attractSlideshow && c.guest.attractAfter == 30)
        #expect(try !record(["--output-dir", "/tmp/takes"]).guest.attractSlideshow)
        let file = try record(["--config", "b.conf"],
                              files: ["b.conf": "output-dir = /tmp/takes\nattract-after = 20\nattract-slideshow = yes\n"])
        #expect(file.guest.attractSlideshow)
        #expect(usageError(["--attract-slideshow=maybe"])?.hasPrefix("--attract-slideshow: 'maybe'") == true)
    }
}
