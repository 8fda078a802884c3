// The console's settings requests, decided: `GET api/settings` (signed in), `PUT api/settings` and
// the uploads `PUT api/files/overlay` and `api/files/questions` (signed in, same origin, the CSRF
// token), each body within its limit. What a decision leads to (the booth's parser, the console's
// file written, the booth's reload) is the store's (`ConsoleSettingsStore`), which the glue asks.

/// The files the operator uploads from the phone: each stored beside the console's file under its
/// own name, and set there as its setting.
public enum ConsoleUpload: String, CaseIterable, Sendable {
    /// The brand overlay, a PNG with alpha (`overlay`).
    case overlay
    /// The guestbook's questions, UTF-8 text (`questions`).
    case questions

    /// The setting the file is set as.
    public var setting: String { rawValue }

    /// Its name beside the console's file.
    public var fileName: String { self == .overlay ? "console-overlay.png" : "console-questions.txt" }
}

/// What carries out the settings' decisions: the booth's parser over its files, the console's file,
/// the booth's reload. Each answers with the response and, for a change, the audit log's result.
public protocol ConsoleSettingsStore: Sendable {
    /// `GET api/settings`.
    func listing() -> ConsoleResponse
    /// `PUT api/settings` with this body.
    func save(_ body: [UInt8]) -> (ConsoleResponse, result: String)
    /// `PUT api/files/NAME` with this body.
    func upload(_ file: ConsoleUpload, _ body: [UInt8]) -> (ConsoleResponse, result: String)
}

extension ConsoleRules {
    static let settingsPath = "/console/api/settings"
    static let filesPrefix = "/console/api/files/"

    /// Whether `path` is one of the settings' (the settings, or an upload's, named or not).
    static func isSettings(_ path: String) -> Bool {
        path == settingsPath || path.hasPrefix(filesPrefix)
    }

    /// The decision on a settings request: `signedIn` whether the request has a live session,
    /// `refused` why it may not change anything (nil: it may).
    func settingsDecision(_ request: ConsoleRequest, signedIn: Bool, refused: ConsoleResponse?, now: Double) -> ConsoleDecision {
        let address = request.clientAddress
        let upload = request.path.hasPrefix(Self.filesPrefix) ? ConsoleUpload(rawValue: String(request.path.dropFirst(Self.filesPrefix.count))) : nil
        guard request.path == Self.settingsPath || upload != nil else {
            return .answer(signedIn ? Self.notFound : Self.signInFirst, audit: nil)
        }
        let action = upload.map { "upload " + $0.rawValue } ?? "settings"
        switch request.method {
        case "GET" where upload == nil:
            return .answer(signedIn ? nil : Self.signInFirst, audit: nil, or: .settings)
        case "PUT":
            if let refused {
                return .answer(refused, audit: refused.status == 401 ? nil : AuditEntry(time: now, address: address, action: action, result: "refused \(refused.status)"))
            }
            return upload.map { .upload($0, request.body, address: address) } ?? .saveSettings(request.body, address: address)
        default:
            return .answer(Self.notAllowed(!signedIn), audit: nil)
        }
    }
}

extension ConsoleDecision {
    /// `response` when there is one, else `decision`.
    static func answer(_ response: ConsoleResponse?, audit: AuditEntry?, or decision: ConsoleDecision) -> ConsoleDecision {
        response.map { .answer($0, audit: audit) } ?? decision
    }
}
