// The console's page: plain HTML, CSS and JavaScript in the checkout's kiosk/console, installed in
// <prefix>/share/kiosk-recorder/console; no build step, nothing fetched from elsewhere. nginx's share
// site serves them on a booth; the console reads them once as it starts and serves them itself where
// no nginx stands in front (a loopback port, a proxy of one's own). The sign-in form is all the page
// shows until the operator signs in; what comes after asks the API, which answers nothing before
// (401). Until a password is set the console's /console/ is no-password.html, which says how to set
// one; nginx's index.html learns it from `GET api/session`.
import FoundationEssentials

/// The page's files as the console serves them.
public struct ConsolePages: Sendable {
    /// Its files, by name, as the package installs them.
    public static let names = ["index.html", "no-password.html", "console.css", "console.js", "settings.js", "film.js", "devices.js"]
    /// How the operator sets the password (the sign-in's 503 and the API's 401 say it).
    static let setPasswordHint = "No console password is set. On the booth, run: sudo -u kiosk kiosk-recorder console password"

    /// The folder they were read from (a missing one's 404 names it).
    public let folder: String
    let files: [String: [UInt8]]

    public init(folder: String, files: [String: [UInt8]]) {
        self.folder = folder
        self.files = files
    }

    /// The files of `folder` (one that cannot be read is left out: `missing` names it).
    public static func read(_ folder: String) -> ConsolePages {
        var files: [String: [UInt8]] = [:]
        for name in names {
            if let data = try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)) { files[name] = Array(data) }
        }
        return ConsolePages(folder: folder, files: files)
    }

    /// The names it has no file for.
    public var missing: [String] { Self.names.filter { files[$0] == nil } }

    /// The path of the file `name` under /console/ (index.html is /console/ itself).
    static func name(at path: String) -> String? {
        guard path.hasPrefix("/console/") else { return nil }
        let name = path == "/console/" ? "index.html" : String(path.dropFirst("/console/".count))
        return name != "no-password.html" && names.contains(name) ? name : nil
    }

    /// The file `name`, with its type and the page's safety headers; 404 naming the folder when it
    /// was not there as the console started.
    func answer(_ name: String) -> ConsoleResponse {
        guard let body = files[name] else {
            return .error(404, "noPage", "the console's page file \(name) is not in \(folder) (--pages)")
        }
        let type = name.hasSuffix(".html") ? "text/html" : name.hasSuffix(".css") ? "text/css" : "text/javascript"
        let headers = ConsoleRules.safety.merging(["Content-Type": type + "; charset=utf-8", "Cache-Control": "no-store"]) { a, _ in a }
        return ConsoleResponse(status: 200, headers: headers, body: body)
    }
}
