// The one way a file is made: new, never through a symbolic link, close-on-exec, its mode exact.
import Foundation
import Glibc
@testable import KioskSystem
import Testing

@Suite("NewFile")
struct NewFileTests {
    @Test("a new file with exactly its mode (whatever the umask) and close-on-exec; never over a file, a FIFO or through a symlink, each refused with its errno and the call")
    func create() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("newfile-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let old = umask(0o077)
        defer { umask(old) }
        let file = try NewFile.create(dir + "/take.mov", mode: 0o640)
        let fd = file.rawValue
        var info = stat()
        #expect(fstat(fd, &info) == 0 && info.st_mode & 0o777 == 0o640, "mode \(String(info.st_mode & 0o777, radix: 8))")
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        #expect(write(fd, "x", 1) == 1)
        try file.close()
        #expect(mkfifo(dir + "/fifo", 0o600) == 0)
        #expect(symlink(dir + "/elsewhere", dir + "/link") == 0)
        for (name, code) in [("take.mov", EEXIST), ("fifo", EEXIST), ("link", EEXIST)] {
            #expect(throws: SystemError(call: "open(\(dir)/\(name))", errno: code)) { _ = try NewFile.create(dir + "/" + name) }
        }
        #expect(!FileManager.default.fileExists(atPath: dir + "/elsewhere"), "nothing made through the link")
        #expect(FileManager.default.contents(atPath: dir + "/take.mov") == Data("x".utf8))
    }
}
