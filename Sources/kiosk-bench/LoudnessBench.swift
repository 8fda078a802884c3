// `kiosk-bench loudness`: `--loudness` at the hand-over on a 30 s take: our TakeLoudness
// (measure with libebur128, gain and limiter with libavfilter, the sound re-encoded, the picture
// copied, synced, renamed; in this process, as the booth's file worker runs it) against the ffmpeg
// CLI doing the same work on the same take: ebur128 to measure, then volume (and alimiter) with the
// video copied and the sound encoded by the same AAC encoder at the same rate. Rounds interleaved.
import Foundation
import KioskContract
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

/// `loudness --take FILE | --footage CLIP [--rounds N] [--target LUFS]`.
func loudnessBench(_ o: [String: String]) {
    let dir = NSTemporaryDirectory() + "kiosk-bench-loudness-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let take = o["take"] ?? dir + "/take.mov"
    if !FileManager.default.fileExists(atPath: take) {
        guard let footage = o["footage"] else { fail("loudness needs --take FILE or --footage CLIP") }
        makeShareTake(take, footage: footage, size: size(o["size"]), seconds: Double(o["seconds"] ?? "") ?? 30)
    }
    let rounds = max(1, Int(o["rounds"] ?? "") ?? 5)
    let target = Double(o["target"] ?? "") ?? -23
    let copy = dir + "/copy.mov", theirs = dir + "/ffmpeg.mov"
    var oursWall: [Double] = [], oursCPU: [Double] = [], theirsWall: [Double] = [], theirsCPU: [Double] = []
    var done: Leveling?
    func runOurs() {
        unlink(copy)
        do { try FileManager.default.copyItem(atPath: take, toPath: copy) } catch { fail("\(error)") }
        let cpu = usage().cpu, start = MonotonicClock.now()
        do { done = try TakeLoudness.level(copy, to: target) } catch { fail("\(error)") }
        oursWall.append(Double(MonotonicClock.now() - start) / 1e9)
        oursCPU.append(usage().cpu - cpu)
    }
    func runFFmpeg() {
        guard let done else { fail("the take needed no leveling at \(target) LUFS: pick another --target") }
        unlink(theirs)
        let start = MonotonicClock.now()
        let measured = measure(["ffmpeg", "-v", "error", "-i", take, "-map", "0:a", "-af", "ebur128=peak=true", "-f", "null", "-"])
        let chain = TakeLoudness.chain(gain: done.gain, limiting: done.limited)
        let encoded = measure(["ffmpeg", "-v", "error", "-i", take, "-map", "0", "-c:v", "copy", "-af", chain, "-c:a", "aac",
                               "-b:a", "\(MovieSettings.aacBitrate(channels: 1))", "-movflags", "+faststart", theirs])
        theirsWall.append(Double(MonotonicClock.now() - start) / 1e9)
        theirsCPU.append(measured.cpu + encoded.cpu)
    }
    runOurs()
    runFFmpeg()
    (oursWall, oursCPU, theirsWall, theirsCPU) = ([], [], [], [])
    for round in 0..<rounds {
        if round % 2 == 0 { runOurs(); runFFmpeg() } else { runFFmpeg(); runOurs() }
    }
    func ms(_ s: Double) -> Double { (s * 1e4).rounded() / 10 }
    let info = try? MovieProbe.inspect(take)
    printLine(["take": take, "takeSeconds": info?.duration ?? 0, "target": target, "rounds": rounds,
               "measured": done?.measured ?? 0, "gain": done?.gain ?? 0, "limited": done?.limited ?? false,
               "oursMedianMs": ms(median(oursWall)), "oursCPUMedianMs": ms(median(oursCPU)),
               "ffmpegMedianMs": ms(median(theirsWall)), "ffmpegCPUMedianMs": ms(median(theirsCPU)),
               "cpuRatio": (median(zip(oursCPU, theirsCPU).map { $0 / max($1, 1e-6) }) * 1000).rounded() / 1000,
               "wallRatio": (median(zip(oursWall, theirsWall).map { $0 / max($1, 1e-6) }) * 1000).rounded() / 1000,
               "oursMs": oursWall.map { ms($0) }, "ffmpegMs": theirsWall.map { ms($0) }])
}
