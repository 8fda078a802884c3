// The path arithmetic and local-time stamps that replaced NSString's and DateFormatter's (full
// Foundation is not linked into the booth): the same answers as Foundation gives, asked here.
import Foundation
import Testing
@testable import KioskSystem

@Suite("PathText and LocalTime: Foundation's answers without Foundation")
struct PathTextTests {
    @Test("the folder and the name of a path with a '/', as NSString says them",
          arguments: ["/a/b", "a/b/", "/b", "a//b", "/srv/booth/take.mov", "./take.mov", "a/b//", "//x"])
    func folderAndName(path: String) {
        #expect(PathText.folder(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        #expect(PathText.name(of: path) == (path as NSString).lastPathComponent, "\(path)")
    }

    /// Foundation 6.3 on Linux traps on these (String._startOfLastPathComponent): a bare name such
    /// as `--output take.mov`, or "/". What NSString's documentation gives for them.
    @Test("a bare name, '.', '/' and '': the documented answers, where Foundation here traps")
    func bareNames() {
        for (path, folder, name) in [("b", "", "b"), (".", "", "."), ("/", "/", "/"), ("", "", ""), ("take.mov", "", "take.mov")] {
            #expect(PathText.folder(of: path) == folder, "\(path)")
            #expect(PathText.name(of: path) == name, "\(path)")
        }
    }

    @Test("a name joined to a folder, as NSString joins it", arguments: ["/tmp", "/tmp/", "a", "/"])
    func joining(folder: String) {
        #expect(PathText.joining(folder, "x.probe") == (folder as NSString).appendingPathComponent("x.probe"))
    }

    @Test("the temporary folder is NSTemporaryDirectory's")
    func temporaryFolder() {
        #expect(PathText.temporaryFolder == NSTemporaryDirectory())
    }

    @Test("a local-time stamp is DateFormatter's, to the second")
    func stamp() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        for date in [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_796_000_123.9), Date()] {
            #expect(LocalTime.stamp("%Y%m%d-%H%M%S", at: date) == formatter.string(from: date))
        }
    }
}
