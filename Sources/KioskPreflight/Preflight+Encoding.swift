// `--check`'s encoding item: a second of pictures with a camera's detail (TrialFootage)
// at the configured size and rate through libx264 as a take opens it, at each step of effort;
// whether this machine sustains it, at which effort, or at which rate or smaller size it would.
import FoundationEssentials
import KioskCapture
import KioskContract
import KioskCore
import KioskOptions
import KioskMedia
import KioskSystem

extension Preflight {
    /// A picture may take this share of the time between the pictures kept in the trial: the rest
    /// is the camera's decoding, the preview's drawing, the sound and the file, which the trial
    /// does not do. Measured inside a CPU cgroup (bench/weak-machine, the footage's JPEGs): at 720p
    /// on 0.3 of a core the booth keeps every 2nd picture using 91 to 99 % of its quota where the
    /// trial's cheapest effort takes 24 to 27 ms (0.4 of the 67 ms); at 1080p on 0.3 it kept 9.5
    /// pictures a second with 45 dropped where the trial took 56 ms (0.56 of every 3rd picture's
    /// 100 ms), and at 1080p on 0.8 every 2nd with 21 ms. At 0.5 the check's verdict is the
    /// booth's at all three (at 0.6 it promised every 3rd at 1080p on 0.3).
    static let trialFits = 0.5
    /// The sizes the encoding item may suggest instead, the largest first.
    static let smallerSizes = [Size(width: 1280, height: 720), Size(width: 960, height: 540), Size(width: 640, height: 360),
                               Size(width: 352, height: 288)]

    static func encoding(_ config: Configuration) -> CheckItem {
        let size = config.capture.size.planned, fps = Double(config.capture.fps)
        var settings = MovieSettings(outputPath: "/dev/null", videoSize: size, fps: fps, audio: nil)
        settings.preset = config.video.preset
        settings.crf = config.video.crf
        settings.bitrate = config.video.bitrate
        // As a take under a quota of less than a core opens its steps (MovieWriter).
        let quota = CPUQuota.current()
        if let quota, quota.cores < 1 { settings.steppedThreads = 1 }
        let count = max(Int(fps.rounded()), 1)
        let pictures = TrialFootage(size: size, count: count)
        let ladder = settings.effortLadder
        var costs: [Double] = []
        do {
            for effort in ladder.indices {
                let cost = try EncodeTrial.secondsPerPicture(settings: settings, effort: effort, count: count) {
                    pictures.frame(number: $0, timestamp: Int64(Double($0) / max(fps, 1) * 1e9))
                }
                // Under a quota, the CPU time against it (as the take's rule judges it): the wall
                // time of a second's work swings with where the quota's freezes fall (at 720p on
                // 0.3 of a core it read 18 and 41 ms a picture for two efforts 10 % apart).
                costs.append(quota.map { cost.cpu / $0.cores } ?? cost.wall)
            }
        } catch {
            return CheckItem(name: "encoding", ok: false, detail: "libx264 could not encode \(size): \(error)", fix: "check the FFmpeg install (libavcodec with libx264)")
        }
        let each = zip(ladder, costs).map { "\($0.description) \(Int(($1 * 1000).rounded())) ms" }.joined(separator: ", ")
        let under = quota.map { String(printf: " (CPU time against a quota of %.2f of a core)", $0.cores) } ?? ""
        let measured = "a second of \(size) at \(config.capture.fps) fps with a camera's detail through libx264: \(each) a picture\(under)"
        let rate = { (keep: Int) in String(printf: "%g", KioskEvent.milliseconds(fps / Double(keep))) }
        switch EffortRule.sustains(secondsPerPicture: costs, fps: fps, fits: trialFits) {
        case let (effort, 1)?:
            return CheckItem(name: "encoding", ok: true, detail: "this machine sustains \(size) at \(config.capture.fps) fps at \(ladder[effort].description) (\(measured))")
        case let (effort, keep)?:
            return CheckItem(name: "encoding", ok: true,
                             detail: "this machine sustains \(size) only at \(rate(keep)) pictures a second (every \(keep == 2 ? "2nd" : "3rd") picture) at \(ladder[effort].description) (\(measured)); takes will step down to it",
                             fix: smaller(than: size, costs: costs, fps: fps).map { "--size \($0) keeps every picture" }, warning: true)
        case nil:
            let fix = smaller(than: size, costs: costs, fps: fps).map { "use --size \($0) (or --fps \(Int(fps / 2)))" } ?? "use a smaller --size or a lower --fps"
            return CheckItem(name: "encoding", ok: false, detail: "this machine does not sustain \(size) at \(config.capture.fps) fps even at every 3rd picture (\(measured))", fix: fix)
        }
    }

    /// The largest of `smallerSizes` under `size` whose pictures (by area, at the cheapest effort
    /// measured) would fit at every picture.
    static func smaller(than size: Size, costs: [Double], fps: Double) -> Size? {
        guard let cheapest = costs.last, cheapest > 0 else { return nil }
        let area = Double(size.width * size.height)
        return smallerSizes.first { candidate in
            Double(candidate.width * candidate.height) < area && cheapest * Double(candidate.width * candidate.height) / area <= trialFits / max(fps, 1)
        }
    }
}
