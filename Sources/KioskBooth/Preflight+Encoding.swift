// `--check`'s encoding item (issue 35): a second of the test pattern at the configured size and rate
// through libx264 as a take opens it, at each step of effort; whether this machine sustains it, at
// which effort, or at which rate or smaller size it would.
import Foundation
import KioskCapture
import KioskCore
import KioskMedia

extension Preflight {
    /// A picture may take this share of the frame interval in the trial: the rest is the camera's
    /// decoding and the preview's drawing, which the trial does not do (on a webcam's MJPEG at 720p
    /// they took about a third as much again as the encoder here).
    static let trialFits = 0.6
    /// The sizes the encoding item may suggest instead, the largest first.
    static let smallerSizes = [Size(width: 1280, height: 720), Size(width: 960, height: 540), Size(width: 640, height: 360),
                               Size(width: 352, height: 288)]

    static func encoding(_ config: Configuration) -> CheckItem {
        let size = config.capture.size, fps = Double(config.capture.fps)
        var settings = MovieSettings(outputPath: "/dev/null", videoSize: size, fps: fps, audio: nil)
        settings.preset = config.video.preset
        settings.crf = config.video.crf
        settings.bitrate = config.video.bitrate
        let pattern = TestPattern(size: size, fps: fps)
        let ladder = settings.effortLadder
        var costs: [Double] = []
        do {
            for effort in ladder.indices {
                costs.append(try EncodeTrial.secondsPerPicture(settings: settings, effort: effort, count: max(Int(fps.rounded()), 1)) {
                    pattern.frame(number: $0, timestamp: Int64(Double($0) / max(fps, 1) * 1e9), flash: false)
                })
            }
        } catch {
            return CheckItem(name: "encoding", ok: false, detail: "libx264 could not encode \(size): \(error)", fix: "check the FFmpeg install (libavcodec with libx264)")
        }
        let each = zip(ladder, costs).map { "\($0.preset) \(Int(($1 * 1000).rounded())) ms" }.joined(separator: ", ")
        let measured = "a second of \(size) at \(config.capture.fps) fps through libx264: \(each) a picture"
        let rate = { (keep: Int) in String(format: "%g", KioskEvent.milliseconds(fps / Double(keep))) }
        switch EffortRule.sustains(secondsPerPicture: costs, fps: fps, fits: trialFits) {
        case let (effort, 1)?:
            return CheckItem(name: "encoding", ok: true, detail: "this machine sustains \(size) at \(config.capture.fps) fps at \(ladder[effort].preset) (\(measured))")
        case let (effort, keep)?:
            return CheckItem(name: "encoding", ok: true,
                             detail: "this machine sustains \(size) only at \(rate(keep)) pictures a second (every \(keep == 2 ? "2nd" : "3rd") picture) at \(ladder[effort].preset) (\(measured)); takes will step down to it",
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
