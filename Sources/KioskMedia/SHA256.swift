// SHA-256 by libavutil (`av_sha`): `--consent`'s version is the hash of its file's bytes, so a take's
// consent names exactly the text its guest read (`sha256sum` of the file gives the same hex).
import CFFmpeg

public enum SHA256 {
    /// The SHA-256 of `bytes`, 64 lowercase hex digits (`av_sha_alloc`, `av_sha_init` with 256 bits,
    /// `av_sha_update`, `av_sha_final`).
    public static func hex(_ bytes: [UInt8]) -> String {
        guard let context = av_sha_alloc() else { preconditionFailure("av_sha_alloc: out of memory") }
        defer { av_free(UnsafeMutableRawPointer(context)) }
        av_sha_init(context, 256)
        bytes.withUnsafeBufferPointer { av_sha_update(context, $0.baseAddress, $0.count) }
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { av_sha_final(context, $0.baseAddress) }
        let hexDigits = Array("0123456789abcdef")
        return String(digest.flatMap { [hexDigits[Int($0 >> 4)], hexDigits[Int($0 & 15)]] })
    }
}
