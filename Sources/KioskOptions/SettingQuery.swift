// `kiosk-recorder config get KEY [options]`: one setting as the booth reads it, for the scripts
// around the booth (kiosk/install's hotspot writes its network from it), so that no script reads
// kiosk.conf with a parser of its own: quotes, an inline comment, spaces, line ends and the limits
// are the booth's, and the QR code and the keyfile name the same network.
import KioskCore

public enum SettingQuery {
    /// The value `key` (a setting's name, as in a config file) has in `configuration`, written as a
    /// config file writes it; nil when it is not set. An unknown key is a usage error naming the
    /// nearest one.
    public static func value(of key: String, in configuration: Configuration) throws(UsageError) -> String? {
        try reader(of: key)(configuration)
    }

    /// What reads `key`'s value, or the usage error for a key that is no setting.
    static func reader(of key: String) throws(UsageError) -> @Sendable (Configuration) -> String? {
        guard let spec = OptionParser.options.first(where: { $0.name == key && $0.listed }), let current = spec.current else {
            let names = OptionParser.options.filter { $0.listed && $0.current != nil }.map(\.name)
            let near = NearestName.suggestion(for: key, among: names).map { ": did you mean \($0)?" } ?? ""
            throw UsageError("config get: '\(key)' is no setting\(near)")
        }
        return current
    }

    /// `get KEY [options]`: the key and the booth's options that follow it (`--config FILE`), or a
    /// usage error saying how it is written.
    public static func arguments(_ arguments: [String]) throws(UsageError) -> (key: String, options: [String]) {
        guard arguments.count >= 2, arguments[0] == "get", !arguments[1].hasPrefix("-") else {
            throw UsageError("config: write it as kiosk-recorder config get KEY [--config FILE] [options]")
        }
        _ = try reader(of: arguments[1])
        return (arguments[1], Array(arguments.dropFirst(2)))
    }
}
