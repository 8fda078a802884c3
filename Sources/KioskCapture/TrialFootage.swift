// Pictures with a camera's detail for `--check`'s encoding trial: the test pattern's flat
// bars and one box cost libx264 about 40 % less than real footage, so a check on them said a size
// sustains where the booth then fell behind. These are made, not read from a file, and the same on
// every run: a textured scene (value noise over four octaves, from large shapes to a pixel's grain)
// that the camera pans across, a textured object moving against the pan, and a little fresh noise
// in every picture (a sensor's, and a webcam's JPEG artefacts, which no two pictures share), at the
// levels that make libx264's time a picture near the footage's (`kiosk-bench trial-cost`).
import KioskCore

public struct TrialFootage: Sendable {
    public let size: Size
    /// The pan a picture, in 1/256ths of a pixel (right, down: a camera's motion is never whole
    /// pixels), and the object's, in pixels (left).
    static let pan = (x: 3 * 256 + 93, y: 256 + 171), objectStep = 6
    /// Each octave of the scene: its cell (pixels between random values) and its amplitude.
    static let octaves: [(cell: Int, amplitude: Int)] = [(96, 56), (24, 28), (6, 16), (1, 6)]
    /// The fresh noise in every picture, ± this many levels of luma.
    public static let grain = 3

    /// The pictures the scene is made for (a later one pans from the start again).
    public let count: Int
    let grain: Int
    /// The scene's luma and chroma (4:2:0), wider and taller than a picture by the pan of `count`.
    private let luma: [UInt8], cb: [UInt8], cr: [UInt8]
    private let sceneWidth: Int, sceneHeight: Int
    private let planes: [Plane]

    /// The scene for `count` pictures of `size`; `grain` only for the calibration bench.
    public init(size: Size, count: Int, grain: Int = TrialFootage.grain) {
        self.size = size
        self.grain = grain
        planes = PixelFormat.yuv420p.planes(for: size)
        let n = max(count, 1)
        self.count = n
        sceneWidth = (size.width + Self.pan.x * n / 256 + 4) & ~1
        sceneHeight = (size.height + Self.pan.y * n / 256 + 4) & ~1
        luma = Self.noise(width: sceneWidth, height: sceneHeight, seed: 1, octaves: Self.octaves, centre: 126)
        let chroma = [(cell: 48, amplitude: 36), (cell: 12, amplitude: 10)]
        cb = Self.noise(width: sceneWidth / 2, height: sceneHeight / 2, seed: 2, octaves: chroma, centre: 128)
        cr = Self.noise(width: sceneWidth / 2, height: sceneHeight / 2, seed: 3, octaves: chroma, centre: 128)
    }

    /// Picture `number` (from 0) at `timestamp`.
    public func frame(number: Int, timestamp: Int64) -> VideoFrame {
        let (w, h) = (size.width, size.height)
        let k = number % count
        // Where the picture's corner lies in the scene: whole pixels and the fraction, in
        // 1/256ths, that each sample of luma blends from its neighbours (the chroma's whole
        // samples only).
        let (sx, sy) = (Self.pan.x * k, Self.pan.y * k)
        let (px, py) = (sx >> 8, sy >> 8)
        let (ax, ay) = (Int32(sx & 255), Int32(sy & 255))
        var bytes = [UInt8](repeating: 128, count: PixelFormat.yuv420p.frameBytes(for: size))
        // The object: a square a third of the height, crossing from right to left at the height's
        // middle, showing the scene's texture from far away (so it matches nothing around it).
        let side = max(h / 3, 2) & ~1
        let ox = ((w - side) - (Self.objectStep * number) % max(w - side, 1)) & ~1, oy = ((h - side) / 2) & ~1
        let (fx, fy) = (sceneWidth - w, sceneHeight - h)
        bytes.withUnsafeMutableBufferPointer { out in
            let y = planes[0], u = planes[1], v = planes[2]
            for row in 0..<h {
                let inObject = row >= oy && row < oy + side
                for x in 0..<w {
                    let fromObject = inObject && x >= ox && x < ox + side
                    let value: Int32
                    if fromObject {
                        value = Int32(luma[(row - oy + fy) * sceneWidth + (x - ox + fx)])
                    } else {
                        let at = (row + py) * sceneWidth + x + px
                        let top = Int32(luma[at]) * (256 - ax) + Int32(luma[at + 1]) * ax
                        let bottom = Int32(luma[at + sceneWidth]) * (256 - ax) + Int32(luma[at + sceneWidth + 1]) * ax
                        value = (top * (256 - ay) + bottom * ay) >> 16
                    }
                    let noise = grain == 0 ? 0 : Int(Self.hash(x, row, number) % UInt32(2 * grain + 1)) - grain
                    out[y.offset + row * y.stride + x] = UInt8(clamping: min(max(Int(value) + noise, 16), 235))
                }
            }
            let cw = sceneWidth / 2
            for row in 0..<(h / 2) {
                let inObject = row * 2 >= oy && row * 2 < oy + side
                for x in 0..<(w / 2) {
                    let fromObject = inObject && x * 2 >= ox && x * 2 < ox + side
                    let at = fromObject ? (row - oy / 2 + fy / 2) * cw + (x - ox / 2 + fx / 2) : (row + py / 2) * cw + x + px / 2
                    out[u.offset + row * u.stride + x] = cb[at]
                    out[v.offset + row * v.stride + x] = cr[at]
                }
            }
        }
        return VideoFrame(format: .yuv420p, size: size, planes: planes, bytes: bytes, timestamp: timestamp,
                          sequence: UInt32(truncatingIfNeeded: number))
    }

    /// Value noise: at each octave, random values on a lattice `cell` apart, blended smoothly
    /// between them, scaled to ±amplitude, summed around `centre` and held to video range.
    static func noise(width: Int, height: Int, seed: Int, octaves: [(cell: Int, amplitude: Int)], centre: Int) -> [UInt8] {
        var sum = [Int32](repeating: Int32(centre), count: width * height)
        for (index, octave) in octaves.enumerated() {
            let cell = max(octave.cell, 1), salt = seed * 16 + index
            // ±amplitude from a lattice point's hash.
            func value(_ i: Int, _ j: Int) -> Int32 {
                Int32(Int(hash(i, j, salt) % UInt32(2 * octave.amplitude + 1)) - octave.amplitude)
            }
            if cell == 1 {
                for row in 0..<height { for x in 0..<width { sum[row * width + x] += value(x, row) } }
                continue
            }
            // The blend's weights across a cell (smoothstep), in 1/256ths.
            let weights = (0..<cell).map { t -> Int32 in
                let f = Double(t) / Double(cell)
                return Int32((f * f * (3 - 2 * f) * 256).rounded())
            }
            for row in 0..<height {
                let (j, wy) = (row / cell, weights[row % cell])
                for x in 0..<width {
                    let (i, wx) = (x / cell, weights[x % cell])
                    let top = value(i, j) * (256 - wx) + value(i + 1, j) * wx
                    let bottom = value(i, j + 1) * (256 - wx) + value(i + 1, j + 1) * wx
                    sum[row * width + x] += (top * (256 - wy) + bottom * wy) >> 16
                }
            }
        }
        return sum.map { UInt8(clamping: min(max($0, 16), 240)) }
    }

    /// A well-mixed 32-bit hash of three integers (the noise's dice: the same on every run).
    static func hash(_ a: Int, _ b: Int, _ c: Int) -> UInt32 {
        var h = UInt32(truncatingIfNeeded: a) &* 0x9E37_79B1 ^ UInt32(truncatingIfNeeded: b) &* 0x85EB_CA77 ^ UInt32(truncatingIfNeeded: c) &* 0xC2B2_AE3D
        h ^= h >> 15
        h = h &* 0x2C1B_3C6D
        h ^= h >> 12
        h = h &* 0x297A_2D39
        h ^= h >> 15
        return h
    }
}
