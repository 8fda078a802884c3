// The Devices page's rules by table: the routes before and after sign-in, the test take's CSRF and
// origin checks (audited), the screenshots' pace whatever the number of browsers, and the test
// take's steps over the booth's lines on a virtual clock: refused outside ready, stopped 3 s after
// it started, measured, retaken; kept when a guest used it; no answer in time.
import Foundation
import Testing
@testable import KioskConsole

@Suite("The console's Devices rules")
struct ConsoleDevicesTests {
    @Test("before sign-in: 401 for every Devices request", arguments: [
        ("GET", "/console/api/devices"), ("GET", "/console/api/screen"), ("POST", "/console/api/devices/trial"),
        ("GET", "/console/api/devices/trial/frame"), ("GET", "/console/api/devices/other"), ("PUT", "/console/api/screen"),
    ])
    func signedOut(method: String, path: String) {
        var console = Console()
        #expect(console.status(ConsoleRequest(method: method, path: path, headers: ["host": "10.42.0.1"], peer: "10.42.0.5"), at: 0) == 401)
    }

    @Test("signed in: the reads go to the store; the test take needs the CSRF token and the same origin (403, audited); other methods 405, other names 404")
    func signedIn() {
        var console = Console()
        let (cookie, csrf) = console.signIn(at: 0)
        func request(_ method: String, _ path: String, csrf token: String? = nil, origin: String? = nil) -> ConsoleRequest {
            var headers = ["cookie": cookie, "host": "10.42.0.1"]
            if let token { headers["x-csrf-token"] = token }
            if let origin { headers["origin"] = origin }
            return ConsoleRequest(method: method, path: path, headers: headers, peer: "10.42.0.5")
        }
        #expect(console.decide(request("GET", "/console/api/devices"), at: 1) == .devices(.list))
        #expect(console.decide(request("GET", "/console/api/screen"), at: 1) == .devices(.screen))
        #expect(console.decide(request("GET", "/console/api/devices/trial/frame"), at: 1) == .devices(.frame))
        #expect(console.decide(request("POST", "/console/api/devices/trial", csrf: csrf, origin: "http://10.42.0.1"), at: 1)
                == .devices(.trial(address: "10.42.0.5")))
        for (refused, expected) in [(request("POST", "/console/api/devices/trial"), 403),
                                    (request("POST", "/console/api/devices/trial", csrf: "wrong"), 403),
                                    (request("POST", "/console/api/devices/trial", csrf: csrf, origin: "http://evil.example"), 403)] {
            guard case let .answer(response, audit) = console.decide(refused, at: 1) else {
                Issue.record("not refused")
                continue
            }
            #expect(response.status == expected && audit?.action == "trial" && audit?.result == "refused 403")
        }
        #expect(console.status(request("GET", "/console/api/devices/trial"), at: 1) == 405)
        #expect(console.status(request("POST", "/console/api/screen", csrf: csrf), at: 1) == 405)
        #expect(console.status(request("DELETE", "/console/api/devices", csrf: csrf), at: 1) == 405)
        #expect(console.status(request("GET", "/console/api/devices/..%2f..%2fetc"), at: 1) == 404)
        #expect(console.status(request("GET", "/console/api/devices/cameras"), at: 1) == 404)
        #expect(console.status(request("GET", "/console/devices.js"), at: 1) == 200)
    }

    @Test("screenshots: the first request takes one, requests within half a second reuse it, a later one takes a new one; a clock that went back takes one")
    func screenPace() {
        var shots = ScreenShots()
        #expect(shots.isStale(now: 10))
        shots.took(at: 10)
        // Five browsers asking within the same half second: one screenshot.
        #expect([10.0, 10.1, 10.2, 10.3, 10.49].allSatisfy { !shots.isStale(now: $0) })
        #expect(shots.isStale(now: 10.5))
        #expect(shots.isStale(now: 9))
    }

    /// An answer's body as text.
    func text(_ answer: (ConsoleResponse, result: String)?) -> String { String(decoding: answer?.0.body ?? [], as: UTF8.self) }

    /// The steps' sends and the answer for `lines` heard at their times, the clock advanced to each
    /// `wait`'s end when nothing is heard.
    func run(_ script: [(at: Double, line: String)], until end: Double = 60) -> (sent: [String], measured: [String], outcome: TrialOutcome?) {
        var trial = TrialTake(now: 0)
        var now = 0.0, sent: [String] = [], measured: [String] = []
        var pending = script
        while now <= end {
            switch trial.next(now: now) {
            case let .send(line): sent.append(line)
            case let .measure(path):
                measured.append(path)
                trial.measured()
            case let .done(outcome): return (sent, measured, outcome)
            case let .wait(until):
                if let first = pending.first, first.at <= until {
                    now = max(now, first.at)
                    trial.hear(first.line, now: now)
                    pending.removeFirst()
                } else {
                    now = until
                }
            }
        }
        return (sent, measured, nil)
    }

    @Test("a test take: state, start with no countdown, the level asked while recording, stop 3 s after it started, measured, retake; 200 with the figures and discarded")
    func trialTake() {
        let (sent, measured, outcome) = run([
            (0.01, #"{"event":"state","mode":"ready","timer":"00:00","buttons":["cancel","start"],"orientation":"landscape-right"}"#),
            (0.05, #"{"event":"recordingStarted","outputPath":"/takes/take-0007.mov"}"#),
            (0.06, #"{"event":"state","mode":"recording","microphoneLevel":-30.5}"#),
            (1.2, #"{"event":"state","mode":"recording","microphoneLevel":-12.25}"#),
            (2.0, #"{"event":"hookFinished","path":"/takes/take-0006.mov","status":0,"attempt":1}"#),
            (2.5, #"{"event":"state","mode":"recording","microphoneLevel":-40}"#),
            (3.2, #"{"event":"recordingFinished","outputPath":"/takes/take-0007.mov","duration":3.1,"bytes":1,"reason":"user","success":true}"#),
            (3.3, #"{"event":"state","mode":"finished"}"#),
            (3.4, #"{"event":"state","mode":"ready"}"#),
        ])
        #expect(sent.first == TrialTake.stateLine && sent.dropFirst().first == TrialTake.startLine)
        #expect(sent.filter { $0 == TrialTake.stopLine }.count == 1 && sent.suffix(2) == [TrialTake.retakeLine, TrialTake.stateLine], "\(sent)")
        // The level asked about every 100 ms while recording: some 30 times in 3 s.
        #expect((20...32).contains(sent.filter { $0 == TrialTake.stateLine }.count - 2), "\(sent.count)")
        #expect(measured == ["/takes/take-0007.mov"])
        let result = outcome?.answer(loudness: -23.04, peak: -3.0, frame: true)
        #expect(result?.0.status == 200 && result?.result == "ok")
        let body = text(result)
        #expect(body == #"{"ok":true,"duration":3.1,"success":true,"level":-12.3,"loudness":-23.0,"peak":-3.0,"frame":true,"discarded":true}"#, "\(body)")
    }

    @Test("not in ready (a guest's take, closed): 409 with the mode, nothing started")
    func notReady() {
        for mode in ["recording", "closed", "finished", "countdown"] {
            let (sent, measured, outcome) = run([(0.01, #"{"event":"state","mode":"\#(mode)"}"#)])
            #expect(sent == [TrialTake.stateLine] && measured.isEmpty)
            let result = outcome?.answer(loudness: nil, peak: nil, frame: false)
            #expect(result?.0.status == 409 && result?.result == "refused notReady")
            #expect(text(result).contains("in \(mode), not ready"))
        }
    }

    @Test("the start refused by the booth: 409 with its message")
    func startRefused() {
        let (sent, _, outcome) = run([(0.01, #"{"event":"state","mode":"ready"}"#),
                                      (0.02, #"{"event":"error","code":"notAllowed","message":"'start' is not allowed now"}"#)])
        #expect(sent == [TrialTake.stateLine, TrialTake.startLine])
        let result = outcome?.answer(loudness: nil, peak: nil, frame: false)
        #expect(result?.0.status == 409 && text(result).contains("'start' is not allowed now"))
    }

    @Test("a guest's Stop and Use Video before the retake: no stop sent, the retake refused or answered in another mode, the take kept", arguments: [
        #"{"event":"error","code":"notAllowed","message":"'retake' is not allowed now"}"#, #"{"event":"state","mode":"sharing"}"#,
    ])
    func guestKeepsIt(answer: String) {
        let (sent, measured, outcome) = run([
            (0.01, #"{"event":"state","mode":"ready"}"#),
            (0.05, #"{"event":"recordingStarted","outputPath":"/takes/a.mov"}"#),
            (1.0, #"{"event":"recordingFinished","outputPath":"/takes/a.mov","duration":0.9,"success":true}"#),
            (1.01, #"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath","outputPath":"/takes/a.mov"}"#),
            (1.02, answer),
        ])
        #expect(!sent.contains(TrialTake.stopLine), "\(sent)")
        #expect(measured == ["/takes/a.mov"])
        let result = outcome?.answer(loudness: nil, peak: nil, frame: true)
        #expect(result?.0.status == 200 && result?.result == "ok kept")
        #expect(text(result).contains(#""level":null,"loudness":null,"peak":null,"frame":true,"discarded":false"#))
    }

    @Test("a guest's Use Video heard before the measuring's end: never retaken")
    func keptBeforeRetake() {
        var trial = TrialTake(now: 0)
        #expect(trial.next(now: 0) == .send(TrialTake.stateLine))
        trial.hear(#"{"event":"state","mode":"ready"}"#, now: 0)
        #expect(trial.next(now: 0) == .send(TrialTake.startLine))
        trial.hear(#"{"event":"recordingStarted","outputPath":"/t/a.mov"}"#, now: 0.1)
        trial.hear(#"{"event":"recordingFinished","outputPath":"/t/a.mov","duration":0.5,"success":true}"#, now: 0.6)
        #expect(trial.next(now: 0.6) == .measure(path: "/t/a.mov"))
        trial.hear(#"{"event":"videoRecorderDidFinishRecordingVideoWithOutputPath","outputPath":"/t/a.mov"}"#, now: 0.7)
        trial.measured()
        guard case let .done(outcome) = trial.next(now: 0.8) else {
            Issue.record("not done")
            return
        }
        #expect(outcome.kept && outcome.measured)
    }

    @Test("no answer: 504 naming the step it waited in; none after the retake: the figures, not said to be discarded")
    func noAnswer() {
        let (_, _, outcome) = run([(0.01, #"{"event":"state","mode":"ready"}"#)])
        let result = outcome?.answer(loudness: nil, peak: nil, frame: false)
        #expect(result?.0.status == 504 && text(result).contains("waiting for the take to start"))
        let (sent, _, late) = run([(0.01, #"{"event":"state","mode":"ready"}"#), (0.05, #"{"event":"recordingStarted","outputPath":"/t/a.mov"}"#),
                                   (3.2, #"{"event":"recordingFinished","outputPath":"/t/a.mov","duration":3.1,"success":true}"#)])
        #expect(sent.suffix(2) == [TrialTake.retakeLine, TrialTake.stateLine])
        let unconfirmed = late?.answer(loudness: nil, peak: nil, frame: true)
        #expect(unconfirmed?.0.status == 200 && unconfirmed?.result == "ok, the retake unconfirmed" && text(unconfirmed).hasSuffix(#""discarded":false}"#))
    }
}
