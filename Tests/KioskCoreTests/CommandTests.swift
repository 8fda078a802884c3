// The JSON contract on stdin: the commands in (the events out are KioskContractTests' ContractTests).
import Testing
@testable import KioskCore
import KioskContract

@Suite("Commands")
struct CommandTests {
    @Test("every command of the contract parses", arguments: [
        (#"{"command":"start"}"#, Command.press(.start)), (#"{"command":"stop"}"#, .press(.stop)),
        (#"{"command":"cancel"}"#, .press(.cancel)), (#"{"command":"retake"}"#, .press(.retake)),
        (#"{"command":"useVideo"}"#, .press(.useVideo)), (#"{"command":"playVideo"}"#, .press(.playVideo)),
        (#"{"command":"closePlayer"}"#, .press(.closePlayer)),
        (#"{"command":"rotate","orientation":"portrait"}"#, .rotate(.portrait)),
        (#"{"command":"background"}"#, .background), (#"{"command":"foreground"}"#, .foreground),
        (#"{"command":"tap","x":12.5,"y":300}"#, .tap(Point(x: 12.5, y: 300))),
        (#"{"command":"focus","x":40,"y":30}"#, .focus(Point(x: 40, y: 30))),
        (#"{"command":"screenshot","path":"/tmp/s.bmp"}"#, .screenshot(path: "/tmp/s.bmp")),
        (#"{"command":"state"}"#, .state), (#"  {"command":"quit", "extra": 1}  "#, .quit),
        (#"{"command":"closeBooth"}"#, .closeBooth), (#"{"command":"openBooth"}"#, .openBooth),
        (#"{"command":"calibrate"}"#, .calibrate),
        (#"{"command":"hideTake","path":"/t/a.mov"}"#, .take(.hide(path: "/t/a.mov"))),
        (#"{"command":"showTake","path":"/t/a.mov","reason":"guest"}"#, .take(.show(path: "/t/a.mov"))),
        (#"{"command":"deleteTake","path":"/t/a.mov","reason":"operator"}"#, .take(.delete(path: "/t/a.mov", reason: .operator))),
        (#"{"command":"deleteTake","path":"/t/a.mov","reason":"guest"}"#, .take(.delete(path: "/t/a.mov", reason: .guest))),
        (#"{"command":"deleteTake","token":"T","reason":"guest"}"#, .take(.deleteShared(token: "T", reason: .guest))),
        (#"{"command":"deleteTake","token":"../x"}"#, .take(.deleteShared(token: "../x", reason: .guest))),
        (#"{"command":"deleteTake","token":"T","reason":"operator"}"#, .take(.deleteShared(token: "T", reason: .operator))),
    ])
    func commands(line: String, command: Command) throws {
        #expect(try CommandParser().parse(line: line).get() == command)
    }

    @Test("bad lines give an error with a code and change nothing", arguments: [
        ("", ErrorCode.badCommand), ("start", .badCommand), ("[1,2]", .badCommand), (#"{"cmd":"start"}"#, .badCommand),
        (#"{"command":5}"#, .badCommand), (#"{"command":"explode"}"#, .unknownCommand),
        (#"{"command":"rotate"}"#, .badCommand), (#"{"command":"rotate","orientation":"sideways"}"#, .badCommand),
        (#"{"command":"tap","x":1}"#, .badCommand), (#"{"command":"focus","y":1}"#, .badCommand), (#"{"command":"screenshot"}"#, .badCommand),
        (#"{"command":"start""#, .badCommand),
        (#"{"command":"hideTake"}"#, .badCommand), (#"{"command":"showTake","path":""}"#, .badCommand),
        (#"{"command":"deleteTake","path":"/t/a.mov"}"#, .badCommand), (#"{"command":"deleteTake","path":"/t/a.mov","reason":"maxTakes"}"#, .badCommand),
        (#"{"command":"deleteTake","path":"/t/a.mov","reason":"bored"}"#, .badCommand),
        (#"{"command":"deleteTake","token":"T","reason":"maxAge"}"#, .badCommand), (#"{"command":"deleteTake","token":"T","path":"/t/a.mov"}"#, .badCommand),
    ])
    func badLines(line: String, code: ErrorCode) {
        switch CommandParser().parse(line: line) {
        case .success(let c): Issue.record("parsed \(line) as \(c)")
        case .failure(let e):
            #expect(e.code == code)
            #expect(!e.message.isEmpty)
            #expect(EventEncoder().line(for: e.event).hasPrefix(#"{"event":"error","code":"\#(code.rawValue)""#))
        }
    }

    @Test("NaN and Infinity are named as what they are; the words inside a string are no number", arguments: [
        (#"{"command":"seek","position":NaN}"#, "NaN is no number in JSON"), (#"{"command":"tap","x":Infinity,"y":1}"#, "Infinity is no number"),
        (#"{"command":"trim","start":-Infinity,"end":2}"#, "-Infinity is no number"),
        (#"{"command":"NaN" ,"x":}"#, "not a JSON object"), (#"{"command":"tap","note":"Infinity\"NaN","x":}"#, "not a JSON object"),
    ])
    func nonFinite(line: String, message: String) {
        guard case let .failure(e) = CommandParser().parse(line: line) else { Issue.record("parsed \(line)"); return }
        #expect(e.code == .badCommand && e.message.hasPrefix(message), "\(e.message)")
    }

    @Test("a key given twice at the top level is a bad command, whichever key and however it is spelt; the same key in a nested object, or in a string, is not", arguments: [
        (#"{"command":"quit","command":"state"}"#, "command"), (#"{"command":"seek","position":1,"position":900}"#, "position"),
        (#"{"command":"state","comm\u0061nd":"quit"}"#, "command"), (#"{ "x" : 1 , "command" : "tap" , "y" : 2 , "x" : 3 }"#, "x"),
        (#"{"command":"tap","x":1,"y":2,"note":{"x":1,"x":2}}"#, nil), (#"{"command":"screenshot","path":"\",\"command\":\"quit"}"#, nil),
        (#"{"command":"tap","x":1,"y":2,"list":[{"y":1},{"y":2}]}"#, nil),
    ] as [(String, String?)])
    func repeatedKey(line: String, key: String?) {
        let result = CommandParser().parse(line: line)
        if let key {
            guard case let .failure(e) = result else { Issue.record("parsed \(line)"); return }
            #expect(e.code == .badCommand && e.message.hasPrefix("\"\(key)\" is given twice"), "\(e.message)")
        } else {
            guard case .success = result else { Issue.record("refused \(line): \(result)"); return }
        }
    }
}
