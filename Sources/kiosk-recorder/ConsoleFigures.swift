// The Status page's figures beyond `state` (`GET api/figures`): the booth's own figures as its
// `state` reply carries them (StateFigures: the metrics file's counts, the last take's rate, its
// uptime), the disk's minutes of video at that rate (the metrics file's rule, MetricsText.diskSeconds,
// over the take folder's free space), whether the share site answers (probed on a thread of its
// own every 10 s, never on a request's), the thermal zones and the machine's uptime.
import FoundationEssentials
import Glibc
import KioskConsole
import KioskContract
import KioskPreflight
import KioskStorage
import KioskSystem

final class ConsoleFigures: Sendable {
    /// The answer's JSON.
    struct Answer: Encodable {
        struct Disk: Encodable {
            var folder: String
            var freeBytes: Int64?
            var keepFree: Int64
            var bytesPerSecond: Double?
            var seconds: Double?
        }
        /// The booth's figures, or why there are none.
        var booth: StateFigures?
        var boothUnreachable: String?
        var disk: Disk
        var share: ShareSiteStatus?
        var temperatures: [ZoneTemperature]
        var uptime: Double?
    }

    private struct StateLine: Decodable { var figures: StateFigures? }

    let folder: String
    let keepFree: Int64
    let thermalFolder: String
    private let booth: @Sendable (BoothQuestion) -> BoothReply
    private let share: Locked<ShareSiteStatus?>

    /// `folder`: where the takes go (`--output-dir`, or `--output`'s folder); `keepFree`:
    /// `--min-free-disk`; `shareTemplate`: `--share-url` (nil: no share site to probe).
    init(folder: String, keepFree: Int64, shareTemplate: String?, thermalFolder: String,
         booth: @escaping @Sendable (BoothQuestion) -> BoothReply) {
        (self.folder, self.keepFree, self.thermalFolder, self.booth) = (folder, keepFree, thermalFolder, booth)
        let probe = shareTemplate.flatMap { MachineFigures.probeURL(shareTemplate: $0) }
        share = Locked(probe.map { ShareSiteStatus(url: $0) })
    }

    /// Probes the share site on a thread of its own, at once and every `shareProbeInterval`.
    func start() throws(SystemError) {
        guard let url = share.withLock({ $0?.url }) else { return }
        let share = share
        _ = try WorkerThread(name: "console-share") { thread in
            while !thread.isStopping {
                let now = { Date().timeIntervalSince1970 }
                let status: ShareSiteStatus = switch Preflight.httpGet(url) {
                case let .success(answer): MachineFigures.probed(url, status: answer.status, failure: nil, now: now())
                case let .failure(failure): MachineFigures.probed(url, status: nil, failure: failure.reason, now: now())
                }
                share.withLock { $0 = status }
                thread.wait(milliseconds: MachineFigures.shareProbeInterval)
            }
        }
    }

    /// The figures now: the booth asked for its `state` (its figures), the disk, the zones and
    /// /proc/uptime read, the share site as its last probe found it.
    func answer() -> ConsoleResponse {
        var figures: StateFigures?
        var unreachable: String?
        switch booth(.state) {
        case let .answered(lines):
            figures = lines.last.flatMap { try? JSONDecoder().decode(StateLine.self, from: Data($0.utf8)).figures }
        case let .unreachable(why), let .noAnswer(_, why), let .refused(_, _, why), let .badCommand(why):
            unreachable = why
        }
        let free = DiskSpace.available(at: folder + "/x")
        let rate = figures?.bytesPerSecond
        let seconds = free.flatMap { MetricsText.diskSeconds(free: $0, keep: keepFree, bytesPerSecond: rate) }
        let uptime = (try? String(contentsOfFile: "/proc/uptime", encoding: .utf8)).flatMap(MachineFigures.uptime)
        let answer = Answer(booth: figures, boothUnreachable: unreachable,
                            disk: .init(folder: folder, freeBytes: free, keepFree: keepFree, bytesPerSecond: rate, seconds: seconds.map { $0.rounded() }),
                            share: share.withLock { $0 }, temperatures: MachineFigures.temperatures(in: thermalFolder), uptime: uptime)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(answer) else { return .error(500, "figures", "the figures could not be written as JSON") }
        return .json(200, String(decoding: data, as: UTF8.self))
    }
}
