// A take's name: the templates refused at launch, what a field's '/' or control character becomes,
// and the counter number read back from a name in the folder.
import Testing
@testable import KioskContract

@Suite("TakeName: safe names and templates read backwards")
struct TakeNameTests {
    @Test("templates that can never make a safe name, and why", arguments: [
        ("take-%D-{n}.mov", "%D"), ("take-%x.mov", "%x"), ("take-%Ex.mov", "%Ex"), ("take-%_D.mov", "%_D"),
        ("take-%n{n}.mov", "a newline"), ("take-%t{n}.mov", "a tab"), ("notes.txt\t{n}.mov", "U+0009"), ("a\u{7f}.mov", "U+007F"),
    ])
    func refused(template: String, named: String) {
        let problem = TakeName.templateProblem(template)
        #expect(problem?.contains(named) == true, "\(String(describing: problem))")
    }

    @Test("templates that are fine", arguments: ["take-%Y%m%d-%H%M%S-{n}.mov", "guest-{n}.mp4", "100%%-{n}.mov", "x-%d.%m.%Y.mov", "trail%"])
    func accepted(template: String) {
        #expect(TakeName.templateProblem(template) == nil)
    }

    @Test("a name is safe without '/', control characters, '.' or '..'")
    func safeNames() {
        #expect(TakeName.isSafe("take-1.mov") && TakeName.isSafe("カメラ 1.mov"))
        #expect(!TakeName.isSafe("a/b.mov") && !TakeName.isSafe("a\tb.mov") && !TakeName.isSafe("a\nb") && !TakeName.isSafe("a\u{85}b"))
        #expect(!TakeName.isSafe("") && !TakeName.isSafe(".") && !TakeName.isSafe(".."))
        #expect(TakeName.sanitized("take-12/03/26\t1.mov") == "take-12-03-26-1.mov")
    }

    @Test("the number a name carries by its template (also after a taken name's -k); none for other names", arguments: [
        ("take-%Y%m%d-%H%M%S-{n}.mov", "take-20261203-161335-17.mov", 17),
        ("take-%Y%m%d-%H%M%S-{n}.mov", "take-20261203-161335-17-2.mov", 17),
        ("t{n}.mov", "t3.mov", 3), ("t{n}.mov", "t12-3.mov", 12), ("guest-{n}.mp4", "guest-2.mp4", 2),
        ("t{n}.mov", "t.mov", nil), ("t{n}.mov", "notes.txt", nil), ("t{n}.mov", "t3.mp4", nil), ("take.mov", "take.mov", nil),
        ("%Y-{n}-%H.mov", "2026-9-16.mov", 9),
    ] as [(String, String, Int?)])
    func numbers(template: String, name: String, number: Int?) {
        #expect(TakeName.number(in: name, template: template) == number)
    }
}
