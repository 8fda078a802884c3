// `kiosk-bench share`: the share folder's cost on a real take. Our remux (ShareRendition,
// in this process, as the booth's file worker runs it) against `ffmpeg -c copy -movflags +faststart`
// on the same take, rounds interleaved; and the whole share folder (video, poster, page, published).
import Foundation
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

/// A take made by our MovieWriter from real footage (`--footage`, looped and scaled by ffmpeg to
/// yuv420p at 30 fps) with a 1 kHz tone as its sound: what a booth's take of that length holds.
func makeShareTake(_ path: String, footage: String, size: Size, seconds: Double, title: String? = nil) {
    let frames = Int(seconds * 30)
    let ffmpeg = Process()
    ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    ffmpeg.arguments = ["ffmpeg", "-v", "error", "-stream_loop", "-1", "-i", footage, "-vf",
                        "scale=\(size.width):\(size.height):flags=bicubic,fps=30", "-frames:v", "\(frames)",
                        "-pix_fmt", "yuv420p", "-f", "rawvideo", "-"]
    let pipe = Pipe()
    ffmpeg.standardOutput = pipe
    do { try ffmpeg.run() } catch { fail("cannot run ffmpeg: \(error)") }
    unlink(path)
    unlink(TakeFiles.markerPath(for: path))
    let done = DispatchSemaphore(value: 0)
    var settings = MovieSettings(outputPath: path, videoSize: size, fps: 30, audio: (48000, 1))
    settings.title = title
    let writer = MovieWriter(settings: settings) { _ in done.signal() }
    do { try writer.start() } catch { fail("\(error)") }
    let frameBytes = PixelFormat.yuv420p.frameBytes(for: size)
    let input = pipe.fileHandleForReading
    var nextAudio: Int64 = 0
    for k in 0..<frames {
        var data = Data()
        while data.count < frameBytes, let more = try? input.read(upToCount: frameBytes - data.count), !more.isEmpty { data += more }
        guard data.count == frameBytes else { break }
        let t = Int64(k) * 1_000_000_000 / 30
        while nextAudio <= t {
            let samples = (0..<480).map { i in Int16(8000 * sin(2 * Double.pi * 1000 * (Double(nextAudio) / 1e9 + Double(i) / 48000))) }
            writer.append(AudioChunk(samples: samples, channels: 1, sampleRate: 48000, timestamp: nextAudio))
            nextAudio += 10_000_000
        }
        writer.waitForRoom()
        writer.appendWaiting(VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size), bytes: [UInt8](data),
                                        timestamp: t, sequence: UInt32(k)))
    }
    writer.stop(reason: .user)
    done.wait()
    ffmpeg.waitUntilExit()
    // A bench take is nobody's to recover: its marker goes.
    unlink(TakeFiles.markerPath(for: path))
}

/// `share [--take FILE] [--footage CLIP [--size WxH] [--seconds S]] [--rounds N] [--dir D]`.
func shareBench(_ o: [String: String]) {
    let dir = o["dir"] ?? (NSTemporaryDirectory() + "kiosk-bench-share-\(getpid())")
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    // A take that is not there yet is made first (and kept, when --take names it: bench/share-remux caches it).
    let take = o["take"] ?? dir + "/take.mov"
    if !FileManager.default.fileExists(atPath: take) {
        guard let footage = o["footage"] else { fail("share needs --take FILE or --footage CLIP") }
        makeShareTake(take, footage: footage, size: size(o["size"]), seconds: Double(o["seconds"] ?? "") ?? 30)
    }
    let rounds = max(1, Int(o["rounds"] ?? "") ?? 5)
    var ours: [ShareWritten] = [], oursWall: [Double] = [], oursCPU: [Double] = [], theirsWall: [Double] = [], theirsCPU: [Double] = []
    func seconds(since start: Int64) -> Double { Double(MonotonicClock.now() - start) / 1e9 }
    func runOurs() {
        let token: String
        do { token = try ShareToken.make() } catch { fail("\(error)") }
        let cpu = usage().cpu, start = MonotonicClock.now()
        do { ours.append(try ShareRendition.write(ShareRequest(take: take, folder: dir + "/share", token: token, title: nil, language: .en))) } catch {
            fail("\(error)")
        }
        oursWall.append(seconds(since: start))
        oursCPU.append(usage().cpu - cpu)
        try? FileManager.default.removeItem(atPath: dir + "/share/" + token)
    }
    var theirsStart: [Double] = []
    func runFFmpeg() {
        let out = dir + "/ffmpeg.mp4"
        unlink(out)
        var start = MonotonicClock.now()
        let run = measure(["ffmpeg", "-v", "error", "-i", take, "-c", "copy", "-movflags", "+faststart", out])
        theirsWall.append(seconds(since: start))
        theirsCPU.append(run.cpu)
        // What of that is the CLI's start-up and end: one tiny picture made and thrown away.
        start = MonotonicClock.now()
        _ = measure(["ffmpeg", "-v", "error", "-f", "lavfi", "-i", "nullsrc=s=16x16", "-frames:v", "1", "-f", "null", "-"])
        theirsStart.append(seconds(since: start))
    }
    // One of each first, unmeasured: the take in the page cache and both sides' libraries loaded.
    runOurs()
    runFFmpeg()
    (ours, oursWall, oursCPU, theirsWall, theirsCPU, theirsStart) = ([], [], [], [], [], [])
    for round in 0..<rounds {
        if round % 2 == 0 { runOurs(); runFFmpeg() } else { runFFmpeg(); runOurs() }
    }
    func ms(_ s: Double) -> Double { (s * 1e4).rounded() / 10 }
    let remux = median(ours.map(\.remuxSeconds)), sync = median(ours.map(\.videoSyncSeconds))
    let remuxUnsynced = median(ours.map { $0.remuxSeconds - $0.videoSyncSeconds })
    let ffmpeg = median(theirsWall)
    let info = try? MovieProbe.inspect(take)
    printLine(["take": take, "takeSeconds": info?.duration ?? 0,
               "takeBytes": ((try? FileManager.default.attributesOfItem(atPath: take))?[.size] as? Int) ?? 0,
               "rounds": rounds, "videoBytes": ours.first?.videoBytes ?? 0,
               // The remux as the booth runs it (in its file worker, with video.mp4's fsync), and without the fsync.
               "oursRemuxMedianMs": ms(remux), "oursRemuxSyncMedianMs": ms(sync), "oursRemuxWithoutSyncMedianMs": ms(remuxUnsynced),
               // The ffmpeg CLI's whole run (its start-up included; it syncs nothing).
               "ffmpegMedianMs": ms(ffmpeg), "ffmpegCPUMedianMs": ms(median(theirsCPU)),
               "ffmpegStartUpMedianMs": ms(median(theirsStart)),
               // The median of the rounds' ratios (a pair shares the machine's speed at the time), and of the medians.
               "ratio": (median(zip(ours, theirsWall).map { $0.remuxSeconds / $1 }) * 1000).rounded() / 1000,
               "ratioOfMedians": (remux / ffmpeg * 1000).rounded() / 1000, "ratioWithoutSync": (remuxUnsynced / ffmpeg * 1000).rounded() / 1000,
               // The whole share folder: remux, poster, page, the folder synced and renamed.
               "oursWholeMedianMs": ms(median(oursWall)), "oursWholeCPUMedianMs": ms(median(oursCPU)),
               "posterMedianMs": ms(median(ours.map(\.posterSeconds))), "pageMedianMs": ms(median(ours.map(\.pageSeconds))),
               "publishMedianMs": ms(median(ours.map(\.publishSeconds))),
               "oursRemuxMs": ours.map { ms($0.remuxSeconds) }, "ffmpegMs": theirsWall.map { ms($0) }])
    if o["dir"] == nil { try? FileManager.default.removeItem(atPath: dir) }
}
