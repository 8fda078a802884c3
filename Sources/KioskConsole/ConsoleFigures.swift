// What the console's Status page shows beside the booth's own figures (`GET api/figures`): the
// machine's temperatures (Linux thermal zones), its uptime (/proc/uptime), and whether the booth's
// share site answers. Read from files and one probe here; the booth's figures and the disk's
// minutes are the executable's (ConsoleFigures there, with the metrics file's own rule).
import FoundationEssentials
import Glibc

/// One thermal zone's reading.
public struct ZoneTemperature: Codable, Equatable, Sendable {
    /// The zone's folder name (`thermal_zone0`) and what the kernel calls it (`type`: `x86_pkg_temp`).
    public var zone: String
    public var type: String
    public var celsius: Double

    public init(zone: String, type: String, celsius: Double) { (self.zone, self.type, self.celsius) = (zone, type, celsius) }
}

/// Whether the share site answered its probe, and when it was asked.
public struct ShareSiteStatus: Codable, Equatable, Sendable {
    /// The address asked (the share address's site, its phones' probe `/generate_204`).
    public var url: String
    /// True when the site answered 204; false when it answered otherwise or not at all; nil before
    /// the first probe came back.
    public var up: Bool?
    /// The HTTP status it answered, or nil.
    public var status: Int?
    /// What went wrong, or what it answered, in words.
    public var detail: String
    /// When the probe came back (Unix seconds); nil before.
    public var checked: Double?

    public init(url: String, up: Bool? = nil, status: Int? = nil, detail: String = "not asked yet", checked: Double? = nil) {
        (self.url, self.up, self.status, self.detail, self.checked) = (url, up, status, detail, checked)
    }
}

public enum MachineFigures {
    /// How often the share site is probed (a probe takes at most 6 s: Preflight.httpGet's limits).
    public static let shareProbeInterval: Int32 = 10_000

    /// A zone's `temp` file as °C: the kernel writes millidegrees, one integer and a newline. Nil for
    /// anything else (a zone that cannot be read answers EIO or ENODATA, never a number).
    public static func celsius(millidegrees text: String) -> Double? {
        guard let value = Int(text.filter { !$0.isWhitespace }), abs(value) < 1_000_000 else { return nil }
        return Double(value) / 1000
    }

    /// Every `thermal_zone*` under `folder` that gives a reading, in the zones' order (zone 2 before
    /// zone 10); none when the machine has none (a VM, a container without /sys).
    public static func temperatures(in folder: String) -> [ZoneTemperature] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let zones = names.filter { $0.hasPrefix("thermal_zone") && Int($0.dropFirst("thermal_zone".count)) != nil }
            .sorted { Int($0.dropFirst(12)) ?? 0 < Int($1.dropFirst(12)) ?? 0 }
        return zones.compactMap { zone in
            let path = folder + "/" + zone
            guard let text = try? String(contentsOfFile: path + "/temp", encoding: .utf8), let celsius = celsius(millidegrees: text) else { return nil }
            let type = ((try? String(contentsOfFile: path + "/type", encoding: .utf8)) ?? "").split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return ZoneTemperature(zone: zone, type: type, celsius: celsius)
        }
    }

    /// The machine's seconds since boot: /proc/uptime's first number.
    public static func uptime(_ text: String) -> Double? {
        guard let first = text.split(separator: " ").first, let seconds = Double(first), seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }

    /// The share site's probe address for a share address template (`--share-url`): the same
    /// scheme and host, path `/generate_204`, which the booth's nginx site answers 204 (the phones'
    /// connectivity check). Nil when the template is not an http(s) address.
    public static func probeURL(shareTemplate: String) -> String? {
        for scheme in ["http://", "https://"] where shareTemplate.lowercased().hasPrefix(scheme) {
            let rest = shareTemplate.dropFirst(scheme.count)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            guard !authority.isEmpty, !authority.contains("{") else { return nil }
            return scheme + authority + "/generate_204"
        }
        return nil
    }

    /// The status after a probe of `url` at `now` (Unix s): up only for the site's own 204.
    public static func probed(_ url: String, status: Int?, failure: String?, now: Double) -> ShareSiteStatus {
        guard let status else { return ShareSiteStatus(url: url, up: false, detail: failure ?? "no answer", checked: now) }
        let detail = status == 204 ? "answered 204" : "answered \(status), not the share site's 204 (another web server, or its site is not enabled)"
        return ShareSiteStatus(url: url, up: status == 204, status: status, detail: detail, checked: now)
    }
}
