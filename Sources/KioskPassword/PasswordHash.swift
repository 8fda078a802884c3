// The operator's password, one way for both processes that check it: the console's sign-in and the
// booth's on-screen keyboard (pairing). A yescrypt hash (libxcrypt's crypt_r) in one file, read when
// it is asked, compared in constant time.
import CCrypt
import FoundationEssentials

/// The password file as one check sees it: read when the check comes, so a password set while the
/// console or the booth runs counts at once.
public struct StoredPassword: Sendable {
    public let hash: String?

    public init(hash: String?) { self.hash = hash }

    public init(file: String) {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first.map(String.init) ?? ""
        hash = line.hasPrefix("$") ? line : nil
    }

    public var isSet: Bool { hash != nil }

    public func matches(_ password: String) -> Bool {
        guard let hash, let computed = PasswordHash.crypt(password, setting: hash) else { return false }
        return ConstantTime.equal(computed, hash)
    }
}

public enum PasswordHash {
    /// The fewest characters a console password may have.
    public static let minimumLength = 8

    /// `password` hashed with yescrypt and a fresh salt (`$y$…`), or nil if libxcrypt refuses.
    public static func yescrypt(_ password: String) -> String? {
        var setting = [CChar](repeating: 0, count: Int(CRYPT_GENSALT_OUTPUT_SIZE))
        // No random bytes given: libxcrypt takes them from the kernel (getrandom).
        guard crypt_gensalt_rn("$y$", 0, nil, 0, &setting, Int32(setting.count)) != nil else { return nil }
        return crypt(password, setting: String(decoding: setting.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    /// crypt_r of `password` with `setting` (a salt, or a stored hash to check against); nil on failure.
    static func crypt(_ password: String, setting: String) -> String? {
        // struct crypt_data is 32 KiB: on the heap, zeroed as crypt_r wants it the first time.
        let data = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<crypt_data>.size, alignment: MemoryLayout<crypt_data>.alignment)
        defer { data.deallocate() }
        data.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<crypt_data>.size)
        guard let out = crypt_r(password, setting, data.assumingMemoryBound(to: crypt_data.self)) else { return nil }
        let text = String(cString: out)
        // Failure is a string starting with '*'.
        return text.hasPrefix("*") ? nil : text
    }
}

/// Compares secrets in time that depends only on their lengths.
public enum ConstantTime {
    public static func equal(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for index in 0..<max(x.count, y.count) {
            difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
        }
        return difference == 0
    }
}
