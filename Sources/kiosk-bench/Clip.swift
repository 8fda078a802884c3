// Real footage as a camera's MJPEG stream, numbered in its pixels (the fake camera's `clip=`), and
// the frame numbers read back from a take: the benchmarks' realistic input and their drop count.
import Foundation
import KioskCore

/// Runs `arguments` with its stdin or stdout as a pipe this process feeds or drains.
func spawn(_ arguments: [String], stdin: Pipe? = nil, stdout: Pipe? = nil) -> Process {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = arguments
    if let stdin { p.standardInput = stdin }
    if let stdout { p.standardOutput = stdout }
    do { try p.run() } catch { fail("cannot run \(arguments[0]): \(error)") }
    return p
}

/// Reads exactly `count` bytes, nil at the end.
func readExactly(_ handle: FileHandle, _ count: Int) -> Data? {
    var data = Data()
    while data.count < count {
        let chunk = handle.readData(ofLength: count - data.count)
        if chunk.isEmpty { return nil }
        data += chunk
    }
    return data
}

/// `make-clip --footage CLIP --size WxH --frames N --output FILE [--chroma 422|420]`: the clip looped
/// to N frames at 30 fps and `size`, each frame's number drawn as a FrameStamp over its top band,
/// encoded as concatenated JPEGs (quality 3, full range, 4:2:2 unless told) as a UVC camera sends
/// them, and FILE.index beside it (where each JPEG lies, for the fake camera).
func makeClip(_ o: [String: String]) {
    guard let footage = o["footage"], let output = o["output"] else { fail("make-clip needs --footage and --output") }
    let frameSize = size(o["size"])
    let frames = Int(o["frames"] ?? "") ?? 300
    let (w, h) = (frameSize.width, frameSize.height)
    let decoded = Pipe(), encoded = Pipe()
    let decoder = spawn(["ffmpeg", "-v", "error", "-stream_loop", "-1", "-i", footage, "-vf", "scale=\(w):\(h):flags=bicubic,fps=30",
                         "-frames:v", "\(frames)", "-f", "rawvideo", "-pix_fmt", "yuvj420p", "-"], stdout: decoded)
    // 4:2:2 JPEGs by default, as UVC webcams send them (`--chroma 420` for 4:2:0).
    let chroma = o["chroma"] ?? "422"
    guard chroma == "422" || chroma == "420" else { fail("make-clip: --chroma is 422 or 420, not \(chroma)") }
    let encoder = spawn(["ffmpeg", "-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "yuvj420p", "-s", "\(frameSize)", "-r", "30",
                         "-i", "-", "-c:v", "mjpeg", "-pix_fmt", "yuvj\(chroma)p", "-q:v", "3", "-f", "mjpeg", output], stdin: encoded)
    let frameBytes = w * h * 3 / 2
    let band = FrameStamp.bandRows(0, frameHeight: h)
    var count = 0
    while count < frames, let data = readExactly(decoded.fileHandleForReading, frameBytes) {
        var bytes = [UInt8](data)
        for y in band {
            for i in 0..<FrameStamp.bits {
                let on = count >> (FrameStamp.bits - 1 - i) & 1 == 1
                for x in FrameStamp.cell(i, width: w) { bytes[y * w + x] = on ? FrameStamp.white : FrameStamp.black }
            }
        }
        // The band's chroma neutral, so the cells decode as plain grey levels.
        for y in (band.lowerBound / 2)..<((band.upperBound + 1) / 2) {
            for x in 0..<(w / 2) {
                bytes[w * h + y * (w / 2) + x] = 128
                bytes[w * h + (w / 2) * (h / 2) + y * (w / 2) + x] = 128
            }
        }
        encoded.fileHandleForWriting.write(Data(bytes))
        count += 1
    }
    try? encoded.fileHandleForWriting.close()
    decoder.waitUntilExit()
    encoder.waitUntilExit()
    guard encoder.terminationStatus == 0, count == frames else { fail("make-clip: \(count) of \(frames) frames, encoder status \(encoder.terminationStatus)") }
    guard let clip = try? Data(contentsOf: URL(fileURLWithPath: output), options: .alwaysMapped) else { fail("make-clip: cannot read \(output)") }
    let jpegs = clipIndex(clip)
    guard jpegs.count == frames else { fail("make-clip: \(jpegs.count) JPEGs found in \(output), \(frames) made") }
    let index = "kiosk-clip \(clip.count) \(jpegs.count)\n" + jpegs.map { "\($0.offset) \($0.size)\n" }.joined()
    do { try index.write(toFile: output + ".index", atomically: true, encoding: .utf8) } catch { fail("make-clip: \(error)") }
    printLine(["output": output, "frames": count, "size": "\(frameSize)", "bytes": clip.count])
}

/// Where each JPEG of a clip lies (SOI to EOI, one after the other), for its `.index`: the fake
/// camera then need not read the whole file when it opens (a cost the booth's process would carry
/// and the ffmpeg CLI's, reading the same file at its own pace, would not).
func clipIndex(_ clip: Data) -> [(offset: Int, size: Int)] {
    clip.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
        var found: [(offset: Int, size: Int)] = []
        var start: Int?
        var i = 1
        while i < bytes.count {
            if bytes[i - 1] == 0xFF {
                if bytes[i] == 0xD8, start == nil {
                    start = i - 1
                } else if bytes[i] == 0xD9, let s = start {
                    found.append((s, i + 1 - s))
                    start = nil
                    i += 1 // an EOI's D9 starts nothing
                }
            }
            i += 1
        }
        return found
    }
}

/// `count-frames --file TAKE [--modulo N]`: the frame numbers the picture carries, in order, from
/// the ffmpeg CLI's decoding: how many, the first and last, and how many are missing or repeated
/// between them (numbers going round after N-1, for a clip of N frames).
func countFrames(_ o: [String: String]) {
    guard let file = o["file"] else { fail("count-frames needs --file") }
    let probe = Pipe()
    let prober = spawn(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", file],
                       stdout: probe)
    let dims = String(decoding: probe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",").compactMap { Int($0) }
    prober.waitUntilExit()
    guard dims.count == 2 else { fail("count-frames: no picture size in \(file)") }
    let (w, h) = (dims[0], dims[1])
    let gray = Pipe()
    let decoder = spawn(["ffmpeg", "-v", "error", "-i", file, "-map", "0:v:0", "-fps_mode", "passthrough", "-f", "rawvideo",
                         "-pix_fmt", "gray", "-"], stdout: gray)
    var numbers: [Int] = []
    while let data = readExactly(gray.fileHandleForReading, w * h) {
        let luma = [UInt8](data)
        numbers.append(FrameStamp.read(width: w, height: h) { luma[$1 * w + $0] })
    }
    decoder.waitUntilExit()
    // A clip of `modulo` frames starts again at 0 after its last.
    let modulo = Int(o["modulo"] ?? "") ?? Int.max
    var missing = 0, repeated = 0, longest = 0, over2: [[Int]] = []
    for (index, (a, b)) in zip(numbers, numbers.dropFirst()).enumerated() {
        let step = modulo == Int.max ? b - a : ((b - a) % modulo + modulo) % modulo
        if step > 1 { missing += step - 1 }
        if step > 2 { over2.append([index + 1, step]) }
        if step == 0 || (modulo == Int.max && step < 0) { repeated += 1 }
        longest = max(longest, step)
    }
    // `longestGap`: the longest step between two pictures, in frame intervals (1: none missing);
    // `gapsOver2`: [the picture after it (from 0), the step] for each step over 2.
    printLine(["file": file, "frames": numbers.count, "first": numbers.first ?? -1, "last": numbers.last ?? -1,
               "missing": missing, "repeatedOrBackwards": repeated, "longestGap": longest, "gapsOver2": over2])
}
