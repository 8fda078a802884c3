import Foundation
import KioskTestSupport
import Testing

/// The test runner's wide pool (Tests/WidePool, preloaded by kiosk/test's whole run): the process it is
/// loaded into sees KIOSK_TEST_POOL_WIDTH processors, and what that process starts sees the machine.
@Suite("the test runner's wide pool")
struct WidePoolTests {
    static let shim = TestEnvironment.buildFolder.appendingPathComponent("libKioskWidePool.so").path

    /// What Debian's Python reads through sysconf (as libdispatch does), in itself and in a child it starts.
    static let probe = """
        import os, subprocess, sys
        count = lambda: os.sysconf("SC_NPROCESSORS_ONLN")
        child = subprocess.run([sys.executable, "-c", "import os; print(os.sysconf('SC_NPROCESSORS_ONLN'))"],
                               capture_output=True, text=True, check=True).stdout.strip()
        print(count(), child)
        """

    @Test("a process with the shim counts the width it is given; one it starts counts the machine's processors")
    func width() throws {
        let machine = ProcessInfo.processInfo.activeProcessorCount
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = Self.shim
        environment["KIOSK_TEST_POOL_WIDTH"] = String(machine + 5)
        let run = try runProgram(["/usr/bin/python3", "-c", Self.probe], environment: environment)
        try #require(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(machine + 5) \(machine)")
    }
}
