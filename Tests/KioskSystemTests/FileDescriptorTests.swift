// The descriptor that closes itself: closed when the value goes and not before, close's error seen
// by a caller that asks, every descriptor close-on-exec, and `take` giving ownership away.
import Foundation
import Glibc
@testable import KioskSystem
import Testing

@Suite("FileDescriptor")
struct FileDescriptorTests {
    /// Whether `raw` names an open descriptor of this process (F_GETFD fails with EBADF if not).
    func isOpen(_ raw: Int32) -> Bool {
        if fcntl(raw, F_GETFD) >= 0 { return true }
        #expect(errno == EBADF)
        return false
    }

    @Test("closed when the value goes out of scope, and not at its last use")
    func closesInDeinit() throws {
        var raw: Int32 = -1
        do {
            let file = try FileDescriptor.open("/dev/null", O_RDONLY)
            raw = file.rawValue
            #expect(isOpen(raw), "open until the end of its scope, after its last use")
        }
        #expect(!isOpen(raw))
    }

    @Test("close() closes at once, and reports close's error (EBADF for a number that was not open)")
    func closeReportsErrors() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        let raw = file.rawValue
        try file.close()
        #expect(!isOpen(raw))
        // A number nobody has open (the highest one allowed), owned by mistake.
        let bogus = FileDescriptor(owning: Int32(clamping: getdtablesize() - 1))
        do {
            try bogus.close()
            Issue.record("closed a descriptor that was not open")
        } catch {
            #expect(error == SystemError(call: "close", errno: EBADF))
        }
    }

    @Test("opened, piped and duplicated descriptors are close-on-exec")
    func closeOnExec() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        let pipe = try FileDescriptor.pipe()
        let copy = try pipe.write.duplicate()
        for raw in [file.rawValue, pipe.read.rawValue, pipe.write.rawValue, copy.rawValue] {
            #expect(fcntl(raw, F_GETFD) & FD_CLOEXEC != 0, "fd \(raw)")
        }
        #expect(copy.rawValue != pipe.write.rawValue)
    }

    @Test("take() gives the descriptor away without closing it")
    func takeDoesNotClose() throws {
        let file = try FileDescriptor.open("/dev/null", O_RDONLY)
        let raw = file.take()
        #expect(isOpen(raw))
        #expect(Glibc.close(raw) == 0)
    }

    @Test("a pipe's ends, each owned: bytes written whole reach the reader, which sees the end once the writer goes")
    func pipeEnds() throws {
        let pipe = try FileDescriptor.pipe()
        let reader = pipe.read, writer = pipe.write
        #expect(writer.writeAll(Array("hello".utf8)) == nil)
        _ = consume writer
        var bytes = [UInt8](repeating: 0, count: 16)
        let first = bytes.withUnsafeMutableBytes { reader.read(into: $0) }
        #expect(try first.get() == 5)
        #expect(String(decoding: bytes.prefix(5), as: UTF8.self) == "hello")
        let end = bytes.withUnsafeMutableBytes { reader.read(into: $0) }
        #expect(try end.get() == 0)
    }

    @Test("open's failure is the typed errno with the call")
    func openFails() {
        #expect(throws: SystemError(call: "open(/nonexistent/file)", errno: ENOENT)) {
            _ = try FileDescriptor.open("/nonexistent/file", O_RDONLY)
        }
    }
}
