// `--check`'s keying item with a background: pictures with a camera's detail (TrialFootage) at the
// configured size keyed in front of the configured background with the configured key, as the
// camera's thread keys them (PictureKey); what rate this machine sustains with the key, and whether
// a take will step down for it (EffortRule judges the camera's thread as this does).
import FoundationEssentials
import KioskCapture
import KioskContract
import KioskCore
import KioskOptions
import KioskMedia
import KioskSystem

extension Preflight {
    /// The pictures keyed (after one more that makes the graph): half a second's at 30 fps.
    static let keyingPictures = 15

    /// The keying item; nil without a background. `slower`: `KIOSK_TEST_SLOW_KEY`'s ns a picture.
    static func keying(_ config: Configuration, slower: Int64) -> CheckItem? {
        let video = config.video
        // `--key auto` is measured from the backdrop (the key item): its cost is green's.
        guard let background = video.background, let colour = (video.keyInForce ?? .green).components ?? KeyColour.green.components else { return nil }
        let size = config.capture.size.planned, fps = Double(config.capture.fps)
        let key = PictureKey(slower: slower)
        key.set(KeySettings(background: background, red: colour.red, green: colour.green, blue: colour.blue,
                            similarity: video.keySimilarity, blend: video.keyBlend, despill: video.despill))
        let footage = TrialFootage(size: size, count: keyingPictures + 1)
        let pictures = (0...keyingPictures).map { footage.frame(number: $0, timestamp: Int64(Double($0) / max(fps, 1) * 1e9)) }
        _ = key.key(pictures[0])
        guard !key.failed else {
            return CheckItem(name: "keying", ok: false, detail: "the key could not be made for \(size) in front of \(background) (the log says why)",
                             fix: "check --background and the FFmpeg install (libavfilter's chromakey, despill and overlay)")
        }
        // Under a quota the CPU time against it (of one thread: at most one core), as the encoding
        // item judges it; else the wall time, as the take's rule judges the camera's thread.
        let quota = CPUQuota.current()
        let (began, cpuBegan) = (MonotonicClock.now(), CPUQuota.processNanoseconds())
        for picture in pictures.dropFirst() { _ = key.key(picture) }
        let wall = Double(MonotonicClock.now() - began) / 1e9, cpu = Double(CPUQuota.processNanoseconds() - cpuBegan) / 1e9
        let cost = max(quota.map { cpu / min($0.cores, 1) } ?? wall, 1e-6) / Double(keyingPictures)
        // The booth keeps up while the camera's thread takes less than `behindLoad` of the time
        // between the pictures kept; its decoding comes on top of the key.
        let sustained = EffortRule.behindLoad / cost
        let keep = (1...EffortRule.maxKeepEvery).first { Double($0) * sustained >= fps }
        let under = quota.map { String(printf: " (CPU time against a quota of %.2f of a core)", $0.cores) } ?? ""
        let measured = "\(keyingPictures) pictures of \(size) keyed with --key \((video.keyInForce ?? .green).description) (despill \(video.despill ? "on" : "off")) in "
            + String(printf: "%.1f ms a picture", cost * 1000) + under + String(printf: ": it sustains %.1f pictures a second with the key", sustained)
        let fix = "a smaller --size, or --despill off (a cheaper key)"
        switch keep {
        case 1?:
            return CheckItem(name: "keying", ok: true, detail: "\(measured), at or above the camera's \(config.capture.fps): every picture keyed")
        case let keep?:
            let rate = String(printf: "%g", KioskEvent.milliseconds(fps / Double(keep)))
            return CheckItem(name: "keying", ok: true,
                             detail: "\(measured), below the camera's \(config.capture.fps): takes will step down to every \(keep == 2 ? "2nd" : "3rd") picture (\(rate) a second)",
                             fix: fix + ", may keep every picture", warning: true)
        case nil:
            return CheckItem(name: "keying", ok: false,
                             detail: "\(measured), below the camera's \(config.capture.fps) even at every \(EffortRule.maxKeepEvery == 3 ? "3rd" : "\(EffortRule.maxKeepEvery)th") picture",
                             fix: "use " + fix)
        }
    }
}
