// Hostile input through the binary (issue 41): numbers JSON does not have, named as what they are.
import Foundation
import Testing
import KioskCore
import KioskTestSupport

@Suite("hostile input through the binary")
struct HostileInputEndToEndTests {
    @Test("NaN and Infinity in a command: a badCommand naming them, nothing changed, the booth answers")
    func nonFiniteNumbers() throws {
        let r = try RecorderProcess(booth + ["--output", try testFolder("hostile-nan").appendingPathComponent("take.mov").path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        r.send(#"{"command":"tap","x":NaN,"y":10}"#)
        r.send(#"{"command":"seek","position":Infinity}"#)
        r.command("state")
        try #require(r.wait(for: "state") != nil)
        let errors = r.events.compactMap { if case let .error(code, message) = $0 { (code, message) } else { nil } }
        #expect(errors.map(\.0) == [.badCommand, .badCommand], "\(r.rawLines)")
        #expect(errors.first?.1.hasPrefix("NaN is no number in JSON") == true && errors.last?.1.hasPrefix("Infinity is no number") == true,
                "\(errors)")
        #expect(r.events.last?.withoutMicrophoneLevel == .state(mode: "ready", timer: "00:00", buttons: [.cancel, .start], orientation: .landscapeRight))
        r.command("quit")
        #expect(r.exitStatus() == 0)
    }
}
