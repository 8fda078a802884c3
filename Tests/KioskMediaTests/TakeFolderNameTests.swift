// A take's name as the folder makes it: a field that makes a '/' or a control character at run time
// (a template that got past the launch check, a locale's date) is replaced, never a path or a line
// break in the list of takes.
import Foundation
@testable import KioskStorage
import Testing
import KioskCore
import KioskContract
@testable import KioskMedia

@Suite("TakeFolder: the names it makes")
struct TakeFolderNameTests {
    static let date = Date(timeIntervalSince1970: 1_796_300_000)

    @Test("what strftime makes of a '/' or a control character is replaced by '-'; the rest kept as made", arguments: [
        ("take-%D-{n}.mov", "/"), ("take-%n{n}.mov", "\n"), ("take-%t{n}.mov", "\t"), ("take-%x.mov", "/"),
    ])
    func replaced(template: String, made: String) {
        let name = TakeFolder.name(template: template, number: 7, at: Self.date)
        #expect(TakeName.isSafe(name) && !name.contains(made), "\(name)")
        #expect(name.hasPrefix("take-") && name.hasSuffix(".mov"), "\(name)")
    }

    @Test("a safe template's name is as strftime and {n} make it")
    func kept() {
        var seconds = time_t(Self.date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&seconds, &parts)
        let year = Int(parts.tm_year) + 1900
        #expect(TakeFolder.name(template: "guest-%Y-{n}.mp4", number: 12, at: Self.date) == "guest-\(year)-12.mp4")
    }
}
