// `kiosk-bench boomerang`: the boomerang against the ffmpeg CLI making the same loop
// from the same pictures. The pictures: real footage (bench/footage: Big Buck Bunny) scaled to the
// size, 30 of them for a second at 30 fps, as raw 4:2:0. Ours (`boomerang-make`, a process of its
// own): the booth's MovieWriter takes them as a boomerang (the take's x264 preset and CRF, a key
// frame every third of a second), then makes its loop (BoomerangLoop: the capture's packets forward,
// the backward half decoded and encoded anew). The ffmpeg CLI's: split, reverse, trim the turning
// pictures, concat, loop to the same rounds, encoded with the same x264 settings (the boomerang's
// key frame interval: like with like), and again with the take's usual interval (a key frame a
// second), both with the index first. Whole processes, rounds interleaved: CPU seconds, and each file's bytes and SSIM
// against the same loop of the raw pictures (the quality trade-off is shown apart, not in the CPU).
import Foundation
import KioskCore
import KioskMedia
import KioskStorage
import KioskSystem

/// `boomerang --footage CLIP [--size WxH] [--pictures N] [--rounds N] [--dir D]`.
func boomerangBench(_ o: [String: String]) {
    guard let footage = o["footage"] else { fail("boomerang needs --footage CLIP") }
    let size = size(o["size"] ?? "1280x720")
    let count = Int(o["pictures"] ?? "") ?? 30, rounds = max(1, Int(o["rounds"] ?? "") ?? 5)
    let dir = o["dir"] ?? (NSTemporaryDirectory() + "kiosk-bench-boomerang")
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let raw = dir + "/pictures-\(size)-\(count).yuv"
    if !FileManager.default.fileExists(atPath: raw) {
        _ = measure(["ffmpeg", "-y", "-v", "error", "-i", footage, "-vf", "scale=\(size.width):\(size.height):flags=bicubic,fps=30",
                     "-frames:v", "\(count)", "-pix_fmt", "yuv420p", "-f", "rawvideo", raw])
    }
    let plan = BoomerangPlan(seconds: Double(count) / 30, frameRate: 30)
    let frames = plan.order(count: count).count, round = max(2 * count - 2, 1)
    // The same loop in the filter graph: forward, back without the turning pictures, whole rounds.
    let graph = "[0:v]split[f][b];[b]reverse,trim=start_frame=1:end_frame=\(count - 1),setpts=PTS-STARTPTS[r];"
        + "[f][r]concat=n=2:v=1:a=0,loop=loop=\(frames / round - 1):size=\(round),setpts=N/30/TB[v]"
    let input = ["-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(size)", "-r", "30", "-i", raw]
    var settings = MovieSettings(outputPath: "", videoSize: size, fps: 30, audio: nil)
    settings.boomerang = plan
    let sameTuning = settings.videoTuning(encoder: .libx264).ffmpegArguments
    settings.boomerang = nil
    let usualTuning = settings.videoTuning(encoder: .libx264).ffmpegArguments
    let ours = dir + "/ours.mp4", same = dir + "/ffmpeg-intra.mp4", usual = dir + "/ffmpeg-gop30.mp4", reference = dir + "/reference.yuv"
    _ = measure(["ffmpeg", "-y", "-v", "error"] + input + ["-filter_complex", graph, "-map", "[v]", "-f", "rawvideo", reference])
    let commands: [(name: String, command: [String], output: String)] = [
        ("ours", [CommandLine.arguments[0], "boomerang-make", "--pictures", raw, "--size", "\(size)", "--output", ours], ours),
        ("ffmpegSameSettings", ["ffmpeg", "-y", "-v", "error"] + input + ["-filter_complex", graph, "-map", "[v]"] + sameTuning
            + ["-movflags", "+faststart", same], same),
        ("ffmpegKeyFrameASecond", ["ffmpeg", "-y", "-v", "error"] + input + ["-filter_complex", graph, "-map", "[v]"] + usualTuning
            + ["-movflags", "+faststart", usual], usual),
    ]
    var cpu = [[Double]](repeating: [], count: commands.count)
    _ = commands.map { measure($0.command) } // one unmeasured round of each
    for r in 0..<rounds {
        let order = r % 2 == 0 ? Array(commands.indices) : Array(commands.indices.reversed())
        for i in order { cpu[i].append(measure(commands[i].command).cpu) }
    }
    var line: [String: Any] = ["size": "\(size)", "pictures": count, "loopFrames": frames, "rounds": rounds,
                               "footage": "Big Buck Bunny (c) Blender Foundation, CC BY 3.0 (bench/footage)"]
    for (i, c) in commands.enumerated() {
        line[c.name + "CPUMedianS"] = (median(cpu[i]) * 1000).rounded() / 1000
        line[c.name + "Bytes"] = ((try? FileManager.default.attributesOfItem(atPath: c.output))?[.size] as? Int) ?? 0
        line[c.name + "Frames"] = countFrames(c.output)
        line[c.name + "SSIM"] = ssim(c.output, reference: reference, size: size)
        if i > 0 { line["cpuRatioVs" + c.name.dropFirst("ffmpeg".count)] = (median(zip(cpu[0], cpu[i]).map { $0 / $1 }) * 1000).rounded() / 1000 }
    }
    printLine(line)
}

/// The pictures ffprobe decodes from `path`.
private func countFrames(_ path: String) -> Int {
    let p = Process(), pipe = Pipe()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path]
    p.standardOutput = pipe
    guard (try? p.run()) != nil else { return 0 }
    let out = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return Int(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
}

/// ffmpeg's SSIM (All) of `path`'s pictures against the raw reference's, picture by picture.
private func ssim(_ path: String, reference: String, size: Size) -> Double {
    let p = Process(), pipe = Pipe()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["ffmpeg", "-v", "info", "-nostats", "-i", path, "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(size)", "-r", "30",
                   "-i", reference, "-lavfi", "[0:v][1:v]ssim", "-f", "null", "-"]
    p.standardError = pipe
    p.standardOutput = FileHandle.nullDevice
    guard (try? p.run()) != nil else { return 0 }
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    p.waitUntilExit()
    guard let all = text.components(separatedBy: " All:").last?.split(separator: " ").first else { return 0 }
    return ((Double(all) ?? 0) * 10000).rounded() / 10000
}

/// `boomerang-make --pictures RAW --size WxH --output FILE`: the booth's writer takes the raw 4:2:0
/// pictures as a boomerang (30 fps), and its file becomes their loop, as in the booth.
func boomerangMake(_ o: [String: String]) {
    guard let raw = o["pictures"], let output = o["output"] else { fail("boomerang-make needs --pictures RAW and --output FILE") }
    let size = size(o["size"] ?? "1280x720")
    guard let data = FileManager.default.contents(atPath: raw) else { fail("cannot read \(raw)") }
    let frameBytes = PixelFormat.yuv420p.frameBytes(for: size)
    let count = data.count / frameBytes
    unlink(output)
    unlink(TakeFiles.markerPath(for: output))
    var settings = MovieSettings(outputPath: output, videoSize: size, fps: 30, audio: nil)
    settings.boomerang = BoomerangPlan(seconds: Double(count) / 30, frameRate: 30)
    let done = DispatchSemaphore(value: 0)
    let writer = MovieWriter(settings: settings) { result in
        if !result.success { Log.write("boomerang-make: \(result.lost ?? "failed")\n") }
        done.signal()
    }
    do { try writer.start() } catch { fail("\(error)") }
    let bytes = [UInt8](data)
    for k in 0..<count {
        writer.waitForRoom()
        writer.appendWaiting(VideoFrame(format: .yuv420p, size: size, planes: PixelFormat.yuv420p.planes(for: size),
                                        bytes: Array(bytes[(k * frameBytes)..<((k + 1) * frameBytes)]),
                                        timestamp: Int64(k) * 1_000_000_000 / 30, sequence: UInt32(k)))
    }
    writer.stop(reason: .maxDuration)
    done.wait()
    // A bench's boomerang is nobody's to recover: its marker goes.
    unlink(TakeFiles.markerPath(for: output))
}

/// `boomerang-booth [--recorder PATH] [--size WxH] [--seconds S] [--rounds N]`: the release booth
/// (test camera, SDL dummy drivers, a loop session) makes N boomerangs of S seconds, each used; for
/// each, from its stderr lines as they come: how long after the last picture was captured the loop
/// was in place (the writer's own measure), and when the finished screen's loop put its first
/// picture on the screen, from the same moment; and the booth's memory: resident in ready, and its
/// peak after the boomerangs.
func boomerangBooth(_ o: [String: String]) {
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let recorder = o["recorder"] ?? me.deletingLastPathComponent().appendingPathComponent("kiosk-recorder").path
    let frameSize = size(o["size"] ?? "1280x720")
    let rounds = Int(o["rounds"] ?? "") ?? 5, seconds = o["seconds"] ?? "1"
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("boomerang-booth-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let r = BenchRecorder(recorder, arguments: ["--camera", "test", "--microphone", "none", "--size", "\(frameSize)", "--windowed", "\(frameSize)",
                                                "--countdown", "0", "--session", "loop", "--boomerang-button", "--boomerang-seconds", seconds,
                                                "--output-dir", folder.appendingPathComponent("takes").path], logging: true)
    r.wait(for: "ready")
    Thread.sleep(forTimeInterval: 2)
    func status(_ key: String) -> Double {
        let text = (try? String(contentsOfFile: "/proc/\(r.process.processIdentifier)/status", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix(key + ":") } ?? ""
        return (Double(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
    }
    let readyMiB = status("VmRSS")
    var inPlace: [Double] = [], reviewed: [Double] = [], bytes = 0
    for _ in 0..<rounds {
        let before = r.stderrLines.count
        r.send("boomerang")
        r.wait(for: "recordingStarted")
        let finished = r.line(of: "recordingFinished")
        bytes = Int(finished.line.components(separatedBy: "\"bytes\":").last?.split(separator: ",").first ?? "") ?? 0
        // The review's first picture comes after the event: waited for in its log line.
        var lines: [(at: Double, line: String)] = []
        let deadline = ProcessInfo.processInfo.systemUptime + 5
        while ProcessInfo.processInfo.systemUptime < deadline {
            lines = Array(r.stderrLines.dropFirst(before))
            if lines.contains(where: { $0.line.contains("playback: first picture on screen") }) { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        if let made = lines.first(where: { $0.line.contains("ms after its last picture was captured") }),
           let ms = Double(made.line.components(separatedBy: "in place ").last?.split(separator: " ").first ?? "") {
            inPlace.append(ms)
            let lastPicture = made.at - ms / 1000
            if let shown = lines.first(where: { $0.line.contains("playback: first picture on screen") }) {
                reviewed.append(((shown.at - lastPicture) * 1000).rounded())
            }
        }
        r.send("useVideo")
        r.wait(for: "videoRecorderDidFinishRecordingVideoWithOutputPath")
    }
    let peakMiB = status("VmHWM")
    r.send("quit")
    r.process.waitUntilExit()
    printLine(["size": "\(frameSize)", "seconds": Double(seconds) ?? 1, "rounds": rounds, "loopBytes": bytes,
               "loopInPlaceAfterLastPictureMs": inPlace, "reviewFirstPictureAfterLastPictureMs": reviewed,
               "reviewMedianMs": reviewed.isEmpty ? -1 : median(reviewed), "reviewWorstMs": reviewed.max() ?? -1,
               "readyRSSMiB": (readyMiB * 10).rounded() / 10, "peakRSSMiB": (peakMiB * 10).rounded() / 10,
               "peakOverReadyMiB": ((peakMiB - readyMiB) * 10).rounded() / 10])
}
