// `kiosk-bench key`: the green screen's graph alone (PictureKey, in this process, as the camera's
// thread runs it: the picture in, the keyed picture out) against the ffmpeg CLI running the same
// filters (PictureKey.graphText, with the same slice threads) on the same frames and the same
// background, rounds interleaved. The frames: real footage (bench/footage) composited over a green
// backdrop with noise through an ellipse, as raw video-range yuv420p in memory for ours and in a
// file for the CLI, whose cost of reading them alone (the same command with no filter) is measured
// too and taken off its figure.
import Foundation
import KioskContract
import KioskCore
import KioskMedia

/// `key --footage CLIP [--size WxH] [--pictures N] [--rounds N]`.
func keyBench(_ o: [String: String]) {
    guard let footage = o["footage"] else { fail("key needs --footage CLIP") }
    let frameSize = size(o["size"] ?? "1280x720")
    let (w, h) = (frameSize.width, frameSize.height)
    let pictures = max(10, Int(o["pictures"] ?? "") ?? 90)
    let rounds = max(1, Int(o["rounds"] ?? "") ?? 3)
    let dir = NSTemporaryDirectory() + "kiosk-bench-key-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let (frames, backgroundPNG, backgroundRaw) = (dir + "/frames.yuv", dir + "/background.png", dir + "/background.yuv")
    // The camera's pictures: the footage in an ellipse over a green backdrop with noise.
    let composite = "[0:v]scale=\(w):\(h):flags=bicubic,fps=30,format=yuv420p[subject];"
        + "color=c=0x10a040:s=\(w)x\(h):r=30,format=yuv420p,noise=alls=8:allf=t[backdrop];"
        + "color=black:s=\(w)x\(h):r=30,format=gray,geq=lum='255*lte(((X-W/2)/(W/4))^2+((Y-H/2)/(H/2.4))^2\\,1)'[mask];"
        + "[backdrop][subject][mask]maskedmerge,format=yuv420p[out]"
    _ = measure(["ffmpeg", "-y", "-v", "error", "-stream_loop", "-1", "-i", footage, "-filter_complex", composite, "-map", "[out]",
                 "-frames:v", "\(pictures)", "-f", "rawvideo", "-pix_fmt", "yuv420p", frames])
    _ = measure(["ffmpeg", "-y", "-v", "error", "-f", "lavfi", "-i", "gradients=s=1600x1200:c0=0x3050d0:c1=0xd04090:n=2,trim=end_frame=1",
                 "-frames:v", "1", backgroundPNG])
    let settings = KeySettings(background: backgroundPNG, red: 0x00, green: 0xB1, blue: 0x40, similarity: 0.15, blend: 0.05, despill: true)
    // The CLI's background: the same picture filled to the size as BackgroundFill makes it (video-range
    // yuv420p), once.
    _ = measure(["ffmpeg", "-y", "-v", "error", "-i", backgroundPNG, "-vf",
                 "scale=\(w):\(h):force_original_aspect_ratio=increase:flags=bicubic:out_range=tv:out_color_matrix=bt601,crop=\(w):\(h),format=yuv420p",
                 "-f", "rawvideo", backgroundRaw])
    guard let data = FileManager.default.contents(atPath: frames) else { fail("key: no frames made") }
    let planes = PixelFormat.yuv420p.planes(for: frameSize), bytes = PixelFormat.yuv420p.frameBytes(for: frameSize)
    guard data.count == pictures * bytes else { fail("key: \(data.count) bytes of frames, not \(pictures * bytes)") }
    let input = (0..<pictures).map { n in
        VideoFrame(format: .yuv420p, size: frameSize, planes: planes, bytes: [UInt8](data[(n * bytes)..<((n + 1) * bytes)]),
                   timestamp: Int64(n) * 33_333_333, sequence: UInt32(n))
    }
    let key = PictureKey()
    key.set(settings)
    // The graph made and the background decoded by a first picture, outside the measure.
    _ = key.key(input[0])
    let threads = PictureKey.threads
    var ours: [Double] = [], theirs: [Double] = [], reading: [Double] = []
    func runOurs() {
        let cpu = usage().cpu
        var checksum = 0
        for frame in input { checksum &+= Int(key.key(frame).bytes[bytes / 3]) }
        ours.append(usage().cpu - cpu)
        if checksum == -1 { print("") }
    }
    let text = PictureKey.graphText(settings, size: frameSize, fullRange: false).replacing("[in]", with: "[0:v]").replacing("[bg]", with: "[1:v]")
    let cli = ["ffmpeg", "-v", "error", "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(frameSize)", "-r", "30", "-i", frames,
               "-f", "rawvideo", "-pix_fmt", "yuv420p", "-s", "\(frameSize)", "-r", "30", "-stream_loop", "-1", "-i", backgroundRaw,
               "-filter_complex_threads", "\(threads)"]
    func runFFmpeg() {
        theirs.append(measure(cli + ["-filter_complex", text, "-map", "[out]", "-frames:v", "\(pictures)", "-f", "null", "-"]).cpu)
        reading.append(measure(cli + ["-filter_complex", "[0:v]null[out];[1:v]nullsink", "-map", "[out]", "-frames:v", "\(pictures)",
                                      "-f", "null", "-"]).cpu)
    }
    for round in 0..<rounds {
        if round % 2 == 0 { runOurs(); runFFmpeg() } else { runFFmpeg(); runOurs() }
    }
    // The same pictures keyed with 2 slice threads: how many samples differ, and by how much.
    let threaded = PictureKey(threads: 2)
    threaded.set(settings)
    var (differing, total, sum) = (0, 0, 0)
    for frame in input {
        let (one, two) = (key.key(frame).bytes, threaded.key(frame).bytes)
        for i in 0..<min(one.count, two.count) where one[i] != two[i] {
            differing += 1
            sum += abs(Int(one[i]) - Int(two[i]))
        }
        total += one.count
    }
    func msPerPicture(_ s: Double) -> Double { (s / Double(pictures) * 1e4).rounded() / 10 }
    let net = zip(theirs, reading).map { max($0 - $1, 1e-6) }
    printLine(["size": "\(frameSize)", "pictures": pictures, "rounds": rounds, "threads": Int(threads),
               "oursCPUMsPerPicture": msPerPicture(median(ours)), "ffmpegCPUMsPerPicture": msPerPicture(median(theirs)),
               "ffmpegReadingCPUMsPerPicture": msPerPicture(median(reading)), "ffmpegNetCPUMsPerPicture": msPerPicture(median(net)),
               "cpuRatio": (median(zip(ours, net).map { $0 / $1 }) * 1000).rounded() / 1000,
               "twoThreadsDifferingSamples": differing, "twoThreadsSamples": total,
               "twoThreadsMeanDifference": differing == 0 ? 0 : Double(sum) / Double(differing),
               "cpuRatioWhole": (median(zip(ours, theirs).map { $0 / max($1, 1e-6) }) * 1000).rounded() / 1000])
}
