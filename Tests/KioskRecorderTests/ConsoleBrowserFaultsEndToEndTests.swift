// The console's Status page in Chromium and WebKit against real faults at the lowest boundary: the
// microphone's meter following the fake ALSA microphone (a tone, then silence, again and again);
// a console started before its booth, the booth killed (SIGKILL) and started again, the page never
// reloaded; the fake camera unplugged; a disk whose syncs stall (the syscall shim) and a small tmpfs
// filled, each warning in the page's words (English here) and marked cleared once the booth says
// its cause is gone. Tests/Browsers/console_browser.py drives the page (--scenario) and says "cue: NAME" when
// the test is to act; it is told on stdin when the act is done, and checks what the page shows.
import Foundation
import Glibc
import Testing
import KioskTestSupport

/// The driver of one scenario, beside the test that acts on its cues.
struct ScenarioDriver {
    let browser: RecorderProcess
    let engine: String

    init(_ engine: String, scenario: String, console: ConsoleUnderTest, password: String, shots: String) throws {
        self.engine = engine
        browser = try RecorderProcess([BrowserEngines.driver, "--engine", engine, "--base", console.base, "--password", password, "--shots", shots,
                                       "--scenario", scenario], executable: "/usr/bin/python3")
    }

    /// The driver failed, or ended.
    private var ended: Bool { browser.rawLines.contains { $0.hasPrefix("FAIL:") || $0.hasPrefix("figure: \(engine): ") && $0.contains(" s, CPU ") } }

    /// Waits for "cue: NAME" (generous: a browser starting beside a build on a loaded machine).
    func cue(_ name: String, timeout: Double = 300) throws {
        let said = { browser.rawLines.contains("cue: \(name)") }
        _ = browser.waitForOutput(timeout: timeout) { said() || ended }
        try #require(said(), "no cue \(name): \(browser.rawLines) \(browser.stderr)")
    }

    /// Tells the driver the cue's act is done.
    func done(_ what: String) { browser.send(what) }

    /// The driver's end: its exit status (expected 0) and its output lines ("ok: …", "figure: …").
    func finish(timeout: Double = 400) -> (status: Int32?, output: [String]) {
        let status = browser.exitStatus(timeout: timeout)
        print(browser.stderr.split(separator: "\n").filter { $0.contains(" s  ") }.map { "\(engine): \($0)" }.joined(separator: "\n"))
        #expect(status == 0, "\(browser.rawLines.joined(separator: "\n")) \(browser.stderr)")
        return (status, browser.rawLines)
    }

    /// The screenshot `view` is 360 px wide.
    static func shotIsPhoneWide(_ shots: String, _ view: String, _ engine: String) throws {
        let png = "\(shots)/console-\(view)-\(engine).png"
        let size = try runProgram(["ffprobe", "-v", "error", "-show_entries", "stream=width", "-of", "csv=p=0", png])
        #expect(size.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "360", "\(png): \(size.stdout) \(size.stderr)")
    }
}

@Suite("kiosk-recorder console's Status in Chromium and WebKit against real faults: the fake microphone, a booth gone and back, a camera unplugged, a slow and a full disk",
       .enabled(if: BrowserEngines.missing.isEmpty || TestEnvironment.isCI, BrowserEngines.skipNote))
struct ConsoleBrowserFaultsEndToEndTests {
    let password = "booth operator 1"
    let live = ConsoleLiveEndToEndTests()

    /// Raw S16LE stereo at 48 kHz for the fake microphone's `file`: `tone` s of a 1 kHz sine at
    /// half scale (−6 dBFS), then `silence` s of zeros; it loops them from each open.
    static func toneThenSilence(_ path: String, tone: Double, silence: Double) throws {
        let rate = 48_000, loud = Int(tone * Double(rate)), total = loud + Int(silence * Double(rate))
        var samples = [Int16](repeating: 0, count: 2 * total)
        for i in 0..<loud {
            let value = Int16((16384 * sin(2 * Double.pi * 1000 * Double(i) / Double(rate))).rounded())
            samples[2 * i] = value
            samples[2 * i + 1] = value
        }
        try samples.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: path))
    }

    @Test("Status's meter follows the fake ALSA microphone (2 s of a tone, then 4.5 s of silence, in a loop): loud with the tone and low in the silence, twice over, read from the page's meter; in a take the silence is Microphone silent among the warnings, marked cleared once the tone is heard again",
          arguments: ["chromium", "webkit"])
    func meter(engine: String) throws {
        try #require(BrowserEngines.missing.isEmpty, "\(BrowserEngines.missing) not found (CI is set, so this test does not skip): \(BrowserEngines.skipNote)")
        let plugin = TestEnvironment.fakeMicrophonePlugin
        try #require(FileManager.default.fileExists(atPath: plugin), "build the package first (swift build)")
        let folder = try testFolder("console-meter-\(engine)")
        let sound = folder.appendingPathComponent("tone-then-silence.raw").path
        try Self.toneThenSilence(sound, tone: 2, silence: 4.5)
        // The booth opens the microphone by name from ALSA's configuration, which reads ~/.asoundrc.
        try """
            pcm_type.kiosk_fake_microphone { lib "\(plugin)" }
            pcm.kiosk_fake_mic { type kiosk_fake_microphone  file "\(sound)" }
            """.write(to: folder.appendingPathComponent(".asoundrc"), atomically: true, encoding: .utf8)
        let (config, _, _) = try live.config(folder)
        let r = try RecorderProcess(["--camera", "test", "--size", "352x288", "--microphone", "kiosk_fake_mic", "--windowed", "800x480", "--countdown", "0",
                                     "--config", config], environment: ["HOME": folder.path])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let console = try live.consoleWithPassword(folder, config: config, tcp: true)
        defer { console.stop() }
        let shots = folder.appendingPathComponent("shots").path
        let driver = try ScenarioDriver(engine, scenario: "meter", console: console, password: password, shots: shots)
        // After the meter's checks in ready: a take, long enough for its silence to be one (3 s).
        try driver.cue("take")
        r.command("start")
        try #require(r.wait(for: "recordingStarted") != nil, "\(r.rawLines) \(r.stderr)")
        driver.done("started")
        let (_, output) = driver.finish()
        r.command("stop")
        try #require(r.wait(for: "recordingFinished") != nil, "\(r.rawLines)")
        #expect(output.contains { $0.hasPrefix("ok: the meter follows the fake microphone: ") }, "\(output)")
        #expect(output.contains { $0.hasPrefix("ok: Microphone silent, then cleared: ") }, "\(output)")
        #expect(r.names.contains("microphoneSilent"), "\(r.rawLines)")
        try ScenarioDriver.shotIsPhoneWide(shots, "status-meter", engine)
        r.command("useVideo")
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
    }

    @Test("a console started before its booth: the page says the booth does not answer, then fills in once it starts (no reload); the fake camera unplugged is Camera lost among the warnings, marked cleared once it is back; the booth killed (SIGKILL): the banner again; a new booth: gone again, the page never reloaded",
          needsFakeCamera, arguments: ["chromium", "webkit"])
    func boothGoneAndBack(engine: String) throws {
        try #require(BrowserEngines.missing.isEmpty, "\(BrowserEngines.missing) not found (CI is set, so this test does not skip): \(BrowserEngines.skipNote)")
        let folder = try testFolder("console-gone-\(engine)")
        let (config, _, _) = try live.config(folder)
        // Unplugged 5 s into its first stream, away 2.5 s; plugged in for good after.
        let device = try fakeCamera(in: folder, "format=YUYV 352x288@30\nfail_after=150\nunplug_ms=2500\n")
        let arguments = ["--camera", device, "--size", "352x288", "--microphone", "test", "--windowed", "800x480", "--countdown", "0", "--config", config]
        let console = try live.consoleWithPassword(folder, config: config, tcp: true)
        defer { console.stop() }
        let shots = folder.appendingPathComponent("shots").path
        let driver = try ScenarioDriver(engine, scenario: "reconnect", console: console, password: password, shots: shots)

        try driver.cue("booth")
        let first = try RecorderProcess(arguments)
        try #require(first.wait(for: "ready") != nil, "\(first.stderr)")
        driver.done("started")
        try driver.cue("kill")
        #expect(first.rawLines.contains { $0.hasPrefix(#"{"event":"error","code":"cameraUnavailable""#) }, "\(first.rawLines)")
        first.kill(SIGKILL)
        #expect(first.exitStatus() != nil)
        driver.done("killed")
        try driver.cue("booth again")
        let second = try RecorderProcess(arguments)
        try #require(second.wait(for: "ready") != nil, "\(second.stderr)")
        driver.done("started")
        let (_, output) = driver.finish()
        for check in ["before the booth: the banner says 'The booth does not answer; trying again.'", "the booth came: the banner gone, Status filled in",
                      "the booth killed: the banner again", "a new booth: the banner gone, Status filled in, the page never reloaded"] {
            #expect(output.contains { $0.hasPrefix("ok: " + check) }, "\(check): \(output)")
        }
        #expect(output.contains { $0.hasPrefix("ok: Camera lost, then cleared: ") }, "\(output)")
        for view in ["status-no-booth", "status-camera-lost"] { try ScenarioDriver.shotIsPhoneWide(shots, view, engine) }
        second.command("quit")
        #expect(second.exitStatus() == 0, "\(second.stderr)")
    }

    @Test("Status's disk warnings from a real disk: syncs stalled 2.6 s (the syscall shim) are Disk slow, marked cleared after a take the disk kept up with; a small tmpfs filled is Disk full (the take ended diskFull), marked cleared once a take starts with room again",
          needsFakeCamera, arguments: ["chromium", "webkit"])
    func disk(engine: String) throws {
        try #require(BrowserEngines.missing.isEmpty, "\(BrowserEngines.missing) not found (CI is set, so this test does not skip): \(BrowserEngines.skipNote)")
        let folder = try testFolder("console-disk-\(engine)")
        let minFree = 32 * 1024 * 1024
        let (config, _, takes) = try live.config(folder, extra: "min-free-disk = \(minFree)\n")
        // The takes on a disk of their own: a 64 MiB tmpfs in the test's private mount namespace.
        try FileManager.default.createDirectory(atPath: takes, withIntermediateDirectories: true)
        let mount = try runProgram(["mount", "-t", "tmpfs", "-o", "size=64m", "tmpfs", takes], stdout: .inherit, stderr: .inherit)
        try #require(mount.status == 0)
        defer { _ = try? runProgram(["umount", "-l", takes], stdout: .inherit, stderr: .inherit) }
        let slow = folder.appendingPathComponent("slow-now").path
        let r = try RecorderProcess(booth + ["--config", config], environment: [
            "LD_PRELOAD": failingSyscallsShim, "KIOSK_SLOW_CALLS": "fdatasync,fsync", "KIOSK_SLOW_TRIGGER": slow, "KIOSK_SLOW_MS": "2600",
        ])
        try #require(r.wait(for: "ready") != nil, "\(r.stderr)")
        let console = try live.consoleWithPassword(folder, config: config, tcp: true)
        defer { console.stop() }
        let shots = folder.appendingPathComponent("shots").path
        let driver = try ScenarioDriver(engine, scenario: "disk", console: console, password: password, shots: shots)

        // A slow disk: every sync waits 2.6 s from the Start on, storageSlow as the take opens.
        try driver.cue("slow")
        #expect(FileManager.default.createFile(atPath: slow, contents: Data()))
        r.command("start")
        try #require(r.wait(for: "error", timeout: 30) != nil, "\(r.rawLines) \(r.stderr)")
        #expect(r.rawLines.contains { $0.hasPrefix(#"{"event":"error","code":"storageSlow""#) }, "\(r.rawLines)")
        try FileManager.default.removeItem(atPath: slow)
        try r.recordedASecondAndUsed(count: 1)
        driver.done("slow")
        // A take the disk kept up with.
        try driver.cue("fast")
        try r.recordASecondAndUse(count: 2)
        try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: 2) != nil)
        driver.done("fast")
        // The disk filled to 32 KiB over the booth's minimum: the take ends diskFull within seconds
        // (or, should the last take's thumbnail take that room first, its start is refused diskFull).
        try driver.cue("full")
        let free = Int(try #require(try FileManager.default.attributesOfFileSystem(forPath: takes)[.systemFreeSize] as? Int64))
        let filler = takes + "/filler.bin"
        try Data(count: free - minFree - 32 * 1024).write(to: URL(fileURLWithPath: filler))
        r.command("start")
        let refused = { r.rawLines.contains { $0.hasPrefix(#"{"event":"error","code":"diskFull""#) } }
        _ = r.waitForOutput(timeout: 60) { r.count(of: "recordingFinished") == 3 || refused() }
        if !refused() {
            try #require(r.count(of: "recordingFinished") == 3, "\(r.rawLines) \(r.stderr)")
            #expect(r.rawLines.last { $0.hasPrefix(#"{"event":"recordingFinished""#) }?.contains(#""reason":"diskFull""#) == true, "\(r.rawLines)")
            r.command("useVideo")
            try #require(r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath", count: 3) != nil, "\(r.rawLines)")
        }
        driver.done("full")
        // Room again: the next take starts.
        try driver.cue("room")
        try FileManager.default.removeItem(atPath: filler)
        let takesBefore = r.count(of: "recordingStarted")
        r.command("start")
        try #require(r.wait(for: "recordingStarted", count: takesBefore + 1) != nil, "\(r.rawLines) \(r.stderr)")
        driver.done("started")
        let (_, output) = driver.finish()
        r.command("stop")
        try #require(r.wait(for: "recordingFinished", count: takesBefore + 1) != nil, "\(r.rawLines)")
        #expect(output.contains { $0.hasPrefix("ok: Disk slow, then cleared: ") }, "\(output)")
        #expect(output.contains { $0.hasPrefix("ok: Disk full, then cleared: ") }, "\(output)")
        try ScenarioDriver.shotIsPhoneWide(shots, "status-disk", engine)
        r.command("useVideo")
        r.command("quit")
        #expect(r.exitStatus() == 0, "\(r.stderr)")
    }
}
