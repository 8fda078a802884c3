// `--send COMMAND` and `--control-socket PATH` on the command line, the line --send puts on the
// socket, and its answer rule: every command against the events that do and do not end the wait.
import Testing
@testable import KioskCore
@testable import KioskOptions

@Suite("--send and --control-socket")
struct SendRequestTests {
    @Test("a name becomes a JSON command line; a JSON line is sent as it is, on one line")
    func lines() throws {
        #expect(try SendRequest("state").lines == [#"{"command":"state"}"#])
        #expect(try SendRequest(" start ").command == .press(.start))
        let rotate = try SendRequest(#"{"command":"rotate","orientation":"portrait"}"#)
        #expect(rotate.command == .rotate(.portrait))
        #expect(rotate.lines == [#"{"command":"rotate","orientation":"portrait"}"#, #"{"command":"state"}"#])
        let folded = try SendRequest("{\"command\":\"tap\",\n\"x\":10,\r\n\"y\":20}")
        #expect(folded.command == .tap(Point(x: 10, y: 20)))
        #expect(!folded.lines[0].contains("\n") && !folded.lines[0].contains("\r"))
    }

    @Test("a command the booth would refuse is a usage error here", arguments: [
        ("fly", "--send: unknown command 'fly'"), ("rotate", "--send: rotate needs \"orientation\""),
        ("", "--send: '' is neither"), ("start now", "--send: 'start now' is neither"),
        (#"{"command":"#, "--send: not a JSON object"), (#"{"x":1}"#, "--send: missing \"command\""),
    ])
    func refused(argument: String, prefix: String) {
        #expect {
            _ = try SendRequest(argument)
        } throws: { error in
            (error as? UsageError)?.message.hasPrefix(prefix) == true
        }
    }

    /// Event lines as the booth sends them.
    static let lines: [String: String] = [
        "state": #"{"event":"state","mode":"ready","timer":"00:00","buttons":["cancel","start"],"orientation":"portrait"}"#,
        "recordingStarted": #"{"event":"recordingStarted","outputPath":"/tmp/a.mov"}"#,
        "recordingFinished": #"{"event":"recordingFinished","outputPath":"/tmp/a.mov","duration":1,"bytes":2,"reason":"user","success":true,"droppedFrames":0}"#,
        "videoRecorderDidCancelRecordingVideo": #"{"event":"videoRecorderDidCancelRecordingVideo"}"#,
        "videoRecorderDidFinishRecordingVideoWithOutputPath": #"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath","outputPath":"/tmp/a.mov"}"#,
        "playbackStarted": #"{"event":"playbackStarted","path":"/tmp/a.mov"}"#,
        "playbackFinished": #"{"event":"playbackFinished","reason":"closed"}"#,
        "orientationChanged": #"{"event":"orientationChanged","orientation":"portrait"}"#,
        "cameraUnavailable": #"{"event":"error","code":"cameraUnavailable","message":"gone"}"#,
        "notAllowed": #"{"event":"error","code":"notAllowed","message":"no"}"#,
        "recordingFailed": #"{"event":"error","code":"recordingFailed","message":"no"}"#,
        "reloaded": #"{"event":"reloaded","changed":["countdown"],"kept":[]}"#,
        "badConfig": #"{"event":"error","code":"badConfig","message":"no"}"#,
        "future": #"{"event":"somethingNew","detail":1}"#,
        "garbage": "not json",
    ]

    /// A command line for every name the socket takes (those with operands given one).
    static let everyCommand: [String: String] = [
        "rotate": #"{"command":"rotate","orientation":"portrait"}"#, "tap": #"{"command":"tap","x":1,"y":2}"#,
        "focus": #"{"command":"focus","x":1,"y":2}"#, "screenshot": #"{"command":"screenshot","path":"/tmp/s.bmp"}"#,
        "seek": #"{"command":"seek","position":1}"#, "pause": #"{"command":"pause","paused":true}"#,
        "trim": #"{"command":"trim","start":0,"end":1}"#, "pick": #"{"command":"pick","path":"/tmp/a.mov"}"#,
        "hideTake": #"{"command":"hideTake","path":"/tmp/a.mov"}"#, "showTake": #"{"command":"showTake","path":"/tmp/a.mov"}"#,
        "deleteTake": #"{"command":"deleteTake","path":"/tmp/a.mov","reason":"operator"}"#,
        "consentChoice": #"{"command":"consentChoice","choice":"film","on":true}"#,
    ]

    @Test("every command the socket takes has an answer rule: the state reply to the query sent after it (quit, and the end of a once session: the connection's end; reload: reloaded); a refusal or failure ends the wait as not carried out (reload: badConfig too)")
    func answers() throws {
        #expect(Command.names.count == Set(Command.names).count)
        for name in Command.names {
            let request = try SendRequest(Self.everyCommand[name] ?? name)
            let closing = name == "quit", reload = name == "reload"
            let ending = ["cancel", "useVideo", "done"].contains(name)
            #expect(request.answer == (closing ? .connectionClosed : ending ? .stateReplyOrExit : reload ? .reloaded : .stateReply), "\(name)")
            // The query after it, but for `state` (its own) and `quit` (nothing comes back).
            #expect(request.lines == (name == "state" || closing ? [request.lines[0]] : [request.lines[0], #"{"command":"state"}"#]), "\(name)")
            for (event, line) in Self.lines {
                let expected: SendRequest.Reply = switch event {
                case "state" where !closing && !reload: .answered
                case "reloaded" where reload: .answered
                case "badConfig" where reload: .refused(code: event, message: "no")
                case "notAllowed", "recordingFailed": .refused(code: event, message: "no")
                default: .passed
                }
                #expect(request.reply(to: line) == expected, "\(name) ← \(event)")
            }
        }
    }

    /// docs/interface.md's table of answers: the commands its rows name in their first cell.
    static func documentedCommands() -> Set<String> {
        let interface = ConfigurationReloadTests.interface
        guard let table = interface.range(of: "| command | in | answered by |") else { return [] }
        var names: Set<String> = []
        for line in interface[table.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let first = OptionDocs.cells(String(line)).first ?? ""
            names.formUnion(first.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) })
        }
        return names
    }

    @Test("docs/interface.md's table of answers has a row for every command the socket takes, and no other")
    func documented() {
        #expect(Self.documentedCommands() == Set(Command.names))
    }

    @Test("--send takes the socket from the flag or the config file, needs one, and is a mode of its own")
    func parsing() throws {
        #expect(try parser().parse(["--send", "state", "--control-socket", "/run/kiosk/booth.sock"])
                == .send(try SendRequest("state"), socket: "/run/kiosk/booth.sock"))
        let files = ["/etc/kiosk.conf": "control-socket = /run/kiosk/booth.sock\ncamera = test\n"]
        #expect(try parser(files: files).parse(["--config", "/etc/kiosk.conf", "--send", "stop"])
                == .send(try SendRequest("stop"), socket: "/run/kiosk/booth.sock"))
        #expect(usageError(["--send", "state"])?.hasPrefix("--send needs --control-socket PATH") == true)
        #expect(usageError(["--send", "fly", "--control-socket", "/tmp/s"])?.hasPrefix("--send: unknown command 'fly'") == true)
        #expect(usageError(["--send", "state", "--play", "a.mov", "--control-socket", "/tmp/s"]) == "--play and --send cannot be used together")
        #expect(usageError(["--list-cameras", "--send", "state"]) == "--list-cameras and --send cannot be used together")
        #expect(usageError(["--config", "/etc/kiosk.conf"], files: ["/etc/kiosk.conf": "send = state\n"])
                == "/etc/kiosk.conf:1: 'send' is a command-line option only, not a config key")
        #expect(OptionParser.helpText.contains("--send COMMAND"))
    }

    @Test("--control-socket: a path a socket address can hold")
    func socketPath() throws {
        #expect(try record(["--control-socket", "/run/kiosk-recorder/control"]).service.controlSocket == "/run/kiosk-recorder/control")
        let long = "/tmp/" + String(repeating: "s", count: 102)
        #expect(try record(["--control-socket", long]).service.controlSocket == long)
        #expect(usageError(["--control-socket", long + "s"]) == "--control-socket: '\(long)s' is 108 bytes long; a Unix socket's path may have at most 107")
        #expect(usageError(["--control-socket", "/tmp/"])?.hasPrefix("--control-socket: '/tmp/' is not a file path") == true)
    }
}
