// `--key auto`: the key measured from the empty backdrop. Given the camera's pictures of it as RGB
// samples (KioskMedia's `BackdropSamples`, at half the picture's size), it sets the
// key's colour (the backdrop's median chroma, at its median brightness), the similarity that keys
// all of the backdrop with a margin (its samples' spread from that colour, as libavfilter's
// chromakey measures it), and says what keeps the backdrop from keying well: too dark, lit
// unevenly, or something (the guest) standing in front of it.
import KioskContract

/// The key measured from a backdrop.
public struct BackdropMeasure: Equatable, Sendable {
    /// What keeps the backdrop from keying well.
    public enum Problem: String, CaseIterable, Sendable {
        /// Too little light (or too grey a backdrop): its colour is hard to tell from dark clothes and hair.
        case dark
        /// Its colour spreads far (light falling off to a side, shadows): the similarity that keys all
        /// of it takes the guest's greens too.
        case uneven
        /// A part of the picture is far from the backdrop's colour: someone or something in front.
        case occupied
    }

    /// The key's colour (`.rgb`).
    public var colour: KeyColour
    /// chromakey's similarity for it: the backdrop's spread with a margin.
    public var similarity: Double
    /// What keeps it from keying well, in `Problem`'s order; empty when nothing does.
    public var problems: [Problem]
    /// The backdrop's median brightness (0-255), its colour's strength (chromakey's distance of the
    /// key from grey, 0-1), the spread of the backdrop's colour (the 95th percentile of its
    /// samples' distance from the key, 0-1), the share of samples far from it (and not of its hue),
    /// and the darkest twentieth of the backdrop's brightness: what the problems are judged on.
    public var brightness: Double, strength: Double, spread: Double, farShare: Double, darkest: Double

    /// Below this median brightness (or this colour strength) a backdrop is too dark.
    public static let darkBrightness = 50.0, weakColour = 0.08
    /// A backdrop whose spread needs more than this, or whose darkest twentieth is below this share
    /// of its median brightness, is lit unevenly.
    public static let unevenSpread = 0.15, unevenFalloff = 0.4
    /// A sample this far from the key (or `farOverCore` times the median sample's distance, if more)
    /// is not the backdrop; more than `occupiedShare` of them is someone in front.
    public static let farDistance = 0.12, farOverCore = 4.0, occupiedShare = 0.03
    /// The similarity: the spread (the `spreadShare` percentile of the backdrop's distances from
    /// the key: chromakey averages a picture's distances over 3x3 of its samples, so a noisy
    /// camera's rarest single ones need no key) times `margin` plus `floor`, within `similarityRange`.
    /// It stays `greyMargin` short of the key's strength (its distance from grey: `--key-blend`'s
    /// default and a margin), so that greys and whites are never taken out.
    public static let spreadShare = 0.95, margin = 1.25, floor = 0.02, similarityRange = 0.04...0.4, greyMargin = 0.08

    /// The key for `rgb` (red, green, blue, one sample after another); nil with no samples.
    public init?(rgb: [UInt8]) {
        let count = rgb.count / 3
        guard count > 0 else { return nil }
        var luma = [Double](), cb = [Double](), cr = [Double]()
        luma.reserveCapacity(count)
        cb.reserveCapacity(count)
        cr.reserveCapacity(count)
        for i in 0..<count {
            let (y, u, v) = Self.yuv(Double(rgb[3 * i]), Double(rgb[3 * i + 1]), Double(rgb[3 * i + 2]))
            luma.append(y)
            cb.append(u)
            cr.append(v)
        }
        let brightness = Self.percentile(luma.sorted(), 0.5)
        let (keyU, keyV) = (Self.percentile(cb.sorted(), 0.5), Self.percentile(cr.sorted(), 0.5))
        // The colour as RGB, and back: chromakey compares with the colour as it is given.
        let r = Self.byte(brightness + 1.402 * keyV), g = Self.byte(brightness - 0.344136 * keyU - 0.714136 * keyV)
        let b = Self.byte(brightness + 1.772 * keyU)
        let (_, u, v) = Self.yuv(Double(r), Double(g), Double(b))
        let unsorted = (0..<count).map { Self.distance(cb[$0] - u, cr[$0] - v) }
        let distances = unsorted.sorted()
        let far = max(Self.farDistance, Self.farOverCore * Self.percentile(distances, 0.5))
        let near = distances.prefix { $0 <= far }
        // A far sample of the key's own hue, only weaker, is the backdrop in shadow; any other is
        // something in front of it.
        let backdrop = (0..<count).filter { unsorted[$0] <= far || Self.shadow(cb[$0], cr[$0], of: u, v) }
        let shadows = backdrop.count - near.count
        let farShare = Double(count - backdrop.count) / Double(count)
        let spread = Self.percentile(Array(near), Self.spreadShare)
        // The backdrop's own darkest part (what stands in front of it aside).
        let darkest = Self.percentile(backdrop.map { luma[$0] }.sorted(), 0.05)
        self.colour = .rgb(red: r, green: g, blue: b)
        let strength = Self.distance(u, v)
        // Short of grey by `greyMargin`: a key that reaches grey takes the guest's whites and greys.
        let wanted = min(spread * Self.margin + Self.floor, strength - Self.greyMargin)
        self.similarity = min(max(wanted, Self.similarityRange.lowerBound), Self.similarityRange.upperBound)
        (self.brightness, self.strength, self.spread, self.farShare, self.darkest) = (brightness, strength, spread, farShare, darkest)
        problems = []
        if brightness < Self.darkBrightness || strength < Self.weakColour { problems.append(.dark) }
        let shaded = Double(shadows) / Double(count) > Self.occupiedShare
        if spread > Self.unevenSpread || darkest < Self.unevenFalloff * brightness || shaded { problems.append(.uneven) }
        if farShare > Self.occupiedShare { problems.append(.occupied) }
    }

    /// What keeps the backdrop from keying well, and what to do, in one line; nil when nothing does.
    public var warning: String? {
        guard !problems.isEmpty else { return nil }
        return problems.map { problem in
            switch problem {
            case .dark:
                "the backdrop is too dark to key well (brightness \(Int(brightness.rounded())) of 255, colour strength \(Self.figure(strength))): light it brighter"
            case .uneven:
                "the backdrop is lit unevenly (its colour spreads \(Self.figure(spread)), its darkest part at \(Int((100 * darkest / max(brightness, 1)).rounded())) % of its middle): light it evenly"
            case .occupied:
                "\(Int((100 * farShare).rounded())) % of the picture is not the backdrop: move the guest off the backdrop, then calibrate again"
            }
        }.joined(separator: "; ")
    }

    /// Full-range BT.601 luma and chroma (chroma centred on 0) of an RGB colour.
    static func yuv(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        (0.299 * r + 0.587 * g + 0.114 * b, -0.168736 * r - 0.331264 * g + 0.5 * b, 0.5 * r - 0.418688 * g - 0.081312 * b)
    }

    /// Whether chroma (`u`, `v`) is the key's (`ku`, `kv`) hue, weaker: along it (at least a fifth of
    /// its strength), within about 20° of it.
    static func shadow(_ u: Double, _ v: Double, of ku: Double, _ kv: Double) -> Bool {
        let length = (ku * ku + kv * kv).squareRoot()
        guard length > 0 else { return false }
        let along = (u * ku + v * kv) / length, across = abs(u * kv - v * ku) / length
        return along >= 0.2 * length && across <= 0.35 * along
    }

    /// chromakey's distance of two chromas: their difference's length, as a share of the largest.
    static func distance(_ du: Double, _ dv: Double) -> Double {
        (du * du + dv * dv).squareRoot() / (255 * 2.0.squareRoot())
    }

    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(p * Double(sorted.count)))]
    }

    static func byte(_ value: Double) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }

    static func figure(_ value: Double) -> String { String(printf: "%.3f", value) }
}

/// Which of the camera's pictures one measure takes: the first `settle` passed over (a camera just
/// opened may still be setting its exposure), the next `pictures` measured together.
public struct BackdropPictures: Sendable {
    public static let settle = 5, pictures = 5
    private var settle = 0, left = 0
    private var rgb: [UInt8] = []

    /// A measure to make from the next pictures (`armed`), or none until `arm`.
    public init(armed: Bool) {
        if armed { arm() }
    }

    /// A new measure from the next pictures (one under way starts again).
    public mutating func arm() {
        (settle, left, rgb) = (Self.settle, Self.pictures, [])
    }

    /// Whether the next picture is to be measured; one passed over is counted.
    public mutating func wants() -> Bool {
        guard left > 0 else { return false }
        guard settle == 0 else {
            settle -= 1
            return false
        }
        return true
    }

    /// A measured picture's samples (`wants` said yes): the measure when it was the last one needed.
    public mutating func add(_ samples: [UInt8]) -> BackdropMeasure? {
        guard left > 0 else { return nil }
        rgb += samples
        left -= 1
        guard left == 0 else { return nil }
        defer { rgb = [] }
        return BackdropMeasure(rgb: rgb)
    }
}
