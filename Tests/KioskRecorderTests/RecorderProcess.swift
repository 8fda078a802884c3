// Test helper: the real kiosk-recorder as a child process, driven over stdin, read on stdout.
import Foundation
import KioskContract
import Synchronization
import Testing
import KioskCore
import KioskScreenText
import KioskSystem
import KioskTestSupport

/// A running kiosk-recorder with the SDL dummy drivers.
final class RecorderProcess: Sendable {
    /// Started by the one launcher, as systemd starts the booth (an empty signal mask, default
    /// dispositions, a process group of its own), or from a parent that blocked and ignored the
    /// booth's signals (`parent`).
    let process: ChildProcess
    private let input: FileHandle
    /// Our end of its stdout.
    private let output: FileHandle
    /// Every stdout line with the monotonic time it arrived and its event, decoded once as it came
    /// (a wait that asks `state` 20 times a second through a 40 s take reads them all each time).
    private let lines = Locked<[(line: String, at: Double, event: KioskEvent?)]>([])
    /// Signalled on every stdout line, on what comes on stderr, at the end of stdout and when reading resumes: the waits
    /// below wait on it (a deadline is their failure limit), they never pass time of their own.
    private let changed = NSCondition()
    private let stderrText = Locked("")
    private let closed = DispatchSemaphore(value: 0)
    /// Signalled when stderr reaches its end: what the process (or /usr/bin/time around it) wrote
    /// last is in `stderr` once `exitStatus` returns.
    private let stderrClosed = DispatchSemaphore(value: 0)
    /// While set, stdout is not read: the pipe fills as behind a parent that stopped reading.
    private let readingPaused = Atomic<Bool>(false)

    /// `executable` another program than the recorder (a parent example that runs it): its stdout
    /// lines may then carry each event after an "event: " prefix. It runs in `directory`.
    init(_ arguments: [String], environment extra: [String: String] = [:], executable: String = recorderPath,
         directory: URL = repositoryRoot, parent: ParentSignals = .standard) throws {
        let stdin = try ChildPipe(), stdout = try ChildPipe(), stderr = try ChildPipe()
        process = try ChildProcess([executable] + arguments, environment: recorderEnvironment(extra), directory: directory,
                                   stdin: .descriptor(stdin.read.fileDescriptor), stdout: .descriptor(stdout.write.fileDescriptor),
                                   stderr: .descriptor(stderr.write.fileDescriptor), parent: parent)
        // The child has its own copies: the reads end when it does.
        try stdin.read.close()
        try stdout.write.close()
        try stderr.write.close()
        input = stdin.write
        output = stdout.read
        let out = stdout.read, err = stderr.read
        Thread { [self] in
            var buffer = Data()
            while true {
                changed.lock()
                while readingPaused.load(ordering: .relaxed) { changed.wait() }
                changed.unlock()
                let chunk = out.availableData
                if chunk.isEmpty { break }
                buffer += chunk
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer = Data(buffer[(newline + 1)...])
                    let event = Self.event(line)
                    lines.withLock { $0.append((line, ProcessInfo.processInfo.systemUptime, event)) }
                    announce()
                }
            }
            closed.signal()
            announce()
        }.start()
        Thread { [self] in
            while true {
                let chunk = err.availableData
                if chunk.isEmpty { break }
                stderrText.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
                announce()
            }
            stderrClosed.signal()
            announce()
        }.start()
    }

    /// Stops reading stdout (after the chunk being read now) until `resumeReading`.
    func pauseReading() { readingPaused.store(true, ordering: .relaxed) }
    func resumeReading() {
        changed.lock()
        readingPaused.store(false, ordering: .relaxed)
        changed.broadcast()
        changed.unlock()
    }

    /// Wakes the waits: under the condition's lock, so a wait between its look and its sleep
    /// cannot miss it.
    private func announce() {
        changed.lock()
        changed.broadcast()
        changed.unlock()
    }

    /// Waits until `done` (asked again whenever the recorder has said more, on stdout or stderr)
    /// holds; false at the deadline.
    func waitForOutput(timeout: Double, _ done: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        changed.lock()
        defer { changed.unlock() }
        while !done() {
            if !changed.wait(until: deadline) { return done() }
        }
        return true
    }

    /// The bytes it wrote to stdout that wait in the pipe, unread (FIONREAD).
    var unreadStdout: Int {
        var count: CInt = 0
        return ioctl(output.fileDescriptor, UInt(FIONREAD), &count) == 0 ? Int(count) : -1
    }

    var stderr: String { stderrText.withLock { $0 } }
    var rawLines: [String] { lines.withLock { $0.map(\.line) } }
    var events: [KioskEvent] { lines.withLock { $0.compactMap(\.event) } }
    /// Every event with the monotonic time its line arrived.
    var timedEvents: [(event: KioskEvent, at: Double)] {
        lines.withLock { $0.compactMap { line in line.event.map { ($0, line.at) } } }
    }

    /// The event on a stdout line, bare or after "event: ".
    static func event(_ line: String) -> KioskEvent? {
        try? EventEncoder().decode(line: line.hasPrefix("event: ") ? String(line.dropFirst(7)) : line)
    }
    var names: [String] { lines.withLock { $0.compactMap(\.event?.name) } }

    /// How many `name` events have come.
    func count(of name: String) -> Int { lines.withLock { $0.reduce(0) { $1.event?.name == name ? $0 + 1 : $0 } } }

    /// Writes a command line to its stdin. A recorder that died has closed it: the write fails
    /// (EPIPE, SIGPIPE being ignored by the launcher's process) and the test goes on to fail on
    /// what it expects, instead of the whole test run dying of SIGPIPE.
    func send(_ json: String) {
        try? input.write(contentsOf: Data((json + "\n").utf8))
    }

    func command(_ name: String) { send(#"{"command":"\#(name)"}"#) }

    /// Waits until an event with this name has arrived (`count` of them); returns its arrival time.
    @discardableResult
    func wait(for name: String, count: Int = 1, timeout: Double = 20) -> Double? {
        var found: Double?
        var looked = 0, seen: [Double] = []
        _ = waitForOutput(timeout: timeout) {
            // Each line looked at once, however many arrive while waiting.
            let fresh = lines.withLock { Array($0[looked...]) }
            looked += fresh.count
            seen += fresh.filter { $0.event?.name == name }.map(\.at)
            found = seen.count >= count ? seen[count - 1] : nil
            return found != nil
        }
        return found
    }

    /// Asks `state` once and waits for the reply to it (the polling waits below leave theirs among
    /// `events` too, so the count is taken now); nil on timeout.
    func stateReply(timeout: Double = 20) -> KioskEvent? {
        let replies = count(of: "state")
        command("state")
        guard wait(for: "state", count: replies + 1, timeout: timeout) != nil else { return nil }
        return events.last { $0.name == "state" }
    }

    /// Asks `state` every 50 ms (the timer moves once a second: plenty, and it leaves the booth be)
    /// until `judge` says yes (true) or no (false) to a reply; nil from `judge`: ask again. False on
    /// timeout, or when the recorder stops answering. Its `state` replies stay among `events`.
    /// `pace`: how long until the next question instead (a long wait asks less often while far off).
    func askState(timeout: Double, pace: () -> Double = { 0.05 }, _ judge: (_ reply: KioskEvent) -> Bool?) -> Bool {
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        var asked = false
        while ProcessInfo.processInfo.systemUptime < deadline {
            // The next question after the booth's next line or 50 ms, whichever comes first.
            if asked {
                let before = lines.withLock(\.count)
                _ = waitForOutput(timeout: pace()) { lines.withLock(\.count) > before }
            }
            asked = true
            let replies = count(of: "state")
            command("state")
            guard wait(for: "state", count: replies + 1, timeout: max(deadline - ProcessInfo.processInfo.systemUptime, 0.1)) != nil,
                  let reply = events.last(where: { $0.name == "state" })?.unasked else { return false }
            if let verdict = judge(reply) { return verdict }
        }
        return false
    }

    /// Start, a second recorded (as the booth measures it), Stop, Use Video: the `count`-th take so
    /// made, handed over (the test then waits for what the hand-over brings).
    func recordASecondAndUse(count: Int = 1) throws {
        command("start")
        try #require(wait(for: "recordingStarted", count: count) != nil, "\(stderr)")
        try #require(waitRecorded(1), "\(rawLines)")
        command("stop")
        try #require(wait(for: "recordingFinished", count: count) != nil)
        command("useVideo")
    }

    /// After a start the booth carries out by itself (a guest's Agree, a tap): the take's first
    /// second, Stop, Use Video, and its hand-over (the `count`th of each).
    func recordedASecondAndUsed(count: Int = 1) throws {
        try #require(wait(for: "recordingStarted", count: count) != nil, "\(names) \(stderr)")
        try #require(waitRecorded(1), "\(rawLines)")
        command("stop")
        try #require(wait(for: "recordingFinished", count: count) != nil)
        command("useVideo")
        try #require(wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: count) != nil, "\(names) \(stderr)")
    }

    /// Asks `state` until a reply says the booth is recording and its timer shows at least `seconds`
    /// (rounded up to whole seconds): a take that long as the booth measures it, however slow the
    /// machine. Near a limit (`--warn-remaining`) the timer counts down what is left instead: then
    /// until `remaining` has fallen by that much since the first reply (at least as long).
    func waitRecorded(_ seconds: Double, timeout: Double = 30) -> Bool {
        let wanted = Int(seconds.rounded(.up))
        var firstRemaining: Double?
        // Twice a second while two or more seconds are to go (a 40 s take beside a real-time
        // encoder), then every 50 ms.
        var toGo = Double(wanted)
        return askState(timeout: timeout, pace: { toGo >= 2 ? 0.5 : 0.05 }) { reply in
            guard case let .state(mode, timer, _, _, remaining, _, _, _, _, _, _) = reply else { return false }
            guard mode == "recording" else { return mode == "countdown" ? nil : false }
            if let remaining {
                firstRemaining = firstRemaining ?? remaining
                // The timer may show what is left (rounded up): elapsed is not in it.
                if TimerText.format(seconds: remaining.rounded(.up)) == timer, let first = firstRemaining {
                    toGo = Double(wanted) - (first - remaining)
                    return toGo <= 0 ? true : nil
                }
            }
            let shown = Self.seconds(timer) ?? 0
            toGo = Double(wanted - shown)
            return shown >= wanted ? true : nil
        }
    }

    /// Asks `state` until a reply says the booth is recording and its writer's clock has moved on
    /// by `seconds` at least (`remaining` fell that much from the first reply's; by anything for
    /// 0): the take has that much picture, to a frame, on any machine.
    func waitForPictures(_ seconds: Double = 0, timeout: Double = 30) -> Bool {
        var first: Double?
        return askState(timeout: timeout) { reply in
            guard case let .state(mode, _, _, _, remaining, _, _, _, _, _, _) = reply else { return false }
            guard mode == "recording" else { return mode == "countdown" ? nil : false }
            guard let remaining else { return nil }
            first = first ?? remaining
            return first.map { remaining < $0 && $0 - remaining >= seconds - 0.001 } == true ? true : nil
        }
    }

    /// A `state` timer's whole seconds ("MM:SS", or "H:MM:SS"; the player's position in
    /// "MM:SS / MM:SS").
    static func seconds(_ timer: String) -> Int? {
        let parts = (timer.split(separator: " ").first ?? "").split(separator: ":").map { Int($0) }
        guard !parts.isEmpty, !parts.contains(nil) else { return nil }
        return parts.reduce(0) { $0 * 60 + $1! }
    }

    /// Whether the recorder has said `text` on stderr, waited for up to `timeout`: a log line the booth
    /// writes beside an event reaches the test on its own clock (stdout and stderr are two pipes, and
    /// the booth's stderr has a writer thread of its own), so the event can come first. Once the
    /// process has ended, its stderr is whole and the answer is at once.
    func said(_ text: String, timeout: Double = 10) -> Bool {
        waitForOutput(timeout: timeout) { stderr.contains(text) }
    }

    /// The first stderr line holding `text`, waited for as `said` waits; nil when it never came.
    func line(saying text: String, timeout: Double = 10) -> Substring? {
        _ = said(text, timeout: timeout)
        return stderr.split(separator: "\n").first { $0.contains(text) }
    }

    /// Waits for the process to end; its exit status, or nil on timeout.
    func exitStatus(timeout: Double = 20) -> Int32? {
        guard process.wait(within: timeout) else { return nil }
        _ = closed.wait(timeout: .now() + 2)
        // (A child that keeps stderr, a hook still running, holds it open: then not for ever.)
        _ = stderrClosed.wait(timeout: .now() + 5)
        return process.terminationStatus
    }

    func kill(_ signal: Int32) { process.signal(signal) }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// The booth (test camera and tone) recording into a fresh folder `name`: started, `ready`, Start,
/// `recordingStarted`. The process, the take's path and when `recordingStarted` arrived.
func recordingBooth(_ name: String, arguments: [String] = [], environment: [String: String] = [:]) throws
    -> (r: RecorderProcess, output: String, started: Double) {
    let output = try testFolder(name).appendingPathComponent("take.mov").path
    let r = try RecorderProcess(booth + arguments + ["--output", output], environment: environment)
    try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
    r.command("start")
    return (r, output, try #require(r.wait(for: "recordingStarted")))
}

/// The test-only LD_PRELOAD shim that fails or slows syscalls on demand (Tests/FailingSyscalls),
/// built beside the tests (the recorder under test may be the release build, which has no shim).
let failingSyscallsShim = TestEnvironment.buildFolder.appendingPathComponent("libKioskFailingSyscalls.so").path

/// Only under Tests/FakeV4L2Camera/with-fake-camera (kiosk/test): the fake camera's plugin and a
/// private mount namespace.
let needsFakeCamera: ConditionTrait = .enabled(if: ProcessInfo.processInfo.environment["KIOSK_FAKE_CAMERA"] == "1",
                                               "needs the fake camera (kiosk/test's private mount namespace)")

/// A fake V4L2 camera (Tests/FakeV4L2Camera, under with-fake-camera) in `folder`, answering as
/// `conf` says (its `<device>.conf` lines); the device's path.
func fakeCamera(in folder: URL, _ conf: String) throws -> String {
    let device = folder.appendingPathComponent("video0").path
    try Data().write(to: URL(fileURLWithPath: device))
    try conf.write(toFile: device + ".conf", atomically: true, encoding: .utf8)
    return device
}

/// A fake camera (under with-fake-camera) in `folder` whose every picture is one `colour` (an
/// ffmpeg colour name) at 640x480: one MJPEG picture served again and again (`clip=`), so that on
/// screen only what the booth draws over the picture stands out from it.
func solidCamera(in folder: URL, colour: String, card: String) throws -> String {
    let clip = folder.appendingPathComponent("\(colour).mjpeg").path
    let made = try runProgram(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "color=\(colour):size=640x480", "-frames:v", "1",
                               "-pix_fmt", "yuvj422p", "-f", "mjpeg", clip], stdout: .discard)
    try #require(made.status == 0, "\(made.stderr)")
    return try fakeCamera(in: folder, "card=\(card)\nformat=MJPG 640x480@30\nclip=\(clip)\n")
}

/// A fresh folder for one test's files.
func testFolder(_ name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-e2e-\(name)-\(getpid())")
    try? FileManager.default.removeItem(at: url)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// ffprobe's answer for one entry, e.g. ("format=duration").
func ffprobe(_ path: String, _ entries: String, stream: String? = nil) throws -> String {
    try runProgram(["ffprobe", "-v", "error"] + (stream.map { ["-select_streams", $0] } ?? []) +
                   ["-show_entries", entries, "-of", "default=nw=1:nk=1", path], stderr: .discard)
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
}

extension RecordingResult {
    /// How far a take's length may be from the length it was stopped at: a picture at 30 fps; three
    /// where the booth stepped the take down on a loaded machine (skippedFrames), as a stepped take
    /// ends at its last kept picture (ci38: every 3rd picture kept).
    var lengthTolerance: Double { (skippedFrames > 0 ? 3.0 : 1.0) / 30 + 0.001 }
}

/// The pictures ffprobe counts in the file's video stream by decoding it (nil when it reads none).
func pictureCount(_ path: String) throws -> Int? {
    Int(try runProgram(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                        "stream=nb_read_frames", "-of", "csv=p=0", path], stderr: .discard)
        .stdout.trimmingCharacters(in: .whitespacesAndNewlines))
}

/// The peak resident memory of a running process (VmHWM), in KiB.
func peakMemory(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
}

/// Whether ffmpeg decodes the whole file without an error.
func decodesCleanly(_ path: String) throws -> Bool {
    // The take's own times kept (as ExecCameraEndToEndTests.decodesCleanly does): on the null
    // output's 1/30 s time base the CLI calls two pictures in one tick "non monotonically
    // increasing", which is about its grid, not the file (seen twice under a CPU hog in the README's
    // parent example; its decoding errors are what this judges).
    let r = try runProgram(["ffmpeg", "-v", "error", "-i", path, "-fps_mode", "passthrough", "-enc_time_base", "-1", "-f", "null", "-"],
                           stdout: .discard)
    // What ffmpeg said goes to the test's output, so a failed expectation shows why.
    if r.status != 0 || !r.stderr.isEmpty { print("decodesCleanly: ffmpeg on \(path) exited \(r.status): \(r.stderr.prefix(2000))") }
    return r.status == 0 && r.stderr.isEmpty
}

extension RecorderProcess {
    /// Asks `state` until a reply satisfies `condition` (mode, buttons): what the booth shows as it
    /// sees it, rather than a log line another part may print first. False on timeout.
    func waitForState(timeout: Double = 20, _ condition: (_ mode: String, _ buttons: [Button]) -> Bool) -> Bool {
        askState(timeout: timeout) { reply in
            guard case let .state(mode, _, buttons, _, _, _, _, _, _, _, _) = reply else { return false }
            return condition(mode, buttons) ? true : nil
        }
    }
}

extension RecorderProcess {
    /// Asks `state` until a reply is `expected` (its microphone level left out): the booth has come
    /// to it, however slow the machine. False on timeout.
    func waitForState(_ expected: KioskEvent, timeout: Double = 20) -> Bool {
        askState(timeout: timeout) { $0.withoutMicrophoneLevel == expected ? true : nil }
    }
}

extension KioskEvent {
    /// The event with a `state`'s microphone level left out: it moves with the test tone, so tests
    /// that compare whole state events compare the rest.
    var withoutMicrophoneLevel: KioskEvent {
        if case let .state(mode, timer, buttons, orientation, remaining, _, _, _, _, _, _) = self {
            return .state(mode: mode, timer: timer, buttons: buttons, orientation: orientation, remaining: remaining)
        }
        return self
    }
}
