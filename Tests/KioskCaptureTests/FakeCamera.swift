// Test helper: a fake V4L2 camera device (a regular file with a .conf beside it) for the libv4l2
// plugin in Tests/FakeV4L2Camera, active when the tests run under its `with-fake-camera` wrapper.
import Foundation
import Testing

/// Whether the fake camera plugin is mounted for this process (kiosk/test does that).
let fakeCameraActive = ProcessInfo.processInfo.environment["KIOSK_FAKE_CAMERA"] == "1"

/// A fake camera device in a folder of its own.
struct FakeCamera {
    let folder: URL
    let path: String

    /// Creates `<folder>/video0` and its `.conf` with these lines.
    init(_ name: String, conf lines: [String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-fake-\(name)-\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("video0").path
        try Data().write(to: URL(fileURLWithPath: path))
        try (lines.joined(separator: "\n") + "\n").write(toFile: path + ".conf", atomically: true, encoding: .utf8)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite("Fake camera wiring")
struct FakeCameraWiringTests {
    @Test("under CI the fake camera plugin is active, so no camera test is skipped")
    func activeInCI() {
        if ProcessInfo.processInfo.environment["CI"] != nil {
            #expect(fakeCameraActive, "kiosk/test must run the tests under Tests/FakeV4L2Camera/with-fake-camera")
        }
    }
}
