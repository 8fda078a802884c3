// Unix socket nodes for the control socket's tests: one a test holds, and one a dead process left.
import Glibc

/// A socket bound at `path` (listening if asked); its descriptor.
public func boundSocket(at path: String, listening: Bool) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if listening { listen(fd, 1) }
    return fd
}

/// A socket node left behind by a process that ended: bound, never listened on, closed.
public func staleSocket(at path: String) { close(boundSocket(at: path, listening: false)) }
