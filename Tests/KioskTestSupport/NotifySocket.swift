// Test-only: systemd's end of the notify protocol, a datagram socket the test owns. Whatever arrives
// is kept with the time it arrived, read on a thread of its own.
import KioskCore
import KioskSystem
import Foundation
import Synchronization

/// An AF_UNIX datagram socket bound to a path (or, for `@name`, the abstract namespace) that
/// collects every message sent to it. `address` is what NOTIFY_SOCKET names.
public final class NotifySocket: Sendable {
    public let address: String
    private let fd: Int32
    private let path: String?
    private let state = State()
    private let stopped = DispatchSemaphore(value: 0)

    /// What the reading thread shares with the socket's owner.
    private final class State: Sendable {
        /// Every message, with `ProcessInfo.systemUptime` at its arrival (the clock RecorderProcess uses).
        let messages = Locked<[(text: String, at: Double)]>([])
        let stopping = Atomic<Bool>(false)
    }

    /// Binds `address`: a path (removed first, and again on deinit) or `@name`.
    public init(_ address: String) throws {
        self.address = address
        var bytes = Array(address.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        path = abstract ? nil : address
        if let path { unlink(path) }
        var name = sockaddr_un()
        name.sun_family = sa_family_t(AF_UNIX)
        guard bytes.count < MemoryLayout.size(ofValue: name.sun_path) else { throw POSIXError(.ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &name.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let bound = withUnsafePointer(to: &name) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else {
            let error = errno
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO)
        }
        self.fd = fd
        let (state, stopped) = (state, stopped)
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !state.stopping.load(ordering: .relaxed) {
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&p, 1, 50) == 1 else { continue }
                let n = recv(fd, &buffer, buffer.count, 0)
                if n > 0 {
                    let text = String(decoding: buffer[0..<n], as: UTF8.self)
                    state.messages.withLock { $0.append((text, ProcessInfo.processInfo.systemUptime)) }
                }
            }
            stopped.signal()
        }
    }

    deinit {
        state.stopping.store(true, ordering: .relaxed)
        stopped.wait()
        close(fd)
        if let path { unlink(path) }
    }

    /// Every message so far, with its arrival time.
    public var received: [(text: String, at: Double)] { state.messages.withLock { $0 } }

    /// The arrival times of messages that are exactly `text`.
    public func times(of text: String) -> [Double] { received.filter { $0.text == text }.map(\.at) }

    /// Waits until `count` messages that are exactly `text` (or, with `prefix`, start with it)
    /// have arrived; the last one's arrival time, or nil on timeout.
    @discardableResult
    public func wait(for text: String, prefix: Bool = false, count: Int = 1, timeout: Double = 10) -> Double? {
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        while ProcessInfo.processInfo.systemUptime < deadline {
            let matches = received.filter { prefix ? $0.text.hasPrefix(text) : $0.text == text }
            if matches.count >= count { return matches[count - 1].at }
            usleep(5000)
        }
        return nil
    }
}
