// The one-time code the booth hands the console when the operator's password was typed on its
// screen (pairing): one line, `CODE UNTIL` (UNTIL in CLOCK_MONOTONIC nanoseconds, the same clock in
// both processes of one machine, whatever the wall clock does), in a file mode 0600 beside the
// control socket, replaced whole (a new file renamed over), removed when the code is used or gone.
import FoundationEssentials
import Glibc
import KioskSystem

public struct PairingTicket: Equatable, Sendable {
    public var code: String
    /// CLOCK_MONOTONIC nanoseconds.
    public var until: Int64

    public init(code: String, until: Int64) { (self.code, self.until) = (code, until) }
}

public enum PairingFile {
    /// The code's bytes of randomness: 192 bits (32 characters of base64url).
    public static let codeBytes = 24

    /// The file beside the control socket `socket` (both the booth and the console know it).
    public static func path(controlSocket socket: String) -> String {
        let folder = socket.lastIndex(of: "/").map { String(socket[..<$0]) } ?? "."
        return (folder.isEmpty ? "" : folder) + "/console-pairing"
    }

    /// A fresh code (getrandom).
    public static func newCode() throws(SystemError) -> String { try ShareToken.make(bytes: codeBytes) }

    /// Writes `ticket` to `path` whole, mode 0600; nil, or what failed.
    public static func write(_ ticket: PairingTicket, to path: String) -> String? {
        let temporary = path + ".new"
        unlink(temporary)
        let fd: FileDescriptor
        do { fd = try NewFile.create(temporary, mode: 0o600) } catch { return "\(error)" }
        if let error = fd.writeAll(Array("\(ticket.code) \(ticket.until)\n".utf8)) {
            unlink(temporary)
            return "write(\(temporary)): \(String(cString: strerror(error)))"
        }
        guard rename(temporary, path) == 0 else {
            let error = errno
            unlink(temporary)
            return "rename(\(path)): \(String(cString: strerror(error)))"
        }
        return nil
    }

    /// The ticket in `path`, nil when there is none (or it is not one).
    public static func read(_ path: String) -> PairingTicket? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let fields = text.split(separator: "\n").first?.split(separator: " ") ?? []
        guard fields.count == 2, let until = Int64(fields[1]), !fields[0].isEmpty else { return nil }
        return PairingTicket(code: String(fields[0]), until: until)
    }

    public static func remove(_ path: String) { unlink(path) }
}
