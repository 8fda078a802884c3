// The share step as a guest feels it: the release kiosk-recorder records a take, then the
// time from Use Video written on its stdin to `takeShared` (the share folder written whole: the
// remux, the poster, the page, synced and renamed; the QR code is drawn in the same turn of the
// booth's loop), against `ffmpeg -c copy -movflags +faststart` run on the very take it handed over,
// in the same round.
import Foundation
import KioskContract
import KioskCore

func shareStep(_ o: [String: String]) {
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let recorder = o["recorder"] ?? me.deletingLastPathComponent().appendingPathComponent("kiosk-recorder").path
    let frameSize = size(o["size"])
    let rounds = Int(o["rounds"] ?? "") ?? 3
    let seconds = Double(o["seconds"] ?? "") ?? 30
    let folder = URL(fileURLWithPath: o["dir"] ?? NSTemporaryDirectory()).appendingPathComponent("share-step-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var ours: [Double] = [], theirs: [Double] = [], bytes: [Int] = []
    for round in 0..<rounds {
        let takes = folder.appendingPathComponent("takes-\(round)").path, shares = folder.appendingPathComponent("share-\(round)").path
        let r = BenchRecorder(recorder, arguments: ["--camera", "test", "--microphone", "test", "--size", "\(frameSize)", "--windowed", "\(frameSize)",
                                                    "--countdown", "0", "--session", "loop", "--output-dir", takes,
                                                    "--share-dir", shares, "--share-url", "http://10.42.0.1/s/{token}/"])
        r.recordTake(seconds: seconds)
        let used = ProcessInfo.processInfo.systemUptime
        r.send("useVideo")
        let handed = r.line(of: "videoRecorderDidFinishRecordingVideoWithOutputPath").line
        let shared = r.line(of: "takeShared").at
        ours.append((shared - used) * 1000)
        r.send("quit")
        r.process.waitUntilExit()
        guard case let .videoRecorderDidFinishRecordingVideoWithOutputPath(take)? = try? EventEncoder().decode(line: handed) else {
            fail("no hand-over in \(handed)")
        }
        bytes.append(((try? FileManager.default.attributesOfItem(atPath: take)[.size]) as? Int) ?? 0)
        let out = folder.appendingPathComponent("ffmpeg-\(round).mp4").path
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        ffmpeg.arguments = ["-v", "error", "-y", "-i", take, "-c", "copy", "-movflags", "+faststart", out]
        let began = ProcessInfo.processInfo.systemUptime
        do { try ffmpeg.run() } catch { fail("cannot run ffmpeg: \(error)") }
        ffmpeg.waitUntilExit()
        theirs.append((ProcessInfo.processInfo.systemUptime - began) * 1000)
    }
    func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
    let ratios = zip(ours, theirs).map { $0 / $1 }
    printLine(["size": "\(frameSize)", "seconds": seconds, "rounds": rounds, "takeBytes": bytes,
               "useVideoToTakeSharedMs": ours.map { ($0 * 10).rounded() / 10 }, "oursMedianMs": median(ours),
               "ffmpegFaststartMs": theirs.map { ($0 * 10).rounded() / 10 }, "ffmpegMedianMs": median(theirs),
               "ratioMedian": (median(ratios) * 1000).rounded() / 1000])
}
