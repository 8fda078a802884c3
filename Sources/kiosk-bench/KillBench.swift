// kill -9 mid-take, many times: how much of the take the file lost, for one build of kiosk-recorder
// or two side by side (`--against`), each pair killed at the same moment of its take.
import Foundation
import KioskCore

/// Starts `recorder` (test camera and tone, SDL's dummy drivers) writing `output`, presses Start,
/// kills it with SIGKILL `seconds` after `recordingStarted`, and returns the seconds of the take
/// the file does not hold (what ffprobe reads of it, against `seconds`).
private func killedTake(_ recorder: String, size frameSize: Size, seconds: Double, output: String) -> Double {
    let r = BenchRecorder(recorder, arguments: ["--camera", "test", "--microphone", "test", "--size", "\(frameSize)",
                                                "--windowed", "800x480", "--countdown", "0", "--output", output])
    r.wait(for: "ready")
    r.send("start")
    let started = r.wait(for: "recordingStarted")
    Thread.sleep(forTimeInterval: max(0, started + seconds - ProcessInfo.processInfo.systemUptime))
    kill(r.process.processIdentifier, SIGKILL)
    r.process.waitUntilExit()
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    probe.arguments = ["ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "default=nw=1:nk=1", output]
    let answer = Pipe()
    probe.standardOutput = answer
    probe.standardError = FileHandle.nullDevice
    do { try probe.run() } catch { fail("cannot run ffprobe: \(error)") }
    let text = String(decoding: answer.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    probe.waitUntilExit()
    // A file ffprobe cannot read holds nothing of the take.
    let held = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    return max(seconds - held, 0)
}

/// `kill-loss`: `kills` takes killed at random moments 1.3-3.5 s in (the end-to-end test's range);
/// with `--against`, the other build is killed at the same moment in each round, the two
/// interleaved. Prints each build's losses, median and worst.
func killLoss(_ o: [String: String]) {
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let recorder = o["recorder"] ?? me.deletingLastPathComponent().appendingPathComponent("kiosk-recorder").path
    let against = o["against"]
    let frameSize = size(o["size"])
    let kills = max(Int(o["kills"] ?? "") ?? 20, 1)
    let folder = NSTemporaryDirectory() + "kiosk-kill-loss-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var ours: [Double] = [], theirs: [Double] = []
    for round in 0..<kills {
        let seconds = Double.random(in: 1.3...3.5)
        let runOurs = { ours.append(killedTake(recorder, size: frameSize, seconds: seconds, output: folder + "/ours-\(round).mov")) }
        guard let against else { runOurs(); continue }
        let runTheirs = { theirs.append(killedTake(against, size: frameSize, seconds: seconds, output: folder + "/against-\(round).mov")) }
        // Interleaved, each build first in every other round.
        if round % 2 == 0 { runOurs(); runTheirs() } else { runTheirs(); runOurs() }
    }
    func ms(_ values: [Double]) -> [Double] { values.map { ($0 * 1000).rounded() } }
    var line: [String: Any] = ["size": "\(frameSize)", "kills": kills, "lossMs": ms(ours),
                               "medianLossMs": (median(ours) * 1000).rounded(), "worstLossMs": ((ours.max() ?? 0) * 1000).rounded()]
    if against != nil {
        line["againstLossMs"] = ms(theirs)
        line["againstMedianLossMs"] = (median(theirs) * 1000).rounded()
        line["againstWorstLossMs"] = ((theirs.max() ?? 0) * 1000).rounded()
    }
    printLine(line)
}
