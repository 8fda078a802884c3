// The lines `reel --json` prints (docs/interface.md, "The hosts' film"): its command line is read in
// KioskOptions (ReelOptions), the film made by KioskMedia's Reel.

extension KioskEvent {
    /// `reel --json`'s lines (docs/interface.md, "The hosts' film").
    static let reelKinds: [Kind] = [
        Kind(name: "reelProgress", fields: {
            guard case let .reelProgress(done, total) = $0 else { return nil }
            return [(.done, done), (.total, total)]
        }, decode: { c in .reelProgress(done: try c.decode(Int.self, forKey: .done), total: try c.decode(Int.self, forKey: .total)) }),
        Kind(name: "reelSkipped", fields: {
            guard case let .reelSkipped(path, reason) = $0 else { return nil }
            return [(.path, path), (.reason, reason)]
        }, decode: { c in .reelSkipped(path: try c.decode(String.self, forKey: .path), reason: try c.decode(String.self, forKey: .reason)) }),
        Kind(name: "reelFinished", fields: {
            guard case let .reelFinished(path, duration, takes) = $0 else { return nil }
            return [(.path, path), (.duration, milliseconds(duration)), (.takes, takes)]
        }, decode: { c in
            .reelFinished(path: try c.decode(String.self, forKey: .path), duration: try c.decode(Double.self, forKey: .duration),
                          takes: try c.decode(Int.self, forKey: .takes))
        }),
    ]
}
