// The name of a take's share folder: 144 random bits from the kernel's generator, so
// nobody reaches another guest's video by guessing its address, written URL-safe.
import CLinux
import Glibc

public enum ShareToken {
    /// The random bytes in a token: 144 bits (over a 128-bit floor), which base64 writes in
    /// exactly 24 characters, with no padding.
    public static let byteCount = 18

    /// A new token: `byteCount` bytes from `getrandom(2)` (the kernel's generator, which blocks only
    /// until it is first seeded at boot), base64url without padding: 24 characters of
    /// `A-Z a-z 0-9 - _`.
    public static func make() throws(SystemError) -> String {
        try encode(randomBytes(byteCount))
    }

    /// A secret of `bytes` random bytes, written as a token is (the console's session and CSRF
    /// tokens: 32 bytes, 256 bits).
    public static func make(bytes: Int) throws(SystemError) -> String {
        try encode(randomBytes(bytes))
    }

    /// `count` bytes from `getrandom(2)`, retried on EINTR and on short reads (a signal mid-call).
    static func randomBytes(_ count: Int) throws(SystemError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { clinux_getrandom($0.baseAddress! + filled, count - filled, 0) }
            if n < 0 {
                if errno == EINTR { continue }
                throw SystemError(call: "getrandom", errno: errno)
            }
            filled += n
        }
        return bytes
    }

    /// Base64url (RFC 4648 §5) without padding.
    static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var i = 0
        while i < bytes.count {
            let chunk = bytes[i..<min(i + 3, bytes.count)]
            var value = 0
            for (k, b) in chunk.enumerated() { value |= Int(b) << (16 - 8 * k) }
            for k in 0...chunk.count { out.append(alphabet[(value >> (18 - 6 * k)) & 63]) }
            i += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether `name` has a token's shape (24 characters of the base64url alphabet): what retention
    /// may remove from the share folder, and nothing else.
    public static func isToken(_ name: String) -> Bool {
        name.utf8.count == 24 && name.utf8.allSatisfy { c in
            (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D || c == 0x5F
        }
    }
}
