// kiosk-bench preview: the real kiosk-recorder recording the test pattern while it previews it,
// measured from outside (exec → ready, tap → recordingStarted) and from the booth's own stats lines
// (KIOSK_STATS=1 on stderr: presents, preview frames drawn and dropped, tap → first frame showing it).
import Foundation
import KioskContract
import KioskCore
import KioskSystem

/// The recorder's stdout events and stderr stats lines, with the monotonic time each arrived.
private final class RecorderOutput: Sendable {
    private let events = Locked<[(event: KioskEvent, at: Double)]>([])
    private let stats = Locked<[PreviewStatsLine]>([])
    private let log = Locked<[String]>([])

    /// Reads `handle` line by line on a thread of its own until it closes.
    func read(_ handle: FileHandle, lines: @escaping @Sendable (String) -> Void) {
        Thread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer += chunk
                while let newline = buffer.firstIndex(of: 0x0A) {
                    lines(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                    buffer = Data(buffer[(newline + 1)...])
                }
            }
        }.start()
    }

    func start(stdout: FileHandle, stderr: FileHandle) {
        read(stdout) { [self] line in
            let now = seconds()
            if let event = try? EventEncoder().decode(line: line) { events.withLock { $0.append((event, now)) } }
        }
        read(stderr) { [self] line in
            if let s = try? JSONDecoder().decode(PreviewStatsLine.self, from: Data(line.utf8)) {
                stats.withLock { $0.append(s) }
            } else {
                log.withLock { $0.append(line) }
            }
        }
    }

    /// Waits for the `count`-th event named `name`.
    func wait(for name: String, count: Int = 1, timeout: Double = 15) -> (event: KioskEvent, at: Double)? {
        poll(timeout) { events.withLock { e in e.filter { $0.event.name == name }.dropFirst(count - 1).first } }
    }

    /// Waits for the `count`-th stats line that matches.
    func waitStats(count: Int = 1, timeout: Double = 15, _ matches: @escaping (PreviewStatsLine) -> Bool) -> PreviewStatsLine? {
        poll(timeout) { stats.withLock { s in s.filter(matches).dropFirst(count - 1).first } }
    }

    var stderrText: String { log.withLock { $0.joined(separator: "\n") } }

    private func poll<T>(_ timeout: Double, _ find: () -> T?) -> T? {
        let deadline = seconds() + timeout
        while seconds() < deadline {
            if let found = find() { return found }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return nil
    }
}

/// CLOCK_MONOTONIC in seconds: the clock of the booth's stats lines.
private func seconds() -> Double { Double(MonotonicClock.now()) / 1e9 }

/// User + system CPU seconds of a process so far (/proc/PID/stat, fields 14 and 15, in clock ticks).
private func cpuSeconds(of pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = text.lastIndex(of: ")") else { return nil }
    let fields = text[text.index(after: close)...].split(separator: " ")
    // After the command name: field 3 (state) is fields[0], so utime (14) is fields[11].
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

func previewBench(_ o: [String: String]) {
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let recorder = o["recorder"] ?? me.deletingLastPathComponent().appendingPathComponent("kiosk-recorder").path
    let frameSize = size(o["size"])
    let fps = Int(o["fps"] ?? "") ?? 30
    let duration = Double(o["seconds"] ?? "") ?? 60
    let folder = NSTemporaryDirectory() + "kiosk-preview-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }

    let p = Process()
    p.executableURL = URL(fileURLWithPath: recorder)
    p.arguments = ["--camera", "test", "--microphone", "test", "--size", "\(frameSize)", "--fps", "\(fps)",
                   "--windowed", "\(frameSize)", "--output", folder + "/take.mov"]
    var env = ProcessInfo.processInfo.environment
    let driver = env["SDL_VIDEODRIVER"] ?? (env["DISPLAY"] != nil ? "x11" : "dummy")
    env["SDL_VIDEODRIVER"] = driver
    env["SDL_RENDER_DRIVER"] = env["SDL_RENDER_DRIVER"] ?? "software"
    env["SDL_AUDIODRIVER"] = env["SDL_AUDIODRIVER"] ?? "dummy"
    env["KIOSK_STATS"] = "1"
    p.environment = env
    let input = Pipe(), output = Pipe(), errors = Pipe()
    p.standardInput = input
    p.standardOutput = output
    p.standardError = errors
    let out = RecorderOutput()
    let launched = seconds()
    do { try p.run() } catch { fail("cannot run \(recorder): \(error)") }
    out.start(stdout: output.fileHandleForReading, stderr: errors.fileHandleForReading)
    func send(_ json: String) { input.fileHandleForWriting.write(Data((json + "\n").utf8)) }
    func give(up what: String) -> Never {
        p.terminate()
        fail("\(what)\n\(out.stderrText)")
    }

    guard let (ready, readyAt) = out.wait(for: "ready"), case let .ready(_, _, _, _, orientation, _, _) = ready else { give(up: "no ready event") }
    guard let start = out.waitStats(timeout: 5, { $0.stat == "start" }) else { give(up: "no stats lines: is this kiosk-recorder too old for KIOSK_STATS?") }
    // The camera's first frames and the first presents are start-up, not the steady state.
    Thread.sleep(forTimeInterval: 1)

    // Where a guest touches: the record circle, then the stop square in the same place, mapped
    // from the layout to the display as the recorder maps touches back.
    let transform = DisplayTransform(physical: frameSize, orientation: orientation)
    let centre = transform.toPhysical(Layout(canvas: transform.logical).recordButton.center)
    let tap = #"{"command":"tap","x":\#(centre.x),"y":\#(centre.y)}"#
    let tapSent = seconds()
    send(tap)
    guard let (_, startedAt) = out.wait(for: "recordingStarted") else { give(up: "the tap did not start a take") }
    guard let tapLine = out.waitStats({ $0.stat == "tap" }),
          let firstRecording = out.waitStats({ $0.stat == "mode" && $0.mode == "recording" })
    else { give(up: "no stats for the tap") }
    let cpuBefore = cpuSeconds(of: p.processIdentifier)
    Thread.sleep(forTimeInterval: max(0, firstRecording.t + duration - seconds()))
    let cpuAfter = cpuSeconds(of: p.processIdentifier)
    send(tap)
    guard let stopLine = out.waitStats(count: 2, { $0.stat == "tap" }),
          let (finished, _) = out.wait(for: "recordingFinished"), case let .recordingFinished(result) = finished
    else { give(up: "the second tap did not stop the take") }
    send(#"{"command":"quit"}"#)
    p.waitUntilExit()

    let span = stopLine.t - firstRecording.t
    let previewFps = Double(stopLine.previewFrames - firstRecording.previewFrames) / span
    let presentsPerSecond = Double(stopLine.presents - firstRecording.presents) / span
    let dropped = stopLine.droppedPreviewFrames - firstRecording.droppedPreviewFrames
    let execToReady = (readyAt - launched) * 1000
    let framesToEffect = firstRecording.presents - tapLine.presents
    func ms(_ v: Double) -> Double { (v * 10).rounded() / 10 }
    var line: [String: Any] = [
        "videoDriver": driver, "renderer": start.renderer ?? "unknown", "size": "\(frameSize)", "cameraFps": fps,
        "seconds": ms(span), "previewFps": ms(previewFps), "presentsPerSecond": ms(presentsPerSecond),
        "droppedPreviewFrames": dropped, "recordingDroppedFrames": result.droppedFrames,
        "execToReadyMs": ms(execToReady), "tapToRecordingStartedMs": ms((startedAt - tapSent) * 1000),
        "tapToFirstRecordingFrameMs": ms((firstRecording.t - tapSent) * 1000), "framesFromTapToEffect": framesToEffect,
        "targetsMet": previewFps >= Double(fps) * 0.98 && dropped == 0 && execToReady <= 500 && framesToEffect <= 1,
    ]
    if let cpuBefore, let cpuAfter {
        line["recorderCPUPercentOfOneCore"] = ms(100 * (cpuAfter - cpuBefore) / max(duration, 0.001))
    }
    printLine(line)
}
