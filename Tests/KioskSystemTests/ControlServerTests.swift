// The control socket's server and client: the node (mode 0660, a stale socket replaced, anything
// else refused, removed on close), bytes from each client to its own reader, every line to every
// client, a client that stops reading dropped without holding up the others, and the drain at close.
import KioskCore
import Foundation
import Glibc
import Synchronization
import Testing
import KioskSystem
import KioskTestSupport

/// A fresh folder for one test's sockets (short: a socket's path holds 107 bytes), in the run's
/// temporary folder (kiosk/test's own, removed with it) when its path leaves room, else in /tmp.
private func socketFolder(_ name: String) throws -> String {
    let temporary = FileManager.default.temporaryDirectory.path
    let folder = "\(temporary.utf8.count <= 48 ? temporary : "/tmp")/kiosk-ctl-\(name)-\(getpid())"
    try? FileManager.default.removeItem(atPath: folder)
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

private func mode(_ path: String) -> (isSocket: Bool, permissions: mode_t)? {
    var st = stat()
    guard lstat(path, &st) == 0 else { return nil }
    return (st.st_mode & S_IFMT == S_IFSOCK, st.st_mode & 0o7777)
}

/// What each client sent, by the order the clients were accepted.
private final class Received: Sendable {
    private let bytes = Locked<[[UInt8]]>([])
    func reader() -> ControlServer.ClientReader {
        let index = bytes.withLock { $0.append([]); return $0.count - 1 }
        return { [self] chunk in bytes.withLock { $0[index] += chunk } }
    }
    var text: [String] { bytes.withLock { $0.map { String(decoding: $0, as: UTF8.self) } } }
}

private func lines(_ client: ControlClient, count: Int, within seconds: Double = 5) -> [String] {
    let deadline = MonotonicClock.now() + Int64(seconds * 1e9)
    var got: [String] = []
    while got.count < count, case let .line(line) = client.receive(until: deadline) { got.append(line) }
    return got
}

@Suite("ControlServer")
struct ControlServerTests {
    // The umask is the process's, shared with tests running meanwhile, so it is not changed here;
    // under the usual 022 the group's write bit is the one chmod puts back.
    @Test("the node is a socket of mode 0660, and close removes it")
    func node() throws {
        let path = try socketFolder("node") + "/booth.sock"
        let server = try ControlServer(path: path, log: { _ in })
        #expect(mode(path)?.isSocket == true)
        #expect(mode(path)?.permissions == 0o660)
        server.close()
        #expect(mode(path) == nil)
    }

    @Test("a socket left by a process that ended is replaced; anything else, or a live listener, is refused by name")
    func whatIsInTheWay() throws {
        let folder = try socketFolder("way")
        let stale = folder + "/stale.sock"
        staleSocket(at: stale)
        #expect(mode(stale)?.isSocket == true)
        let server = try ControlServer(path: stale, log: { _ in })
        _ = try ControlClient(path: stale)

        // A second booth on the same path: the lock beside it names the first (this process).
        #expect {
            _ = try ControlServer(path: stale, log: { _ in })
        } throws: { error in
            "\(error)" == "another kiosk-recorder (pid \(getpid())) listens on \(stale)"
        }
        server.close()

        let file = folder + "/file.sock"
        #expect(FileManager.default.createFile(atPath: file, contents: Data("keep me".utf8)))
        #expect {
            _ = try ControlServer(path: file, log: { _ in })
        } throws: { error in
            "\(error)".contains("'\(file)' exists and is a regular file, not a socket")
        }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
        #expect(!FileManager.default.fileExists(atPath: folder + "/.file.sock.lock"), "refused before the lock file is made")

        // Another program listening there (no lock beside it): named by the pid the kernel gives.
        let other = folder + "/other.sock"
        let listener = boundSocket(at: other, listening: true)
        defer { close(listener) }
        #expect {
            _ = try ControlServer(path: other, log: { _ in })
        } throws: { error in
            "\(error)" == "another program (pid \(getpid())) listens on \(other)"
        }
        #expect(mode(other)?.isSocket == true)

        #expect {
            _ = try ControlServer(path: folder + "/missing/x.sock", log: { _ in })
        } throws: { error in
            "\(error)" == "the folder \(folder)/missing does not exist"
        }
    }

    @Test("each client's bytes reach its own reader; every broadcast line reaches every client in order")
    func clientsAndLines() throws {
        let path = try socketFolder("lines") + "/booth.sock"
        let server = try ControlServer(path: path, log: { _ in })
        defer { server.close() }
        let received = Received()
        try server.start { received.reader() }
        var a: ControlClient? = try ControlClient(path: path)
        #expect(eventually { server.clientCount == 1 })
        let b = try ControlClient(path: path)
        #expect(eventually { server.clientCount == 2 })
        try a?.send(line: "from a")
        try b.send(line: "from b")
        try a?.send(line: "again a")
        #expect(eventually { received.text == ["from a\nagain a\n", "from b\n"] }, "\(received.text)")
        for n in 0..<100 { server.broadcast(Array("line \(n)\n".utf8)) }
        let expected = (0..<100).map { "line \($0)" }
        #expect(lines(try #require(a), count: 100) == expected)
        #expect(lines(b, count: 100) == expected)
        // A client's end closes it, and only it.
        a = nil
        #expect(eventually { server.clientCount == 1 })
        server.broadcast(Array("after\n".utf8))
        #expect(lines(b, count: 1) == ["after"])
    }

    @Test("a client that stops reading is dropped past its queue and logged; broadcast never waits, and the others get every line")
    func stuckClientDropped() throws {
        let path = try socketFolder("stuck") + "/booth.sock"
        let logged = Locked<[String]>([])
        let server = try ControlServer(path: path, queueLimit: 64 << 10, log: { line in logged.withLock { $0.append(line) } })
        defer { server.close() }
        try server.start { { _ in } }
        // The reading client lives on a thread of its own, taking every line as it comes.
        let line = Array(String(repeating: "x", count: 1023).utf8) + [10]
        let count = 4096
        let got = Atomic(0)
        let reader = Thread {
            guard let reading = try? ControlClient(path: path) else { return }
            let deadline = MonotonicClock.now() + 30_000_000_000
            while got.load(ordering: .relaxed) < count, case .line = reading.receive(until: deadline) {
                got.add(1, ordering: .relaxed)
            }
        }
        reader.start()
        #expect(eventually { server.clientCount == 1 })
        let stuck = try ControlClient(path: path)
        #expect(eventually { server.clientCount == 2 })
        // 4 MiB: far more than the stuck client's kernel buffer and queue hold. Sent at the pace
        // the reader takes them (never more than 16 KiB ahead), as a booth's events go out.
        var slowest: Int64 = 0
        for n in 0..<count {
            let before = MonotonicClock.now()
            server.broadcast(line)
            slowest = max(slowest, MonotonicClock.now() - before)
            if n % 16 == 15 {
                guard eventually(5, { got.load(ordering: .relaxed) > n - 16 }) else {
                    Issue.record("the reading client stalled at \(got.load(ordering: .relaxed)) of \(n + 1) lines")
                    break
                }
            }
        }
        #expect(eventually(10) { got.load(ordering: .relaxed) == count }, "\(got.load(ordering: .relaxed)) of \(count) lines")
        #expect(slowest < 50_000_000, "a broadcast took \(slowest) ns")
        #expect(logged.withLock { $0 }.contains { $0.hasPrefix("control socket: client 2 (pid \(getpid())) did not read: more than 64 KiB") },
                "\(logged.withLock { $0 })")
        // The stuck one finds what its buffer held, then the end.
        var stuckLines = 0
        while case .line = stuck.receive(until: MonotonicClock.now() + 2_000_000_000) { stuckLines += 1 }
        #expect(stuckLines < count)
        #expect(stuck.receive(until: MonotonicClock.now()) == .closed)
    }

    @Test("close lets what is queued go out to clients that read, then closes them and removes the node")
    func closeDrains() throws {
        let path = try socketFolder("drain") + "/booth.sock"
        let server = try ControlServer(path: path, log: { _ in })
        try server.start { { _ in } }
        let client = try ControlClient(path: path)
        #expect(eventually { server.clientCount == 1 })
        for n in 0..<10 { server.broadcast(Array("last \(n)\n".utf8)) }
        server.close(flushWithin: 1)
        #expect(lines(client, count: 10) == (0..<10).map { "last \($0)" })
        #expect(client.receive(until: MonotonicClock.now() + 1_000_000_000) == .closed)
        #expect(mode(path) == nil)
    }

    @Test("the client: nothing there, and a line that does not come in time")
    func client() throws {
        let path = try socketFolder("client") + "/booth.sock"
        #expect { _ = try ControlClient(path: path) } throws: { ($0 as? SystemError)?.errno == ENOENT }
        let server = try ControlServer(path: path, log: { _ in })
        defer { server.close() }
        try server.start { { _ in } }
        let client = try ControlClient(path: path)
        let before = MonotonicClock.now()
        #expect(client.receive(until: before + 100_000_000) == .timedOut)
        #expect(MonotonicClock.now() - before >= 100_000_000)
    }
}
