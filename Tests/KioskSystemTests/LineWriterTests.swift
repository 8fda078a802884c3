// stdout's line writer against a parent that does not read: past its bound it drops `state`
// replies (droppable lines) and keeps every other line; once read, the kept lines arrive whole and
// in order. A real pipe and the writer's own thread: this is the writer's boundary.
import Foundation
import Testing
@testable import KioskSystem

@Suite("LineWriter: stdout's bound against a parent that does not read")
struct LineWriterTests {
    @Test("past the bound droppable lines are dropped and counted, every other line is kept; read at last, the kept lines arrive in order")
    func boundedWhileUnread() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let writer = LineWriter(fd: fds[1], name: "test-stdout", limit: 256 << 10, keepsUndroppable: true)
        let reply = Data((#"{"event":"state","mode":"ready"}"# + String(repeating: " ", count: 90) + "\n").utf8)
        writer.enqueue(Data(#"{"event":"ready"}"#.utf8 + [10]))
        // ~1 MB of replies nobody reads: the 64 KiB pipe and the 256 KiB bound fill.
        for _ in 0..<8000 { writer.enqueue(reply, droppable: true) }
        for n in 0..<100 { writer.enqueue(Data(#"{"event":"kept","n":\#(n)}"#.utf8 + [10])) }
        #expect(writer.droppedLines > 0, "state replies past the bound are dropped")
        #expect(writer.droppedLines < 8000)
        // Read it all on this thread; the writer's thread writes what it kept.
        var text = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let kept: Int = 8000 - writer.droppedLines
        let expected: Int = kept * reply.count + 100 * 20 + 18
        while text.count < expected - 200 {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            text.append(contentsOf: buffer[0..<n])
        }
        #expect(writer.flush(timeout: 30))
        var pollfd = Glibc.pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
        while poll(&pollfd, 1, 0) > 0 {
            let n = read(fds[0], &buffer, buffer.count)
            if n <= 0 { break }
            text.append(contentsOf: buffer[0..<n])
        }
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n")
        #expect(lines.first == #"{"event":"ready"}"#)
        #expect(lines.count == 1 + 8000 - writer.droppedLines + 100)
        let keptLines: [String] = (0..<100).map { (n: Int) -> String in #"{"event":"kept","n":\#(n)}"# }
        #expect(lines.suffix(100).map(String.init) == keptLines)
    }
}
