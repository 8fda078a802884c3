// What the operator may ask of the machine from the console: power off, reboot (logind) and the
// booth's service restarted (systemd). The rules read the request and audit the answer; the
// executable hands the server the calls that carry them out (over the system bus, as polkit allows).

/// An action on the machine, by its name in the request's `action`.
public enum MachineAction: String, Sendable, Equatable, CaseIterable {
    case poweroff
    case reboot
    /// The booth's service restarted.
    case restart

    /// The API path that takes it: power off and reboot at `api/power`, the restart at `api/service`.
    var path: String { self == .restart ? "/console/api/service" : "/console/api/power" }

    /// The action a request to `path` names in its JSON body's `action`; nil when it names none of
    /// that path's.
    static func named(in body: [UInt8], path: String) -> MachineAction? {
        guard let name = JSONText.stringField("action", in: body), let action = MachineAction(rawValue: name),
              action.path == path else { return nil }
        return action
    }

    /// What the audit log calls it.
    var auditName: String { self == .restart ? "service restart" : "power " + rawValue }
}

extension ConsoleRules {
    /// The answer to `action` and the audit log's result: 202 once logind or systemd took it (the
    /// machine goes down, or the booth restarts, after the answer), 502 with why when it refused
    /// or was not there.
    public static func machineAnswer(_ action: MachineAction, failure: String?) -> (ConsoleResponse, result: String) {
        guard let failure else { return (.json(202, "{\"ok\":true,\"action\":\(JSONText.string(action.rawValue))}"), "ok") }
        return (.json(502, "{\"ok\":false,\"error\":\"machine\",\"action\":\(JSONText.string(action.rawValue)),\"message\":\(JSONText.string(failure))}"),
                "failed: " + String(failure.prefix(200)))
    }

    /// A body naming no action its path takes.
    static func badAction(_ path: String) -> ConsoleResponse {
        let names = MachineAction.allCases.filter { $0.path == path }.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        return .error(400, "badAction", "the body is {\"action\": \(names)}")
    }
}
