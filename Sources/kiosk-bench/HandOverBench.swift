// The hand-over as a guest feels it with `--loudness`: the release kiosk-recorder records
// a take (test camera and tone), the guest reviews it for a few seconds, then the time from Use Video
// written on its stdin to the outcome event, with `--loudness` (the leveled copy made during the
// review, renamed at the hand-over) and without it, rounds interleaved.
import Foundation
import KioskCore

/// `handover [--recorder PATH] [--size WxH] [--seconds S] [--review S] [--rounds N] [--loudness LUFS]`.
func handOverBench(_ o: [String: String]) {
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let recorder = o["recorder"] ?? me.deletingLastPathComponent().appendingPathComponent("kiosk-recorder").path
    let frameSize = size(o["size"])
    let rounds = Int(o["rounds"] ?? "") ?? 3
    let seconds = Double(o["seconds"] ?? "") ?? 30, review = Double(o["review"] ?? "") ?? 3
    // The test tone is at -16 LUFS: -23 makes the take's sound 7 dB quieter.
    let loudness = o["loudness"] ?? "-23"
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("handover-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var leveled: [Double] = [], plain: [Double] = [], outcome = ""
    func round(_ n: Int, level: Bool) {
        let r = BenchRecorder(recorder, arguments: ["--camera", "test", "--microphone", "test", "--size", "\(frameSize)", "--windowed", "\(frameSize)",
                                                    "--countdown", "0", "--output", folder.appendingPathComponent("take-\(n)-\(level).mov").path]
                                                    + (level ? ["--loudness", loudness] : []))
        r.recordTake(seconds: seconds)
        Thread.sleep(forTimeInterval: review)
        let used = ProcessInfo.processInfo.systemUptime
        r.send("useVideo")
        let handed = r.line(of: "videoRecorderDidFinishRecordingVideoWithOutputPath")
        if level {
            leveled.append((handed.at - used) * 1000)
            outcome = handed.line
        } else {
            plain.append((handed.at - used) * 1000)
        }
        r.process.waitUntilExit()
    }
    for n in 0..<rounds {
        if n % 2 == 0 { round(n, level: true); round(n, level: false) } else { round(n, level: false); round(n, level: true) }
    }
    func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
    printLine(["size": "\(frameSize)", "seconds": seconds, "reviewSeconds": review, "rounds": rounds, "loudness": loudness,
               "leveledUseVideoToOutcomeMs": leveled.map { ($0 * 10).rounded() / 10 }, "leveledMedianMs": (median(leveled) * 10).rounded() / 10,
               "plainUseVideoToOutcomeMs": plain.map { ($0 * 10).rounded() / 10 }, "plainMedianMs": (median(plain) * 10).rounded() / 10,
               "outcome": outcome])
}
