// The console's Devices page carried out (KioskConsole's ConsoleDevicesStore), reaching the booth
// only as every console request does: the cameras from `kiosk-recorder list-cameras` run as a child
// of this binary (the signal mask and dispositions reset, as every child the booth starts), the
// microphones from ALSA's hints, the screen from the booth's own `screenshot` command into a folder
// of the console's beside its password file and audit log (the BMP read, removed, sent as a JPEG; at most one
// every `ScreenShots.interval`, whichever number of browsers ask), and the 3 s test take over the
// control socket (TrialTake's steps: measured from its file, its first frame kept, then retaken).
import FoundationEssentials
import Glibc
import KioskCapture
import KioskConsole
import KioskContract
import KioskMedia
import KioskSystem
import KioskUI

final class ConsoleDevicesFiles: ConsoleDevicesStore {
    private let socket: String
    /// Where the booth writes the screenshots the console asks for (made 0700 by the console).
    private let screenFolder: String
    /// The booth keeps a folder of takes: a test take never replaces the last one.
    private let hasTakeFolder: Bool
    private let booth: @Sendable (BoothQuestion) -> BoothReply
    /// The last screen picture (or failure) and when it was asked for; held while a new one is
    /// taken, so browsers asking together wait for the same one.
    private let screen = Locked(Screen())
    /// The last test take's first frame (JPEG); whether one runs.
    private let trial = Locked(Trial())

    private struct Screen {
        var shots = ScreenShots()
        /// The last answer: the picture, or why there was none.
        var last: ConsoleResponse?
        var count = 0
    }

    private struct Trial {
        var running = false
        var frame: [UInt8]?
    }

    init(socket: String, screenFolder: String, hasTakeFolder: Bool, booth: @escaping @Sendable (BoothQuestion) -> BoothReply) {
        self.socket = socket
        self.screenFolder = screenFolder
        self.hasTakeFolder = hasTakeFolder
        self.booth = booth
    }

    func answer(_ request: DevicesRequest) -> (ConsoleResponse, result: String?) {
        switch request {
        case .list: return (list(), nil)
        case .screen: return (screenPicture(), nil)
        case .trial: return testTake()
        case .frame:
            guard let frame = trial.withLock({ $0.frame }) else { return (.error(404, "noTrial", "no test take yet"), nil) }
            return (.picture(frame), nil)
        }
    }

    private static func now() -> Double { Double(MonotonicClock.now()) / 1e9 }

    // MARK: - Cameras and microphones

    private func list() -> ConsoleResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        func text(_ value: some Encodable) -> String { (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "[]" }
        let microphones = text(ALSADevices.capture())
        switch Self.listCameras() {
        case let .success(line):
            // The `cameras` event's own list, as `list-cameras` printed it (the contract's shape).
            struct Listed: Decodable { let cameras: [CameraDescription] }
            guard let listed = try? JSONDecoder().decode(Listed.self, from: Data(line.utf8)) else {
                return .error(502, "listCameras", "list-cameras printed no list: \(line.prefix(200))")
            }
            return .json(200, "{\"cameras\":\(text(listed.cameras)),\"microphones\":\(microphones)}")
        case let .failure(why):
            return .json(200, "{\"cameras\":[],\"camerasError\":\(Self.string(why.why)),\"microphones\":\(microphones)}")
        }
    }

    struct Failure: Error { let why: String }

    /// `kiosk-recorder list-cameras`' line, from a child of this binary (10 s at most: a camera's
    /// driver that hangs is killed with its group).
    static func listCameras() -> Result<String, Failure> {
        guard let pipe = try? FileDescriptor.pipe() else { return .failure(Failure(why: "pipe failed")) }
        let reader = pipe.read, write = pipe.write
        let spawned = ShellCommand.spawn("exec \"$0\" list-cameras", environment: [:], arguments: [Assets.executablePath()], stdout: write.rawValue)
        // Ours closed at once, so the read below ends when the child's copy does.
        _ = consume write
        guard case let .success(pid) = spawned else { return .failure(Failure(why: "cannot start list-cameras")) }
        let deadline = MonotonicClock.after(seconds: 10)
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        reading: while output.count < 4 << 20 {
            let remaining = deadline - MonotonicClock.now()
            guard remaining > 0 else {
                kill(-pid, SIGKILL)
                break reading
            }
            var p = pollfd(fd: reader.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(clamping: (remaining + 999_999) / 1_000_000)) >= 0 || errno == EINTR else { break }
            guard p.revents != 0 else { continue }
            let n = read(reader.rawValue, &chunk, chunk.count)
            if n > 0 { output += chunk[0..<n] } else if n < 0, errno == EINTR { continue } else { break }
        }
        let status = ShellCommand.wait(pid)
        let line = String(decoding: output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
        guard status == 0, !line.isEmpty else { return .failure(Failure(why: "list-cameras ended with status \(status)")) }
        return .success(line)
    }

    static func string(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    // MARK: - The screen

    private func screenPicture() -> ConsoleResponse {
        screen.withLock { screen in
            let now = Self.now()
            // A failure is paced as a picture is: browsers asking meanwhile get it, not a new try each.
            if !screen.shots.isStale(now: now), let last = screen.last { return last }
            screen.count += 1
            screen.shots.took(at: now)
            switch shoot(number: screen.count) {
            case let .success(jpeg): screen.last = .picture(jpeg)
            case let .failure(failure): screen.last = .error(503, "noScreen", failure.why)
            }
            return screen.last ?? .error(503, "noScreen", "no picture")
        }
    }

    /// The booth's screen: its `screenshot` to a new file in the console's folder, read once
    /// whole (the booth writes it after its answer, on a worker), removed, made a JPEG.
    private func shoot(number: Int) -> Result<[UInt8], Failure> {
        let folder = screenFolder
        if mkdir(folder, 0o700) != 0, errno != EEXIST { return .failure(Failure(why: "cannot make \(folder): \(String(cString: strerror(errno)))")) }
        let path = folder + "/screen-\(getpid())-\(number).bmp"
        unlink(path)
        defer { unlink(path) }
        switch booth(.command("{\"command\":\"screenshot\",\"path\":\(Self.string(path))}")) {
        case .answered: break
        case let .refused(_, _, message): return .failure(Failure(why: message))
        case let .unreachable(why), let .noAnswer(_, why), let .badCommand(why): return .failure(Failure(why: why))
        }
        let deadline = MonotonicClock.after(seconds: 3)
        while MonotonicClock.now() < deadline {
            if let bmp = FileManager.default.contents(atPath: path).map(Array.init), let layout = ScreenshotJPEG.bmpLayout(bmp),
               bmp.count >= layout.offset + layout.pitch * layout.height {
                guard let picture = ScreenshotJPEG.jpeg(fromBMP: bmp) else { return .failure(Failure(why: "the booth's screenshot is no picture")) }
                return .success(picture.jpeg)
            }
            usleep(20_000)
        }
        return .failure(Failure(why: "the booth did not write its screenshot within 3 s (the booth must be able to write to \(folder))"))
    }

    // MARK: - The test take

    private func testTake() -> (ConsoleResponse, result: String?) {
        guard hasTakeFolder else {
            return (.error(409, "noTakeFolder", "a test take needs the booth's folder of takes (--output-dir): with one output file, it would replace the last take"),
                    "refused noTakeFolder")
        }
        let started = trial.withLock { trial -> Bool in
            guard !trial.running else { return false }
            trial.running = true
            return true
        }
        guard started else {
            return (.error(409, "busy", "a test take is already running"), "refused busy")
        }
        defer { trial.withLock { $0.running = false } }
        let client: ControlClient
        do { client = try ControlClient(path: socket) } catch {
            return (.error(503, "boothUnreachable", "no booth answers at \(socket): \(error)"), "boothUnreachable")
        }
        var steps = TrialTake(now: Self.now())
        var loudness: Double?, peak: Double?, frame: [UInt8]?
        while true {
            switch steps.next(now: Self.now()) {
            case let .send(line):
                do { try client.send(line: line) } catch {
                    return (.error(503, "boothUnreachable", "the booth's socket: \(error)"), "boothUnreachable")
                }
            case let .wait(until):
                switch client.receive(until: Int64(until * 1e9)) {
                case let .line(line): steps.hear(line, now: Self.now())
                case .timedOut: continue
                case .closed: return (.error(503, "boothUnreachable", "the booth closed the connection"), "boothUnreachable")
                }
            case let .measure(path):
                if let measured = try? TakeLoudness.measure(path) { (loudness, peak) = (measured.loudness, measured.peak) }
                frame = TakeFacts.thumbnail(of: path)
                steps.measured()
            case let .done(outcome):
                if let frame { trial.withLock { $0.frame = frame } }
                let (response, result) = outcome.answer(loudness: loudness, peak: peak, frame: frame != nil)
                return (response, result)
            }
        }
    }
}
