// kiosk-bench compare-booth: the whole booth (the real kiosk-recorder: capture from the fake V4L2
// camera serving a real clip's JPEGs, MJPEG decoding, the live preview, x264 and AAC, the file)
// recording N seconds, against the ffmpeg CLI recording the same JPEG stream at the same pace with
// the writer's own settings and no preview. Interleaved rounds; CPU (user + system from wait4: the
// whole process, start to exit) and peak RSS, medians; the ratio is the median of each round's pair;
// the booth's takes checked for drops by the frame numbers in their pictures.
import Foundation
import KioskCapture
import KioskContract
import KioskCore
import KioskMedia
import KioskSystem

/// Runs the booth once: ready, start, `seconds` of recording, stop, quit. CPU and peak RSS of the
/// process from wait4, and its take.
private func boothRound(recorder: String, device: String, size frameSize: Size, seconds: Double, output: String,
                        record: Bool = true, log: String? = nil, extra: [String] = []) -> (cpu: Double, rssMiB: Double, result: RecordingResult?) {
    unlink(output)
    var pid: pid_t = 0
    // Close-on-exec, all four: the child gets its two ends as its stdin and stdout (dup2).
    guard let toChild = try? FileDescriptor.pipe(), let fromChild = try? FileDescriptor.pipe() else { fail("pipe") }
    let childIn = toChild.read, ourOut = toChild.write, ourIn = fromChild.read, childOut = fromChild.write
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_adddup2(&actions, childIn.rawValue, 0)
    posix_spawn_file_actions_adddup2(&actions, childOut.rawValue, 1)
    posix_spawn_file_actions_addopen(&actions, 2, log ?? "/dev/null", O_WRONLY | (log == nil ? 0 : O_CREAT | O_APPEND), 0o644)
    let args = [recorder, "--camera", device, "--microphone", "test", "--size", "\(frameSize)", "--fps", "30", "--countdown", "0",
                "--video-encoder", VideoEncoderName.libx264.rawValue, "--windowed", "\(frameSize)", "--output", output] + extra
    let argv = args.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    guard posix_spawn(&pid, recorder, &actions, nil, argv, environ) == 0 else { fail("cannot run \(recorder)") }
    posix_spawn_file_actions_destroy(&actions)
    // The child's ends closed here: its copies are then the only ones.
    _ = consume childIn
    _ = consume childOut
    let input = FileHandle(fileDescriptor: ourOut.take(), closeOnDealloc: true)
    let events = FileHandle(fileDescriptor: ourIn.take(), closeOnDealloc: true)
    var buffer = Data()
    var finished: RecordingResult?
    func wait(for name: String) {
        while true {
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer = Data(buffer[(newline + 1)...])
                if case let .recordingFinished(result)? = try? EventEncoder().decode(line: line) { finished = result }
                if line.contains("\"event\":\"\(name)\"") { return }
            }
            let chunk = events.availableData
            if chunk.isEmpty { fail("kiosk-recorder ended before \(name)") }
            buffer += chunk
        }
    }
    wait(for: "ready")
    if record {
        input.write(Data("{\"command\":\"start\"}\n".utf8))
        wait(for: "recordingStarted")
        Thread.sleep(forTimeInterval: seconds)
        input.write(Data("{\"command\":\"stop\"}\n".utf8))
        wait(for: "recordingFinished")
    } else {
        Thread.sleep(forTimeInterval: seconds)
    }
    input.write(Data("{\"command\":\"quit\"}\n".utf8))
    var status: Int32 = 0
    var r = rusage()
    wait4(pid, &status, 0, &r)
    let cpu = Double(r.ru_utime.tv_sec) + Double(r.ru_utime.tv_usec) / 1e6 + Double(r.ru_stime.tv_sec) + Double(r.ru_stime.tv_usec) / 1e6
    return (cpu, Double(r.ru_maxrss) / 1024, finished)
}

func compareBooth(_ o: [String: String]) {
    let frameSize = size(o["size"])
    let seconds = Double(o["seconds"] ?? "") ?? 10
    let rounds = max(Int(o["rounds"] ?? "") ?? 5, 1)
    guard let footage = o["footage"] else { fail("compare-booth needs --footage CLIP (bench/footage fetches one)") }
    guard ProcessInfo.processInfo.environment["KIOSK_FAKE_CAMERA"] == "1" else {
        fail("compare-booth runs under Tests/FakeV4L2Camera/with-fake-camera (bench/booth-vs-ffmpeg does that)")
    }
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let recorder = o["recorder"] ?? me.deletingLastPathComponent().appendingPathComponent("kiosk-recorder").path
    // The camera on tmpfs: its buffers live in the file. The clip holds a unique number for every
    // frame of the longest take (plus the second or so before Start).
    let folder = "/dev/shm/kiosk-booth-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let clipFrames = Int((seconds + 5) * 30)
    let clip = o["clip"] ?? folder + "/clip.mjpeg"
    if o["clip"] == nil {
        let made = measure([me.path, "make-clip", "--footage", footage, "--size", "\(frameSize)", "--frames", "\(clipFrames)", "--output", clip,
                            "--chroma", o["chroma"] ?? "422"])
        Log.write("kiosk-bench: clip of \(clipFrames) frames made (\(made.cpu) s)\n")
    }
    let device = folder + "/video0"
    _ = FileManager.default.createFile(atPath: device, contents: nil)
    try? "card=Bench Cam\nformat=MJPG \(frameSize)@30\nclip=\(clip)\n".write(toFile: device + ".conf", atomically: true, encoding: .utf8)
    let settings = MovieSettings(outputPath: "/dev/null", videoSize: frameSize, fps: 30, audio: (TestTone.sampleRate, 1))
    let ffmpeg = ["ffmpeg", "-y", "-v", "error", "-re", "-f", "mjpeg", "-framerate", "30", "-i", clip,
                  // The booth's own test tone (TestTone: its beep, level and rate), as an expression.
                  "-f", "lavfi", "-i", "aevalsrc=if(lt(mod(t\\,1)\\,\(Double(TestTone.beepFrames) / Double(TestTone.sampleRate)))\\,"
                      + "\(Double(TestTone.amplitude) / 32768)*sin(2*PI*\(TestTone.frequency)*t)\\,0):s=\(TestTone.sampleRate):c=mono",
                  "-t", "\(seconds)", "-map", "0:v", "-map", "1:a"]
        + settings.videoTuning(encoder: .libx264).ffmpegArguments + MovieSettings.aacFFmpegArguments(sampleRate: TestTone.sampleRate, channels: 1)
        + ["-movflags", "+frag_keyframe", folder + "/ffmpeg.mov"]
    // The booth, `--against`'s build beside it (or the same booth keyed, `--keyed BACKGROUND`: the
    // green screen's cost), and the CLI (unless `--ffmpeg no`), each first in turn from round to round.
    let builds: [(recorder: String, extra: [String])] = [(recorder, [])] + (o["against"].map { [($0, [])] } ?? [])
        + (o["keyed"].map { [(recorder, ["--background", $0])] } ?? [])
    let withFFmpeg = o["ffmpeg"] != "no"
    var booth = builds.map { _ in [(cpu: Double, rssMiB: Double, result: RecordingResult?, frames: TakeFrames)]() }
    var theirs: [(cpu: Double, rssMiB: Double)] = []
    for round in 0..<rounds {
        let runs = builds.indices.map { index in {
            let take = folder + "/booth\(round)-\(index).mov"
            let run = boothRound(recorder: builds[index].recorder, device: device, size: frameSize, seconds: seconds, output: take, log: o["log"],
                                 extra: builds[index].extra)
            booth[index].append((run.cpu, run.rssMiB, run.result, takeFrames(in: take, clipFrames: clipFrames, counter: me)))
            unlink(take)
        } } + (withFFmpeg ? [{ theirs.append(measure(ffmpeg)) }] : [])
        for step in 0..<runs.count { runs[(step + round) % runs.count]() }
    }
    func thousandths(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    let oursCPU = median(booth[0].map(\.cpu))
    var result: [String: Any] = ["size": "\(frameSize)", "seconds": seconds, "rounds": rounds, "clipFrames": clipFrames,
                                 "chroma": o["chroma"] ?? "422", "boothCPUSeconds": oursCPU, "boothCPUAll": booth[0].map(\.cpu),
                                 "boothPercentOfOneCore": (100 * oursCPU / seconds).rounded(), "boothPeakRSSMiB": median(booth[0].map(\.rssMiB)),
                                 "boothDroppedFrames": booth[0].map { $0.result?.droppedFrames ?? -1 }, "framesMissingInTakes": booth[0].map(\.frames.missing),
                                 // The pictures each take kept, its longest gap (frame
                                 // intervals, from the pictures' numbers), the pictures the booth
                                 // skipped by plan, its pictures a second and its steps.
                                 "picturesKept": booth[0].map(\.frames.kept), "longestGap": booth[0].map(\.frames.longestGap),
                                 "gapsOver2": booth[0].map(\.frames.gapsOver2),
                                 "boothSkippedFrames": booth[0].map { $0.result?.skippedFrames ?? -1 },
                                 "boothFrameRate": booth[0].map { $0.result?.frameRate ?? -1 }, "boothEffortSteps": booth[0].map { $0.result?.effortSteps ?? -1 }]
    if withFFmpeg {
        let theirCPU = median(theirs.map(\.cpu))
        // The ratio of each round's pair (run one after the other), then their median: the machine's
        // speed drifts between rounds (one side's CPU varied by 15 % here), and a pair shares it.
        let pairs = zip(booth[0], theirs).map { $0.cpu / $1.cpu }
        result.merge(["ffmpegCPUSeconds": theirCPU, "ratio": thousandths(median(pairs)), "roundRatios": pairs.map(thousandths),
                      "ratioOfMedians": thousandths(oursCPU / theirCPU), "ffmpegCPUAll": theirs.map(\.cpu),
                      "ffmpegPercentOfOneCore": (100 * theirCPU / seconds).rounded(),
                      "ffmpegPeakRSSMiB": median(theirs.map(\.rssMiB))]) { a, _ in a }
    }
    if let background = o["keyed"], let runs = booth.last {
        // The keyed booth against the same booth unkeyed: each round's pair, then their median.
        let pairs = zip(runs, booth[0]).map { $0.cpu / $1.cpu }
        let cpu: [Double] = runs.map(\.cpu), kept: [Int] = runs.map(\.frames.kept), missing: [Int] = runs.map(\.frames.missing)
        let dropped: [Int] = runs.map { $0.result?.droppedFrames ?? -1 }, skipped: [Int] = runs.map { $0.result?.skippedFrames ?? -1 }
        let rates: [Double] = runs.map { $0.result?.frameRate ?? -1 }, steps: [Int] = runs.map { $0.result?.effortSteps ?? -1 }
        result["keyed"] = background
        result["keyedCPUSeconds"] = median(cpu)
        result["keyedCPUAll"] = cpu
        result["keyedRatio"] = thousandths(median(pairs))
        result["keyedRoundRatios"] = pairs.map(thousandths)
        result["keyedPeakRSSMiB"] = median(runs.map(\.rssMiB))
        result["keyedDroppedFrames"] = dropped
        result["keyedFramesMissingInTakes"] = missing
        result["keyedPicturesKept"] = kept
        result["keyedSkippedFrames"] = skipped
        result["keyedFrameRate"] = rates
        result["keyedEffortSteps"] = steps
    } else if let other = o["against"], let runs = booth.last {
        // Typed one by one: one literal of eleven mixed values took the type checker 4 s.
        let against: [String: Any] = [
            "against": other,
            "againstCPUSeconds": median(runs.map(\.cpu)) as Any,
            "againstCPUAll": runs.map(\.cpu) as [Double],
            "againstPeakRSSMiB": median(runs.map(\.rssMiB)) as Any,
            "againstDroppedFrames": runs.map { (run) -> Int in run.result?.droppedFrames ?? -1 },
            "againstFramesMissingInTakes": runs.map(\.frames.missing) as [Int],
            "againstPicturesKept": runs.map(\.frames.kept) as [Int],
            "againstLongestGap": runs.map(\.frames.longestGap) as [Int],
            "againstGapsOver2": runs.map(\.frames.gapsOver2) as [[[Int]]],
            "againstSkippedFrames": runs.map { (run) -> Int in run.result?.skippedFrames ?? -1 },
        ]
        result.merge(against) { a, _ in a }
    }
    printLine(result)
}

/// A take's pictures by their numbers (`count-frames`): how many, how many of the clip's are
/// missing between its first and last, and the longest step between two (-1 each when unread).
struct TakeFrames {
    var kept = -1, missing = -1, longestGap = -1
    /// Where the steps over 2 intervals are: [the picture after it, the step].
    var gapsOver2: [[Int]] = []
}

private func takeFrames(in take: String, clipFrames: Int, counter: URL) -> TakeFrames {
    let counted = Pipe()
    let p = Process()
    p.executableURL = counter
    p.arguments = ["count-frames", "--file", take, "--modulo", "\(clipFrames)"]
    p.standardOutput = counted
    try? p.run()
    let line = counted.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    let counts = (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
    return TakeFrames(kept: counts?["frames"] as? Int ?? -1, missing: counts?["missing"] as? Int ?? -1, longestGap: counts?["longestGap"] as? Int ?? -1,
                      gapsOver2: counts?["gapsOver2"] as? [[Int]] ?? [])
}

/// `preview-cost`: the booth in ready (the preview and the microphone's meter, nothing recording)
/// from the fake camera's clip (or, `--camera test`, the built-in test pattern: the preview without
/// a camera's decoding): CPU of a long stay minus a short one, over the difference, so the start-up
/// and exit cancel out. Rounds interleaved; medians.
func previewCost(_ o: [String: String]) {
    let frameSize = size(o["size"])
    let seconds = Double(o["seconds"] ?? "") ?? 10
    let rounds = max(Int(o["rounds"] ?? "") ?? 5, 1)
    guard let clip = o["clip"] else { fail("preview-cost needs --clip FILE (numbered JPEGs of the size: make-clip)") }
    guard ProcessInfo.processInfo.environment["KIOSK_FAKE_CAMERA"] == "1" else { fail("preview-cost runs under with-fake-camera") }
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let recorder = o["recorder"] ?? me.deletingLastPathComponent().appendingPathComponent("kiosk-recorder").path
    let folder = "/dev/shm/kiosk-preview-bench-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let device = folder + "/video0"
    _ = FileManager.default.createFile(atPath: device, contents: nil)
    // --camera yuyv: the fake camera as a raw YUYV webcam (its own moving picture, drawn in this
    // process's plugin: the same work for every build compared).
    let format = o["camera"] == "yuyv" ? "YUYV \(frameSize)@30" : "MJPG \(frameSize)@30\nclip=\(clip)"
    try? "card=Bench Cam\nformat=\(format)\n".write(toFile: device + ".conf", atomically: true, encoding: .utf8)
    let camera = o["camera"] == "test" ? "test" : device
    /// One round of one recorder: % of one core for the extra seconds, and peak RSS.
    func round(_ recorder: String) -> (percent: Double, rssMiB: Double) {
        let short = boothRound(recorder: recorder, device: camera, size: frameSize, seconds: 1, output: folder + "/t.mov", record: false)
        let long = boothRound(recorder: recorder, device: camera, size: frameSize, seconds: 1 + seconds, output: folder + "/t.mov", record: false)
        return (100 * (long.cpu - short.cpu) / seconds, long.rssMiB)
    }
    func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    var result: [String: Any] = ["size": "\(frameSize)", "seconds": seconds, "rounds": rounds, "camera": o["camera"] ?? "clip",
                                 "renderer": ProcessInfo.processInfo.environment["SDL_RENDER_DRIVER"] ?? "default"]
    var percents: [Double] = [], rss: [Double] = [], others: [Double] = [], otherRSS: [Double] = []
    for index in 0..<rounds {
        // --against OLD: another build of the recorder in the same rounds, interleaved (each first
        // in every other round), so the machine's drift between rounds falls on both alike.
        if let other = o["against"], index % 2 == 1 {
            let b = round(other); others.append(b.percent); otherRSS.append(b.rssMiB)
        }
        let a = round(recorder); percents.append(a.percent); rss.append(a.rssMiB)
        if let other = o["against"], index % 2 == 0 {
            let b = round(other); others.append(b.percent); otherRSS.append(b.rssMiB)
        }
    }
    result["previewPercentOfOneCore"] = tenths(median(percents))
    result["all"] = percents.map(tenths)
    result["peakRSSMiB"] = median(rss)
    if let other = o["against"] {
        result["against"] = other
        result["againstPercentOfOneCore"] = tenths(median(others))
        result["againstAll"] = others.map(tenths)
        result["againstPeakRSSMiB"] = median(otherRSS)
        // Each round's pair, then their median: this build's cost as a fraction of the other's.
        result["ratio"] = (median(zip(percents, others).map { $0 / $1 }) * 1000).rounded() / 1000
    }
    printLine(result)
}
