// kiosk-bench trial-cost: the CPU a picture costs libx264 as `--check`'s encoding trial opens it
// (EncodeTrial), on the trial's own pictures (TrialFootage), on the test pattern it used before, and
// on real footage (the clip as the booth gets it from a webcam: JPEG at quality 3, decoded), at each
// step of effort, in the same rounds; the medians and each against the footage's (the
// trial's verdict should hold for a camera's pictures).
import Foundation
import KioskCapture
import KioskCore
import KioskMedia

func trialCost(_ o: [String: String]) {
    guard let footage = o["footage"] else { fail("trial-cost needs --footage CLIP (bench/footage fetches one)") }
    let frameSize = size(o["size"])
    let count = Int(o["frames"] ?? "") ?? 90
    let rounds = max(Int(o["rounds"] ?? "") ?? 3, 1)
    let grain = o["grain"].flatMap { Int($0) } ?? TrialFootage.grain
    let (w, h) = (frameSize.width, frameSize.height)
    // The footage through a webcam's JPEGs, back to 4:2:0 as the booth's writer takes it.
    let raw = Pipe()
    let decoder = spawn(["sh", "-c", "ffmpeg -v error -stream_loop -1 -i \"$0\" -vf scale=\(w):\(h):flags=bicubic,fps=30 -frames:v \(count) "
                         + "-c:v mjpeg -q:v 3 -f mjpeg - | ffmpeg -v error -f mjpeg -i - -pix_fmt yuv420p -f rawvideo -", footage], stdout: raw)
    let planes = PixelFormat.yuv420p.planes(for: frameSize)
    var real: [VideoFrame] = []
    while let data = readExactly(raw.fileHandleForReading, PixelFormat.yuv420p.frameBytes(for: frameSize)) {
        real.append(VideoFrame(format: .yuv420p, size: frameSize, planes: planes, bytes: [UInt8](data),
                               timestamp: Int64(real.count) * 33_333_333, sequence: UInt32(real.count)))
    }
    decoder.waitUntilExit()
    guard real.count == count else { fail("trial-cost: \(real.count) of \(count) pictures of the footage decoded") }
    let pattern = TestPattern(size: frameSize, fps: 30)
    let trial = TrialFootage(size: frameSize, count: count, grain: grain)
    // Each source's pictures made before anything is timed.
    let sources: [(name: String, pictures: [VideoFrame])] = [
        ("footage", real),
        ("trial", (0..<count).map { trial.frame(number: $0, timestamp: Int64($0) * 33_333_333) }),
        ("pattern", (0..<count).map { pattern.frame(number: $0, timestamp: Int64($0) * 33_333_333, flash: false) }),
    ]
    var settings = MovieSettings(outputPath: "/dev/null", videoSize: frameSize, fps: 30, audio: nil)
    if let threads = o["stepped-threads"].flatMap({ Int($0) }) { settings.steppedThreads = threads }
    let ladder = settings.effortLadder
    // ms a picture, by source and effort, each round.
    var ms = sources.map { _ in ladder.map { _ in [Double]() } }
    for round in 0..<rounds {
        for step in sources.indices {
            let s = (step + round) % sources.count
            for effort in ladder.indices {
                // The CPU time (all of libx264's threads), which other work on the machine does
                // not stretch as it does the wall time.
                do {
                    let cost = try EncodeTrial.secondsPerPicture(settings: settings, effort: effort, count: count) { sources[s].pictures[$0] }
                    ms[s][effort].append(cost.cpu * 1000)
                } catch { fail("trial-cost: \(error)") }
            }
        }
    }
    func hundredths(_ value: Double) -> Double { (value * 100).rounded() / 100 }
    var result: [String: Any] = ["size": "\(frameSize)", "frames": count, "rounds": rounds, "grain": grain,
                                 "efforts": ladder.map(\.description)]
    for (s, source) in sources.enumerated() {
        result[source.name + "MsAPicture"] = ms[s].map { hundredths(median($0)) }
        // Each round's pair against the footage, then their median.
        result[source.name + "AgainstFootage"] = ladder.indices.map { e in hundredths(median(zip(ms[s][e], ms[0][e]).map { $0 / $1 })) }
    }
    printLine(result)
}
