// End to end: the machine's sleep, against a mock logind on a private bus. A dbus-daemon of the
// test's own is the recorder's system bus (DBUS_SYSTEM_BUS_ADDRESS); python3-dbusmock's logind
// template answers Inhibit on it. busctl drives the mock: the mock's EmitSignal sends
// PrepareForSleep, and ListInhibitors shows the inhibitors it holds (the template drops one when
// the last copy of its fd is closed, so the list shows when the recorder let go).
import Foundation
import KioskContract
import Testing
import KioskCore
import KioskTestSupport

/// A system bus of one test's own: a dbus-daemon on a socket in the test's folder with
/// python3-dbusmock's logind template on it. `stop()` (or the release) ends both.
final class MockLogind {
    /// A Python that has dbusmock: Debian's, which the package installs into, or the one on PATH.
    static let python: String? = ["/usr/bin/python3", "python3"].first { python in
        (try? runProgram([python, "-c", "import dbusmock"], stdout: .discard, stderr: .discard).status == 0) ?? false
    }
    static let missing: [String] = ["dbus-daemon", "busctl"].filter { XvfbTools.path(of: $0) == nil }
        + (python == nil ? ["python3-dbusmock"] : [])
    static let skipNote: Comment =
        "needs dbus-daemon, busctl and python3-dbusmock (Debian packages dbus-daemon, systemd, python3-dbusmock: kiosk/setup --test)"

    /// The bus's address, for DBUS_SYSTEM_BUS_ADDRESS.
    let address: String
    private let folder: URL
    /// The daemon's and the mock's pids, in the order they started.
    private var servers: [pid_t] = []

    init(in folder: URL) throws {
        self.folder = folder
        let socket = folder.appendingPathComponent("system_bus_socket").path
        address = "unix:path=\(socket)"
        do {
            try #require(Self.missing.isEmpty, """
                \(Self.missing.joined(separator: ", ")) not found (CI is set, so this test does not skip): \
                kiosk/setup --test installs them
                """)
            // The session configuration lets anyone own any name (the mock takes
            // org.freedesktop.login1); --address puts the socket in the test's folder.
            try start(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(address)"], log: "dbus-daemon.log")
            try #require(Self.wait(seconds: 5) { FileManager.default.fileExists(atPath: socket) }, "dbus-daemon made no socket")
            try start([Self.python!, "-m", "dbusmock", "--template", "logind", "-l", folder.appendingPathComponent("logind-calls.log").path],
                      environment: ["DBUS_SYSTEM_BUS_ADDRESS": address], log: "logind.log")
            try #require(Self.wait(seconds: 10) { (try? inhibitors()) != nil }, "the mock logind did not answer: \(log)")
        } catch {
            stop()
            throw error
        }
    }

    deinit { stop() }

    /// Ends the mock, then the bus, and waits for both.
    func stop() {
        servers.reversed().forEach(stopServer)
        servers.removeAll()
    }

    /// What the mock and the bus wrote, and the calls the mock took, for a failure's message.
    var log: String {
        ["dbus-daemon.log", "logind.log", "logind-calls.log"].map { name in
            "\(name): " + ((try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "")
        }.joined(separator: "\n")
    }

    /// The `who` of each inhibitor the mock holds (ListInhibitors); nil when the call failed.
    func inhibitors() throws -> [String]? {
        let run = try runProgram(["busctl", "--address=\(address)", "--json=short", "call", "org.freedesktop.login1",
                                  "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "ListInhibitors"])
        // {"type":"a(ssssuu)","data":[[["sleep","kiosk-recorder","…","delay",1000,123456]]]}
        guard run.status == 0,
              let reply = try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
              let list = (reply["data"] as? [Any])?.first as? [[Any]] else { return nil }
        return list.compactMap { $0.count > 1 ? $0[1] as? String : nil }
    }

    /// Waits until the inhibitors the mock holds are exactly `who`.
    func waitForInhibitors(_ who: [String], seconds: Double = 10) -> Bool {
        Self.wait(seconds: seconds) { (try? inhibitors()) == who }
    }

    /// Sends logind's PrepareForSleep(`sleeping`) from the mock's object.
    func emitPrepareForSleep(_ sleeping: Bool) throws {
        let run = try runProgram(["busctl", "--address=\(address)", "call", "org.freedesktop.login1", "/org/freedesktop/login1",
                                  "org.freedesktop.DBus.Mock", "EmitSignal", "sssav",
                                  "org.freedesktop.login1.Manager", "PrepareForSleep", "b", "1", "b", sleeping ? "true" : "false"])
        try #require(run.status == 0, "EmitSignal: \(run.stderr)")
    }

    /// Starts a server whose stdout and stderr go to the file `name` in the test's folder.
    private func start(_ command: [String], environment: [String: String] = [:], log name: String) throws {
        let log = open(folder.appendingPathComponent(name).path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        try #require(log >= 0, "cannot make \(name): \(String(cString: strerror(errno)))")
        defer { close(log) }
        servers.append(try startServer(command, environment: environment, stdout: log, stderr: log))
    }

    /// Polls `condition` until it holds; false after `seconds`.
    static func wait(seconds: Double, _ condition: () -> Bool) -> Bool {
        eventually(seconds, condition)
    }
}

@Suite("kiosk-recorder and the machine's sleep (logind)", .serialized)
struct SystemSleepEndToEndTests {
    /// The buttons in the answer to a `state` sent now.
    func stateButtons(_ r: RecorderProcess) -> [Button]? {
        let count = r.names.filter { $0 == "state" }.count + 1
        r.command("state")
        guard r.wait(for: "state", count: count) != nil,
              case let .state(_, _, buttons, _, _, _, _, _, _, _, _)? = r.events.last(where: { $0.name == "state" }) else { return nil }
        return buttons
    }

    @Test("PrepareForSleep(true) mid-take: the take is finished and kept (reason background) before the inhibitor is released; PrepareForSleep(false): the inhibitor is taken again and the camera is back",
          .enabled(if: MockLogind.missing.isEmpty || TestEnvironment.isCI, MockLogind.skipNote))
    func sleepMidTake() throws {
        let folder = try testFolder("system-sleep")
        let logind = try MockLogind(in: folder)
        defer { logind.stop() }
        let output = folder.appendingPathComponent("take.mov").path
        // While `slow` exists each sync of the take takes 0.7 s longer: its end (four syncs) lasts
        // nearly three seconds, in which a release before the take is safe would show.
        let slow = folder.appendingPathComponent("slow-now").path
        let r = try RecorderProcess(booth + ["--output", output], environment: [
            "DBUS_SYSTEM_BUS_ADDRESS": logind.address,
            "LD_PRELOAD": failingSyscallsShim, "KIOSK_SLOW_CALLS": "fsync,fdatasync", "KIOSK_SLOW_TRIGGER": slow,
            "KIOSK_SLOW_MS": "700",
        ])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        #expect(logind.waitForInhibitors(["kiosk-recorder"]), "the inhibitor is taken at launch: \(r.stderr)\n\(logind.log)")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.stderr)")
        try #require(r.waitRecorded(1.5), "\(r.stderr)")

        #expect(FileManager.default.createFile(atPath: slow, contents: Data()))
        try logind.emitPrepareForSleep(true)
        // The booth has taken the signal (and told the writer to stop): the take is being
        // finished now, and the inhibitor must still be held.
        #expect(MockLogind.wait(seconds: 10) { r.stderr.contains("system sleep: the machine is about to sleep") }, "\(r.stderr)")
        #expect(try logind.inhibitors() == ["kiosk-recorder"], "held while the take is being finished: \(r.stderr)")
        // Then released: by the time an answer no longer lists it, recordingFinished has come.
        var releasedBy: Double?
        _ = MockLogind.wait(seconds: 20) {
            guard (try? logind.inhibitors()) == [] else { return false }
            releasedBy = ProcessInfo.processInfo.systemUptime
            return true
        }
        try? FileManager.default.removeItem(atPath: slow)
        let finishedAt = try #require(r.wait(for: "recordingFinished"), "\(r.stderr)")
        let released = try #require(releasedBy, "the inhibitor was never released: \(r.stderr)")
        // The event leaves through the booth's writer thread just before the release, and the
        // test's reader may take it late on a loaded machine: an allowance of 1 s for that, well
        // short of the nearly 3 s the take's end lasts.
        #expect(released >= finishedAt - 1.0, "released \(finishedAt - released) s before recordingFinished arrived: \(r.stderr)")
        guard case let .recordingFinished(result)? = r.events.first(where: { $0.name == "recordingFinished" }) else { return }
        #expect(result.reason == .background && result.success, "\(result)")
        let onDisk = try #require(Double(try ffprobe(output, "format=duration")))
        #expect(abs(result.duration - onDisk) < 0.1, "reported \(result.duration) s, on disk \(onDisk) s")
        #expect(try decodesCleanly(output))

        // Asleep, as in the background: a retake lands in ready without Start (no camera).
        r.command("retake")
        #expect(stateButtons(r) == [.cancel])
        try logind.emitPrepareForSleep(false)
        #expect(logind.waitForInhibitors(["kiosk-recorder"]), "taken again after the resume: \(r.stderr)\n\(logind.log)")
        #expect(MockLogind.wait(seconds: 10) { stateButtons(r) == [.cancel, .start] }, "the camera is back: \(r.stderr)")
        // And it records: a second take.
        r.command("start")
        #expect(r.wait(for: "recordingStarted", count: 2) != nil)
        #expect(r.waitRecorded(1), "\(r.stderr)")
        r.command("stop")
        #expect(r.wait(for: "recordingFinished", count: 2) != nil)
        guard case let .recordingFinished(second)? = r.events.last(where: { $0.name == "recordingFinished" }) else { return }
        #expect(second.reason == .user && second.success && second.duration > 0.5, "\(second)")
        r.command("quit")
        #expect(r.exitStatus() == 0)
        #expect(logind.waitForInhibitors([]), "nothing held once the recorder is gone")
    }

    @Test("no system bus: the booth runs as before and says so once on stderr")
    func noSystemBus() throws {
        let folder = try testFolder("no-system-bus")
        let output = folder.appendingPathComponent("take.mov").path
        let r = try RecorderProcess(booth + ["--output", output],
                                    environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/system_bus_socket"])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        _ = try ServiceEndToEndTests.take(r, seconds: 1)
        r.command("useVideo")
        #expect(r.exitStatus() == 0)
        // (Without the replies to the take's `state`s.)
        #expect(r.names.filter { $0 != "state" } == ["ready", "recordingStarted", "recordingFinished", "videoRecorderDidFinishRecordingVideoWithOutputPath"])
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("system sleep:") }
        #expect(lines.count == 1 && lines.first?.contains("no system bus") == true, "\(r.stderr)")
    }
}
