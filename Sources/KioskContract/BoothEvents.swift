// The lines that answer the operator's commands (docs/interface.md, "Closing the booth", "The
// operator's takes", "Reload"): the booth closed to guests and open again, a take hidden and shown
// again, the settings reloaded, the key measured (`calibrate`); and the change to a take those commands ask for.

/// `hideTake`, `showTake`, `deleteTake`: a take of the output folder, by the path the booth gave it;
/// or `deleteTake` by the token of its share folder (`deleteShared`: the guest's share page).
public enum TakeChange: Equatable, Sendable {
    case hide(path: String), show(path: String), delete(path: String, reason: DeletionReason)
    case deleteShared(token: String, reason: DeletionReason)

    /// The take's path; empty for `deleteShared` (the storage finds it by its token).
    public var path: String {
        switch self {
        case let .hide(path), let .show(path), let .delete(path, _): path
        case .deleteShared: ""
        }
    }

    /// Why a command line is no change: its message (a `badCommand`).
    public struct Refusal: Error, Equatable {
        public let message: String
    }

    /// The change `command` (`hideTake`, `showTake` or `deleteTake`) asks for with these fields: a
    /// `path`, and for `deleteTake` a `reason`, `operator` or `guest`; or for `deleteTake` a share
    /// folder's `token` instead of the path, its reason `guest` unless it says `operator`. The token
    /// is not checked here: the storage refuses an unknown one and a malformed one alike.
    public static func read(_ command: String, path: String?, reason: String?, token: String? = nil) -> Result<TakeChange, Refusal> {
        if command == "deleteTake", let token {
            guard path == nil else { return .failure(Refusal(message: "deleteTake takes \"path\" or \"token\", not both")) }
            guard let reason = reason.map({ DeletionReason(rawValue: $0) }) ?? .guest, reason == .operator || reason == .guest else {
                return .failure(Refusal(message: "deleteTake needs \"reason\": operator or guest"))
            }
            return .success(.deleteShared(token: token, reason: reason))
        }
        guard let path, !path.isEmpty else { return .failure(Refusal(message: "\(command) needs \"path\": a take's, as the booth named it")) }
        guard command == "deleteTake" else { return .success(command == "hideTake" ? .hide(path: path) : .show(path: path)) }
        guard let reason = reason.flatMap(DeletionReason.init(rawValue:)), reason == .operator || reason == .guest else {
            return .failure(Refusal(message: "deleteTake needs \"reason\": operator or guest"))
        }
        return .success(.delete(path: path, reason: reason))
    }

    /// The command's name, for messages.
    public var command: String {
        switch self {
        case .hide: "hideTake"
        case .show: "showTake"
        case .delete, .deleteShared: "deleteTake"
        }
    }
}

extension KioskEvent {
    /// The event without its question (`asked`), as it is without `--questions`.
    public var unasked: KioskEvent {
        if case let .asked(event, _) = self { return event.unasked }
        return self
    }

    /// The event without its figures (`figured`).
    public var unfigured: KioskEvent {
        if case let .figured(event, _) = self { return event }
        return self
    }

    /// `boothClosed`, `boothOpened`: no fields.
    static let boothKinds: [Kind] = [
        Kind(name: "boothClosed", fields: { $0 == .boothClosed ? [] : nil }, decode: { _ in .boothClosed }),
        Kind(name: "boothOpened", fields: { $0 == .boothOpened ? [] : nil }, decode: { _ in .boothOpened }),
        Kind(name: "takeHidden", fields: { if case let .takeHidden(path) = $0 { [(.path, path)] } else { nil } },
             decode: { c in .takeHidden(path: try c.decode(String.self, forKey: .path)) }),
        Kind(name: "takeShown", fields: { if case let .takeShown(path) = $0 { [(.path, path)] } else { nil } },
             decode: { c in .takeShown(path: try c.decode(String.self, forKey: .path)) }),
        Kind(name: "reloaded", fields: { if case let .reloaded(changed, kept) = $0 { [(.changed, changed), (.kept, kept)] } else { nil } },
             decode: { c in .reloaded(changed: try c.decode([String].self, forKey: .changed), kept: try c.decode([String].self, forKey: .kept)) }),
        // The key measured from the backdrop: its colour (`#RRGGBB`), chromakey's similarity, and
        // what keeps the backdrop from keying well (also an `error` `keyBackdrop`), absent when nothing does.
        Kind(name: "keyCalibrated", fields: {
            guard case let .keyCalibrated(colour, similarity, warning) = $0 else { return nil }
            return [(.colour, colour), (.similarity, milliseconds(similarity))] + (warning.map { [(.warning, $0)] } ?? [])
        }, decode: { c in
            .keyCalibrated(colour: try c.decode(String.self, forKey: .colour), similarity: try c.decode(Double.self, forKey: .similarity),
                           warning: try c.decodeIfPresent(String.self, forKey: .warning))
        }),
    ]
}
