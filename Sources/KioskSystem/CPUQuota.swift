// The share of the CPU a cgroup quota gives this process (cgroup v2's `cpu.max`, v1's
// `cpu.cfs_quota_us` / `cpu.cfs_period_us`), and the process's own CPU time: under a quota the
// scheduler lets the process run for its share of each period, then freezes it for the rest, so
// the wall time a piece of work takes swings with where the period's freeze falls. The CPU time
// used against the share does not (`EffortRule` judges the headroom by it).
import FoundationEssentials
import Glibc

public struct CPUQuota: Equatable, Sendable {
    /// Cores' worth of CPU time a second the quota allows (0.3: 30 ms in every 100 ms).
    public let cores: Double

    public init(cores: Double) { self.cores = cores }

    /// The tightest quota over this process's cgroup and its parents, read once; nil when there is
    /// none, or it allows as many cores as the machine has (then nothing changes: the headroom is
    /// judged by the wall time, as on a machine of its own).
    public static func current() -> CPUQuota? {
        guard let text = read("/proc/self/cgroup") else { return nil }
        var tightest: Double?
        for folder in folders(cgroupFile: text) {
            let quota = read(folder + "/cpu.max").flatMap(cores(cpuMax:))
                ?? read(folder + "/cpu.cfs_quota_us").flatMap { q in read(folder + "/cpu.cfs_period_us").flatMap { cores(quotaMicroseconds: q, period: $0) } }
            if let quota { tightest = min(tightest ?? quota, quota) }
        }
        let online = Double(max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1))
        guard let tightest, tightest < online else { return nil }
        return CPUQuota(cores: tightest)
    }

    /// The process's CPU time so far, all its threads, in nanoseconds (`CLOCK_PROCESS_CPUTIME_ID`).
    public static func processNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// The folders where the process's CPU cgroup and its parents keep their files, from
    /// /proc/self/cgroup: v2's one line `0::/path` under /sys/fs/cgroup, and v1's `N:…cpu…:/path`
    /// under /sys/fs/cgroup/<its controllers> (and /sys/fs/cgroup/cpu, where they are mounted
    /// together under another name); the process's own first, the root last.
    static func folders(cgroupFile text: String, root: String = "/sys/fs/cgroup") -> [String] {
        var found: [String] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].hasPrefix("/") else { continue }
            let controllers = fields[1].split(separator: ",")
            let mounts: [String]
            if fields[0] == "0" && fields[1].isEmpty {
                mounts = [root, root + "/unified"]
            } else if controllers.contains("cpu") {
                mounts = [root + "/" + fields[1], root + "/cpu"]
            } else {
                continue
            }
            var path = String(fields[2])
            while true {
                for mount in mounts { found.append(mount + (path == "/" ? "" : path)) }
                guard path != "/", let slash = path.lastIndex(of: "/") else { break }
                path = slash == path.startIndex ? "/" : String(path[..<slash])
            }
        }
        return found
    }

    /// v2's `cpu.max` ("30000 100000"; "max 100000" is no quota) as cores.
    static func cores(cpuMax text: String) -> Double? {
        let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count == 2, let quota = Double(fields[0]), let period = Double(fields[1]), quota > 0, period > 0 else { return nil }
        return quota / period
    }

    /// v1's `cpu.cfs_quota_us` and `cpu.cfs_period_us` (a quota of -1 is none) as cores.
    static func cores(quotaMicroseconds quota: String, period: String) -> Double? {
        let trim = { (s: String) in String(s.filter { !$0.isWhitespace }) }
        guard let q = Double(trim(quota)), let p = Double(trim(period)), q > 0, p > 0 else { return nil }
        return q / p
    }

    /// A small file's text; nil when it is not there (most machines have no quota files).
    private static func read(_ path: String) -> String? {
        guard let file = try? FileDescriptor.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { Glibc.read(file.rawValue, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
