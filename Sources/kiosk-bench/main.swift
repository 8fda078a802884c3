// kiosk-bench: benchmarks and headless takes of the real writer, run by the bench/ scripts and tests.
import Foundation
import KioskCapture
import KioskCore
import KioskOptions
import KioskMedia
import KioskStorage
import KioskSystem

let usageText = """
    Usage: kiosk-bench COMMAND [options]
      layout --size WxH
          Layout's rectangles for that screen (with the Boomerang and photo buttons), one a line
      encode --input FILE --size WxH [--frames N] [--preset P] [--output PATH]
          feed the real MovieWriter a raw YUYV file as fast as it takes it; prints a JSON line
      compare-encode [--footage CLIP | --source pattern] [--size WxH] [--frames N] [--rounds N] [--preset P] [--instructions yes]
          make a YUYV input (real footage, or ffmpeg's test pattern), then run `encode` and the
          ffmpeg CLI with the writer's own settings, interleaved, and print median CPU seconds,
          peak RSS, bytes and the ratio ours/ffmpeg; with --instructions yes, each side once under
          callgrind instead: instructions executed (repeatable to a few thousand), libx264's own
          beside everything else's, and the split into start-up and each further frame
      compare-booth --footage CLIP [--size WxH] [--seconds S] [--rounds N] [--chroma 422|420] [--recorder PATH] [--clip FILE] [--log FILE]
                    [--against RECORDER | --keyed PICTURE] [--ffmpeg no]
          (under with-fake-camera) the whole booth recording S seconds from the fake camera serving
          the clip's numbered JPEGs, with its preview, against the ffmpeg CLI recording the same
          JPEGs at the same pace with the writer's settings; median CPU, peak RSS, drops; --log: the
          booth's stderr appended to FILE; --against: another build of kiosk-recorder in the same
          rounds (its CPU, RSS and drops); --keyed: the same booth with --background PICTURE in the
          same rounds (the key's CPU ratio, drops); --ffmpeg no: the booths only
      preview-cost --clip FILE [--size WxH] [--seconds S] [--rounds N] [--camera test|yuyv] [--against RECORDER]
          (under with-fake-camera) the booth in ready, previewing the clip: % of one core, from the
          CPU of a stay S seconds longer than another; --against: another build of kiosk-recorder
          in the same rounds, interleaved, and the median of the rounds' ratios
      trial-cost --footage CLIP [--size WxH] [--frames N] [--rounds N] [--grain G] [--stepped-threads N]
          libx264 as `--check` opens it, CPU ms a picture at each effort, on the trial's own pictures
          (TrialFootage), the test pattern and the footage through a webcam's JPEGs, rounds
          interleaved; medians and each against the footage's
      make-clip --footage CLIP --size WxH --frames N --output FILE [--chroma 422|420]
          the clip looped to N frames, each numbered (FrameStamp), as concatenated JPEGs for the
          fake camera's clip=
      count-frames --file TAKE [--modulo N]
          the frame numbers in a take's pictures: how many, first, last, missing, repeated
      tuning [--size WxH] [--fps N] [--preset P]
          print the writer's encoder settings as ffmpeg CLI output options, one per line
      capture --camera PATH|test [--size WxH] [--fps N] [--seconds S]
          run a camera alone for S seconds; prints frames, drops and CPU use (% of one core)
      stop-latency [--recorder PATH] [--size WxH] [--rounds N] [--seconds S]
      share-step [--recorder PATH] [--size WxH] [--rounds N] [--seconds S] [--dir FOLDER]
          run kiosk-recorder (test camera and tone, SDL dummy driver), record S seconds, stop, and
          time Stop → recordingFinished, and exec → ready
      kill-loss [--recorder PATH] [--against RECORDER] [--size WxH] [--kills N]
          run kiosk-recorder (test camera and tone, SDL dummy driver), Start, kill -9 at a random
          moment 1.3-3.5 s into the take, N times; the seconds of the take each file lost (ffprobe),
          median and worst; --against: another build killed at the same moments, interleaved
      convert-yuyv [--size WxH]
          a YUYV camera's conversion to 4:2:0 alone (YUYVFrames), microseconds a frame at each
          vector width (AVX2, SSE2, scalar): the frame from memory, and in cached 16-row bands
      overlay-blend [--sizes 1280x720,1920x1080]
          the overlay's blend alone (OverlayPlanes, as the writer burns --overlay into each picture):
          microseconds a picture for a booth's frame and for a picture covered all over, at each
          vector width, against a plain copy of the same planes
      share [--take FILE] [--footage CLIP [--size WxH] [--seconds S]] [--rounds N] [--dir D]
          the share folder of a take (made first from the clip by the real writer, with a
          tone, when FILE is missing): our remux (ShareRendition, in this process) against `ffmpeg
          -c copy -movflags +faststart` on the same take, rounds interleaved, medians and the
          ratio; and the whole folder's steps (poster, page, publish)
      loudness [--take FILE] [--footage CLIP [--size WxH] [--seconds S]] [--rounds N] [--target LUFS]
          --loudness at the hand-over (TakeLoudness, in this process) on a take (made first from the
          clip with a tone when FILE is missing) against the ffmpeg CLI's ebur128 and its volume and
          alimiter with the video copied, rounds interleaved: medians (ms, wall and CPU) and ratios
      handover [--recorder PATH] [--size WxH] [--seconds S] [--review S] [--rounds N] [--loudness LUFS]
          run kiosk-recorder (test camera and tone), record S seconds (30), review for a few, Use Video:
          the time to the outcome event with --loudness (its copy made during the review) and without
      key --footage CLIP [--size WxH] [--pictures N] [--rounds N]
          the green screen's graph alone (PictureKey) on N pictures of the clip over a green backdrop,
          against the ffmpeg CLI's same filters on the same frames (less its reading): CPU ms, ratio
      boomerang --footage CLIP [--size WxH] [--pictures N] [--rounds N] [--dir D]
          a boomerang of N raw pictures of the clip: ours (boomerang-make: the booth's
          writer, each picture a key frame, the loop a reorder of the packets) against the ffmpeg CLI's
          split/reverse/trim/concat/loop with the same x264 settings and with a key frame a second,
          rounds interleaved: median CPU seconds, the ratios, bytes and SSIM against the raw loop
      boomerang-booth [--recorder PATH] [--size WxH] [--seconds S] [--rounds N]
          the release booth makes N boomerangs (test camera): each loop in place and the review's
          first picture, in ms after the last picture was captured; resident memory in ready and peak
      reel --footage CLIP [--takes N] [--seconds S] [--size WxH] [--rounds N] [--recorder PATH] [--dir D]
          the hosts' film of N takes (made once from the clip by the real writer, with a tone and a
          question each): `kiosk-recorder reel` against one ffmpeg CLI run doing the same (scale, pad,
          fps, loudnorm, drawtext cards, concat, the writer's x264 settings, AAC, faststart), rounds
          interleaved: median CPU and wall seconds and the ratios
      versions
          print the linked FFmpeg libraries
      preview [--recorder PATH] [--size WxH] [--fps N] [--seconds S]
          run kiosk-recorder (test camera and tone, SDL software renderer; x11 when DISPLAY is set,
          else dummy), tap Record, record S seconds (60), tap Stop; prints preview fps, dropped
          preview frames, exec → ready and tap → effect as one JSON line

    """

func fail(_ message: String) -> Never {
    Log.write("kiosk-bench: \(message)\n")
    exit(2)
}

/// `--key value` pairs after the command.
func options(_ args: ArraySlice<String>) -> [String: String] {
    var result: [String: String] = [:]
    var i = args.startIndex
    while i < args.endIndex {
        let key = args[i]
        guard key.hasPrefix("--"), i + 1 < args.endIndex else { fail("bad option \(key)\n" + usageText) }
        result[String(key.dropFirst(2))] = args[i + 1]
        i += 2
    }
    return result
}

func size(_ text: String?) -> Size {
    let parts = (text ?? "1280x720").split(separator: "x").compactMap { Int($0) }
    guard parts.count == 2 else { fail("bad size \(text ?? "")") }
    return Size(width: parts[0], height: parts[1])
}

func printLine(_ object: [String: Any]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}

/// CPU seconds and peak RSS (MiB) of this process so far.
func usage() -> (cpu: Double, rssMiB: Double) {
    var r = rusage()
    getrusage(RUSAGE_SELF.rawValue, &r)
    let cpu = Double(r.ru_utime.tv_sec) + Double(r.ru_utime.tv_usec) / 1e6 + Double(r.ru_stime.tv_sec) + Double(r.ru_stime.tv_usec) / 1e6
    return (cpu, Double(r.ru_maxrss) / 1024)
}

/// Feeds the writer a raw YUYV file, frame by frame, stamped at 30 fps.
func encode(_ o: [String: String]) {
    // The writer in a process set up as the booth's: malloc as kiosk-recorder's first step sets it
    // (two arenas, frames' memory kept for reuse).
    MallocArenas.configure(environment: ProcessInfo.processInfo.environment)
    guard let input = o["input"] else { fail("encode needs --input") }
    let frameSize = size(o["size"])
    let output = o["output"] ?? (NSTemporaryDirectory() + "kiosk-bench-\(getpid()).mov")
    // The writer creates a new file only, and not over a take's marker; a bench round may reuse a name.
    unlink(output)
    unlink(TakeFiles.markerPath(for: output))
    guard let file = try? FileDescriptor.open(input, O_RDONLY | O_CLOEXEC) else { fail("cannot read \(input)") }
    // Open until this function returns.
    let fd = file.rawValue
    // The input as a YUYV camera's frames reach the writer: made 4:2:0 as they are copied in
    // (YUYVFrames, as V4L2Camera copies them out of the driver's buffer), here a band of rows per
    // read(2), so the band is converted while it is in the cache. One read a frame into a frame's
    // buffer and a conversion after it cost 1-3 % more CPU (the bitstream is the same).
    let pitch = 2 * frameSize.width
    let bandRows = 16
    var band = [UInt8](repeating: 0, count: bandRows * pitch)
    /// The next frame, or nil at the end of the input (a partial frame is not one).
    func nextFrame(_ number: Int) -> VideoFrame? {
        var complete = true
        let count = PixelFormat.yuv420p.frameBytes(for: frameSize)
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            band.withUnsafeMutableBufferPointer { band in
                var row = 0
                while complete && row < frameSize.height {
                    let rows = min(bandRows, frameSize.height - row), wanted = rows * pitch
                    var got = 0
                    while got < wanted {
                        let n = read(fd, band.baseAddress! + got, wanted - got)
                        if n <= 0 { break }
                        got += n
                    }
                    complete = got == wanted
                    if complete {
                        YUYVFrames.convert(band.baseAddress!, pitch: pitch, rows: row..<(row + rows), size: frameSize, into: buffer.baseAddress!)
                    }
                    row += rows
                }
            }
            initialized = complete ? count : 0
        }
        guard complete else { return nil }
        return VideoFrame(format: .yuv420p, size: frameSize, planes: YUYVFrames.planes(for: frameSize), bytes: bytes,
                          timestamp: Int64(number) * 1_000_000_000 / 30, sequence: UInt32(number))
    }
    let limit = Int(o["frames"] ?? "") ?? Int.max
    var settings = MovieSettings(outputPath: output, videoSize: frameSize, fps: 30, audio: nil)
    settings.preset = o["preset"] ?? "veryfast"
    let done = DispatchSemaphore(value: 0)
    let writer = MovieWriter(settings: settings) { _ in done.signal() }
    let wall = Date()
    do { try writer.start() } catch { fail("\(error)") }
    var frames = 0
    // Each frame read once the writer has encoded the last (as the ffmpeg CLI reads, converts and
    // encodes in turn): no raw frame waits in this process beside the one being encoded.
    while frames < limit {
        writer.waitForRoom()
        guard let frame = nextFrame(frames) else { break }
        writer.appendWaiting(frame)
        frames += 1
    }
    writer.stop(reason: .user)
    done.wait()
    let (cpu, rss) = usage()
    // A bench take is nobody's to recover: its marker goes.
    unlink(TakeFiles.markerPath(for: output))
    if o["output"] == nil { try? FileManager.default.removeItem(atPath: output) }
    printLine(["frames": frames, "cpuSeconds": cpu, "wallSeconds": Date().timeIntervalSince(wall), "peakRSSMiB": rss])
}

/// Runs a command to its end and returns its own CPU seconds and peak RSS (from wait4).
func measure(_ arguments: [String]) -> (cpu: Double, rssMiB: Double) {
    var pid: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    guard posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ) == 0 else { fail("cannot run \(arguments[0])") }
    var status: Int32 = 0
    var r = rusage()
    wait4(pid, &status, 0, &r)
    guard status == 0 else { fail("\(arguments.joined(separator: " ")) failed (\(status))") }
    let cpu = Double(r.ru_utime.tv_sec) + Double(r.ru_utime.tv_usec) / 1e6 + Double(r.ru_stime.tv_sec) + Double(r.ru_stime.tv_usec) / 1e6
    return (cpu, Double(r.ru_maxrss) / 1024)
}

/// The input for an encode comparison: `frames` raw YUYV frames of `size`, from real footage
/// (`footage`: a clip, looped, scaled with the same filter for every size) or ffmpeg's test pattern.
func makeYUYVInput(_ path: String, size: Size, frames: Int, footage: String?) {
    var args = ["ffmpeg", "-y", "-v", "error"]
    if let footage {
        args += ["-stream_loop", "-1", "-i", footage, "-vf", "scale=\(size.width):\(size.height):flags=bicubic,fps=30"]
    } else {
        args += ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=30"]
    }
    _ = measure(args + ["-frames:v", "\(frames)", "-pix_fmt", "yuyv422", "-f", "rawvideo", path])
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Instructions a command executes, under callgrind (valgrind): for the same binary, input and
/// settings the count moves by a few thousand in billions (threads interleave differently),
/// whatever else the machine does, so a small difference is not noise. Returns
/// the total and each shared object's own instructions (its functions' self cost).
func countInstructions(_ arguments: [String], in folder: String) -> (total: Int, objects: [String: Int]) {
    let out = folder + "/callgrind.out"
    unlink(out)
    guard ["/usr/bin/valgrind", "/usr/local/bin/valgrind"].contains(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        fail("--instructions needs valgrind (Debian: apt-get install valgrind)")
    }
    _ = measure(["valgrind", "--tool=callgrind", "-q", "--callgrind-out-file=\(out)", "--"] + arguments)
    let pipe = Pipe()
    let annotate = Process()
    annotate.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    annotate.arguments = ["callgrind_annotate", "--inclusive=no", "--threshold=100", out]
    annotate.standardOutput = pipe
    do { try annotate.run() } catch { fail("cannot run callgrind_annotate: \(error)") }
    let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    annotate.waitUntilExit()
    var total = 0, objects: [String: Int] = [:]
    // "1,234 (0.5%)  file:function [/path/to/object]" per function, and "1,234 (100.0%)  PROGRAM TOTALS".
    for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard let first = fields.first, let count = Int(first.replacingOccurrences(of: ",", with: "")) else { continue }
        if line.hasSuffix("PROGRAM TOTALS") { total = count; continue }
        guard line.hasSuffix("]"), let open = line.lastIndex(of: "[") else { continue }
        let object = URL(fileURLWithPath: String(line[line.index(after: open)..<line.index(before: line.endIndex)])).lastPathComponent
        objects[object, default: 0] += count
    }
    guard total > 0 else { fail("no instruction count from callgrind for \(arguments[0])") }
    return (total, objects)
}

/// `compare-encode --instructions yes`: each side once under callgrind, with `frames` and with one
/// frame, so the split (start-up with the first frame, each further frame) is in instructions,
/// and libx264's own share on each side beside everything else's.
func compareEncodeInstructions(ours: @escaping (Int) -> [String], ffmpeg: @escaping (Int) -> [String], frames: Int,
                               folder: String) -> [String: Any] {
    let sides: [(String, (Int) -> [String])] = [("ours", ours), ("ffmpeg", ffmpeg)]
    var result: [String: Any] = [:]
    var totals: [String: Int] = [:], perFrame: [String: Double] = [:], x264: [String: Int] = [:]
    var x264PerFrame: [String: Double] = [:]
    for (name, command) in sides {
        let all = countInstructions(command(frames), in: folder), one = countInstructions(command(1), in: folder)
        func encoderShare(_ objects: [String: Int]) -> Int { objects.filter { $0.key.hasPrefix(VideoEncoderName.libx264.rawValue) }.values.reduce(0, +) }
        let encoder = encoderShare(all.objects), encoderOne = encoderShare(one.objects)
        totals[name] = all.total
        x264[name] = encoder
        perFrame[name] = Double(all.total - one.total) / Double(max(frames - 1, 1))
        result[name + "Instructions"] = all.total
        result[name + "X264Instructions"] = encoder
        result[name + "OtherInstructions"] = all.total - encoder
        result[name + "FirstFrameInstructions"] = one.total
        result[name + "PerFrameInstructions"] = Int(perFrame[name]!.rounded())
        // Each further frame: libx264's part and the rest's (reading, converting, muxing, writing).
        let framesAfter = Double(max(frames - 1, 1))
        x264PerFrame[name] = Double(encoder - encoderOne) / framesAfter
        result[name + "X264PerFrameInstructions"] = Int(x264PerFrame[name]!.rounded())
        result[name + "OtherPerFrameInstructions"] = Int((perFrame[name]! - x264PerFrame[name]!).rounded())
        // The five objects besides libx264 that cost most, in millions.
        let others = all.objects.filter { !$0.key.hasPrefix(VideoEncoderName.libx264.rawValue) }.sorted { $0.value > $1.value }.prefix(5)
        var top: [String: Double] = [:]
        for (object, count) in others { top[object] = (Double(count) / 1e4).rounded() / 100 }
        result[name + "TopOthersMillions"] = top
    }
    func ratio(_ a: Double, _ b: Double) -> Double { (a / b * 10000).rounded() / 10000 }
    result["ratio"] = ratio(Double(totals["ours"]!), Double(totals["ffmpeg"]!))
    result["x264Ratio"] = ratio(Double(x264["ours"]!), Double(x264["ffmpeg"]!))
    result["perFrameRatio"] = ratio(perFrame["ours"]!, perFrame["ffmpeg"]!)
    result["x264ShareOfFFmpeg"] = ratio(Double(x264["ffmpeg"]!), Double(totals["ffmpeg"]!))
    // The least each further frame could cost against the CLI's if nothing but libx264 ran on our side.
    result["perFrameRatioFloor"] = ratio(x264PerFrame["ours"]!, perFrame["ffmpeg"]!)
    return result
}

/// The writer against the ffmpeg CLI on the same raw input with the writer's own encoder settings
/// (`MovieSettings.videoTuning`, read here, not copied), rounds interleaved, medians of CPU (user +
/// system from wait4) and the peak RSS of each side, and the median of the rounds' CPU ratios.
func compareEncode(_ o: [String: String]) {
    let frameSize = size(o["size"])
    let frames = Int(o["frames"] ?? "") ?? 150
    let rounds = max(Int(o["rounds"] ?? "") ?? 5, 1)
    let preset = o["preset"] ?? "veryfast"
    let footage = o["source"] == "pattern" ? nil : (o["footage"] ?? ProcessInfo.processInfo.environment["KIOSK_FOOTAGE"])
    if o["source"] != "pattern" && footage == nil { fail("compare-encode needs --footage CLIP (bench/footage fetches one) or --source pattern") }
    let folder = NSTemporaryDirectory() + "kiosk-compare-\(getpid())"
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let input = folder + "/input.yuv"
    makeYUYVInput(input, size: frameSize, frames: frames, footage: footage)
    var settings = MovieSettings(outputPath: folder + "/ours.mov", videoSize: frameSize, fps: 30, audio: nil)
    settings.preset = preset
    let tuning = settings.videoTuning(encoder: .libx264)
    let me = CommandLine.arguments[0].contains("/") ? CommandLine.arguments[0] : "kiosk-bench"
    let ffmpeg = ["ffmpeg", "-y", "-v", "error", "-f", "rawvideo", "-pix_fmt", "yuyv422", "-s", "\(frameSize)", "-r", "30",
                  "-i", input] + tuning.ffmpegArguments + [folder + "/ffmpeg.mov"]
    if o["instructions"] == "yes" {
        // Valgrind 3.19 cannot read the DWARF 5 that Swift's clang writes: a copy without it
        // (the same code and symbols).
        let plain = folder + "/kiosk-bench"
        _ = measure(["strip", "--strip-debug", "-o", plain, me])
        let counts = compareEncodeInstructions(
            ours: { count in [plain, "encode", "--input", input, "--size", "\(frameSize)", "--frames", "\(count)", "--preset", preset,
                              "--output", folder + "/ours-\(count).mov"] },
            ffmpeg: { count in Array(ffmpeg.dropLast()) + ["-frames:v", "\(count)", folder + "/ffmpeg-\(count).mov"] },
            frames: frames, folder: folder)
        printLine(counts.merging(["source": footage.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "testsrc2",
                                  "size": "\(frameSize)", "frames": frames, "counter": "callgrind (instructions executed)",
                                  "ffmpegArguments": tuning.ffmpegArguments.joined(separator: " ")]) { a, _ in a })
        return
    }
    var ours: [(cpu: Double, rssMiB: Double)] = [], theirs: [(cpu: Double, rssMiB: Double)] = []
    // Each round also encodes one frame on each side: start-up and the first frame, so what the
    // rest costs a frame is known on each side (the split of the ratio).
    var oursOne: [Double] = [], theirsOne: [Double] = []
    let ffmpegOne = Array(ffmpeg.dropLast()) + ["-frames:v", "1", folder + "/ffmpeg-one.mov"]
    for round in 0..<rounds {
        // Interleaved, each side first in every other round.
        let oursRun = { (count: Int) in
            measure([me, "encode", "--input", input, "--size", "\(frameSize)", "--frames", "\(count)", "--preset", preset,
                     "--output", folder + (count == 1 ? "/ours-one.mov" : "/ours.mov")])
        }
        if round % 2 == 0 {
            ours.append(oursRun(frames)); theirs.append(measure(ffmpeg))
            oursOne.append(oursRun(1).cpu); theirsOne.append(measure(ffmpegOne).cpu)
        } else {
            theirs.append(measure(ffmpeg)); ours.append(oursRun(frames))
            theirsOne.append(measure(ffmpegOne).cpu); oursOne.append(oursRun(1).cpu)
        }
    }
    func milliseconds(_ seconds: Double) -> Double { (seconds * 1e5).rounded() / 100 }
    let oursFirst = median(oursOne), theirFirst = median(theirsOne)
    func bytes(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0 }
    let oursCPU = median(ours.map(\.cpu)), theirCPU = median(theirs.map(\.cpu))
    printLine(["source": footage.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "testsrc2", "size": "\(frameSize)",
               "frames": frames, "rounds": rounds, "ffmpegArguments": tuning.ffmpegArguments.joined(separator: " "),
               "oursCPUSeconds": oursCPU, "ffmpegCPUSeconds": theirCPU,
               // Each round's pair shares the machine's speed at the time: the median of the pairs'
               // ratios (as the booth's benchmark), and the ratio of the medians beside it.
               "ratio": (median(zip(ours, theirs).map { $0.cpu / $1.cpu }) * 1000).rounded() / 1000,
               "roundRatios": zip(ours, theirs).map { ($0.cpu / $1.cpu * 1000).rounded() / 1000 },
               "ratioOfMedians": (oursCPU / theirCPU * 1000).rounded() / 1000,
               "oursCPUAll": ours.map(\.cpu), "ffmpegCPUAll": theirs.map(\.cpu),
               "oursPeakRSSMiB": median(ours.map(\.rssMiB)), "ffmpegPeakRSSMiB": median(theirs.map(\.rssMiB)),
               // Start-up with the first frame, and each further frame (the medians' difference).
               "oursFirstFrameMs": milliseconds(oursFirst), "ffmpegFirstFrameMs": milliseconds(theirFirst),
               "oursPerFrameMs": milliseconds((oursCPU - oursFirst) / Double(max(frames - 1, 1))),
               "ffmpegPerFrameMs": milliseconds((theirCPU - theirFirst) / Double(max(frames - 1, 1))),
               "oursBytes": bytes(folder + "/ours.mov"), "ffmpegBytes": bytes(folder + "/ffmpeg.mov")])
}

/// Capture alone: what taking frames costs (everything in this process, including a fake camera's
/// plugin when it is one, so the figure is an upper bound for our code). `environment`: as the booth
/// reads it (where `auto` would look for cameras).
func captureBench(_ o: [String: String], environment: KioskEnvironment) {
    let frameSize = size(o["size"])
    let fps = Double(o["fps"] ?? "") ?? 30
    let seconds = Double(o["seconds"] ?? "") ?? 10
    let choice: CameraChoice = o["camera"] == "test" ? .test : .device(o["camera"] ?? "/dev/video0")
    let source = CameraFactory.make(choice, size: .exactly(frameSize), fps: fps, mjpeg: CameraJPEGDecoder.factory,
                                    videoDevices: environment.videoDeviceFolder).source
    let count = Locked(0)
    let before = usage().cpu
    let wall = Date()
    do {
        try source.start(frames: { _ in count.withLock { $0 += 1 } }, events: { Log.write("kiosk-bench: \($0)\n") })
    } catch { fail("\(error)") }
    Thread.sleep(forTimeInterval: seconds)
    source.stop()
    let elapsed = Date().timeIntervalSince(wall)
    let cpu = usage().cpu - before
    let info = source.info
    printLine(["camera": info.name, "size": "\(info.size)", "fps": info.fps, "format": info.deviceFormat.rawValue,
               "frames": count.withLock { $0 }, "dropped": source.droppedFrames, "seconds": elapsed,
               "cpuSeconds": cpu, "cpuPercentOfOneCore": 100 * cpu / elapsed])
}

/// Runs the real recorder and times what a guest feels: start-up, and the wait after Stop.
func stopLatency(_ o: [String: String]) {
    let me = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
    let recorder = o["recorder"] ?? me.deletingLastPathComponent().appendingPathComponent("kiosk-recorder").path
    let frameSize = size(o["size"])
    let rounds = Int(o["rounds"] ?? "") ?? 3
    let seconds = Double(o["seconds"] ?? "") ?? 3
    var stops: [Double] = [], readies: [Double] = []
    for _ in 0..<rounds {
        let launched = ProcessInfo.processInfo.systemUptime
        let r = BenchRecorder(recorder, arguments: ["--camera", "test", "--microphone", "test", "--size", "\(frameSize)",
                                                    "--windowed", "\(frameSize)", "--countdown", "0"])
        readies.append((r.wait(for: "ready") - launched) * 1000)
        r.send("start")
        r.wait(for: "recordingStarted")
        Thread.sleep(forTimeInterval: seconds)
        let stop = ProcessInfo.processInfo.systemUptime
        r.send("stop")
        stops.append((r.wait(for: "recordingFinished") - stop) * 1000)
        r.send("quit")
        r.process.waitUntilExit()
    }
    func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
    printLine(["size": "\(frameSize)", "rounds": rounds, "stopToFinishedMs": stops.map { ($0 * 10).rounded() / 10 },
               "stopToFinishedMedianMs": median(stops), "execToReadyMs": readies.map { ($0 * 10).rounded() / 10 },
               "execToReadyMedianMs": median(readies)])
}

let arguments = Array(CommandLine.arguments.dropFirst())
// The KIOSK_* variables the libraries are handed, read once.
let environment = KioskEnvironment(ProcessInfo.processInfo.environment)
switch arguments.first {
case "man-page":
    // The manual page made from the option table (docs/kiosk-recorder.1 is this output).
    FileHandle.standardOutput.write(Data(OptionParser.manPage.utf8))
case "layout":
    // Layout's rectangles for a canvas (--size WxH) with the Boomerang and photo buttons, one
    // "name x y width height" a line (docs/screenshots/make-safe-area draws them).
    let l = Layout(canvas: size(options(arguments.dropFirst())["size"]), shutter: true, boomerang: true)
    let rects = [("top-panel", l.topPanel), ("bottom-panel", l.bottomPanel), ("question-band", l.questionBand), ("record", l.recordButtonDrawn),
                 ("boomerang", l.boomerangButton), ("boomerang-label", l.boomerangLabel), ("photo", l.shutterButton), ("content", l.content)]
    print(rects.map { "\($0) \($1.x) \($1.y) \($1.width) \($1.height)" }.joined(separator: "\n"))
case "preview": previewBench(options(arguments.dropFirst()))
case "encode": encode(options(arguments.dropFirst()))
case "compare-encode": compareEncode(options(arguments.dropFirst()))
case "capture": captureBench(options(arguments.dropFirst()), environment: environment)
case "make-clip": makeClip(options(arguments.dropFirst()))
case "compare-booth": compareBooth(options(arguments.dropFirst()))
case "preview-cost": previewCost(options(arguments.dropFirst()))
case "trial-cost": trialCost(options(arguments.dropFirst()))
case "count-frames": countFrames(options(arguments.dropFirst()))
case "tuning":
    // The writer's encoder settings as ffmpeg CLI arguments, one per line (bench/quality reads them).
    let o = options(arguments.dropFirst())
    var settings = MovieSettings(outputPath: "/dev/null", videoSize: size(o["size"]), fps: Double(o["fps"] ?? "") ?? 30, audio: nil)
    settings.preset = o["preset"] ?? settings.preset
    FileHandle.standardOutput.write(Data((settings.videoTuning(encoder: .libx264).ffmpegArguments.joined(separator: "\n") + "\n").utf8))
case "stop-latency": stopLatency(options(arguments.dropFirst()))
case "share-step": shareStep(options(arguments.dropFirst()))
case "kill-loss": killLoss(options(arguments.dropFirst()))
case "convert-yuyv": convertYUYV(options(arguments.dropFirst()))
case "overlay-blend": overlayBlend(options(arguments.dropFirst()))
case "share": shareBench(options(arguments.dropFirst()))
case "loudness": loudnessBench(options(arguments.dropFirst()))
case "reel": reelBench(options(arguments.dropFirst()))
case "boomerang": boomerangBench(options(arguments.dropFirst()))
case "key": keyBench(options(arguments.dropFirst()))
case "boomerang-make": boomerangMake(options(arguments.dropFirst()))
case "boomerang-booth": boomerangBooth(options(arguments.dropFirst()))
case "handover": handOverBench(options(arguments.dropFirst()))
case "versions":
    for (name, version) in MediaLibraries.versions.sorted(by: { $0.key < $1.key }) {
        FileHandle.standardOutput.write(Data("\(name) \(version)\n".utf8))
    }
case "--help", "-h":
    FileHandle.standardOutput.write(Data(usageText.utf8))
default:
    fail("unknown or missing command\n" + usageText)
}
