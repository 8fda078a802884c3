// Reading a cgroup's CPU quota: where the files are (v1 and v2, the process's group and its
// parents), what they say, and this process's own quota and CPU time.
import Foundation
import Testing
@testable import KioskSystem

@Suite("CPUQuota: the share of the CPU a cgroup gives the process")
struct CPUQuotaTests {
    @Test("v2's one line: the group and its parents up to the root, own first")
    func foldersV2() {
        let folders = CPUQuota.folders(cgroupFile: "0::/kiosk/weak-12\n", root: "/cg")
        #expect(folders == ["/cg/kiosk/weak-12", "/cg/unified/kiosk/weak-12", "/cg/kiosk", "/cg/unified/kiosk", "/cg", "/cg/unified"])
    }

    @Test("v1: the cpu controller's line (alone, or mounted with cpuacct), not the others'")
    func foldersV1() {
        let text = "4:memory:/m/x\n2:cpuacct:/\n1:cpu:/kiosk-weak-7\n0::/\n"
        let folders = CPUQuota.folders(cgroupFile: text, root: "/cg")
        #expect(folders.prefix(2) == ["/cg/cpu/kiosk-weak-7", "/cg/cpu/kiosk-weak-7"])
        #expect(folders.contains("/cg/cpu") && !folders.contains { $0.contains("memory") })
        let joined = CPUQuota.folders(cgroupFile: "3:cpu,cpuacct:/a\n", root: "/cg")
        #expect(joined == ["/cg/cpu,cpuacct/a", "/cg/cpu/a", "/cg/cpu,cpuacct", "/cg/cpu"])
    }

    @Test("what the files say, as cores", arguments: [
        ("30000 100000\n", 0.3), ("80000 100000", 0.8), ("max 100000\n", nil), ("", nil), ("0 100000", nil),
    ] as [(String, Double?)])
    func cpuMax(text: String, cores: Double?) {
        #expect(CPUQuota.cores(cpuMax: text) == cores)
    }

    @Test("v1's quota and period: -1 is none")
    func cfs() {
        #expect(CPUQuota.cores(quotaMicroseconds: "30000\n", period: "100000\n") == 0.3)
        #expect(CPUQuota.cores(quotaMicroseconds: "-1\n", period: "100000\n") == nil)
    }

    @Test("this process: a quota, if any, is under the machine's cores; its CPU time grows with work")
    func current() {
        if let quota = CPUQuota.current() {
            #expect(quota.cores > 0 && quota.cores < Double(ProcessInfo.processInfo.activeProcessorCount))
        }
        let before = CPUQuota.processNanoseconds()
        var x: UInt64 = 1
        for i in 0..<5_000_000 { x = x &* 6364136223846793005 &+ UInt64(i) }
        #expect(x != 0)
        #expect(CPUQuota.processNanoseconds() > before)
    }
}
