// The console's settings carried out (KioskConsole's ConsoleSettingsStore): the booth's own parser
// over the booth's files (KioskOptions' ConsoleSettings), the console's file written whole, and the
// booth told to reload over its control socket (the command `reload`, answered by `reloaded` or
// `badConfig`); an upload stored beside the console's file, checked as the booth checks it.
import FoundationEssentials
import Glibc
import KioskConsole
import KioskOptions
import KioskSystem

final class ConsoleSettingsFiles: ConsoleSettingsStore {
    private let settings: ConsoleSettings
    private let booth: @Sendable (BoothQuestion) -> BoothReply
    /// One change at a time: read, checked, written and reloaded before the next.
    private let lock = Locked(())
    /// The console's file and the uploads: the booth's user (or group) reads them, only the console writes.
    static let mode = 0o640

    init(settings: ConsoleSettings, booth: @escaping @Sendable (BoothQuestion) -> BoothReply) {
        self.settings = settings
        self.booth = booth
    }

    func listing() -> ConsoleResponse {
        do throws(UsageError) { return .json(200, try settings.listing()) } catch {
            return .error(500, "badConfig", error.message)
        }
    }

    func save(_ body: [UInt8]) -> (ConsoleResponse, result: String) {
        guard let object = try? JSONDecoder().decode([String: String?].self, from: Data(body)) else {
            return (.error(400, "badRequest", "the body is a JSON object of settings and their values as text, e.g. {\"countdown\": \"5\"} (null: the console's line removed)"),
                    "badRequest")
        }
        let changes = object.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
        return lock.withLock { _ in change(changes) }
    }

    func upload(_ file: ConsoleUpload, _ body: [UInt8]) -> (ConsoleResponse, result: String) {
        lock.withLock { _ in
            let consoleFile: String
            do throws(UsageError) { consoleFile = try settings.consoleFile() } catch { return (.error(500, "badConfig", error.message), "badConfig") }
            let folder = consoleFile.lastIndex(of: "/").map { String(consoleFile[..<$0]) } ?? "."
            let stored = folder + "/" + file.fileName
            // Checked where it lies before it takes the stored one's place: a refused upload leaves
            // the stored file, the console's file and kiosk.conf as they were.
            let arriving = folder + "/.arriving-" + file.fileName
            do throws(ConsoleError) { try WholeFile.write(body, to: arriving, mode: Self.mode) } catch {
                return (.error(500, "notWritten", "cannot write \(arriving): \(error)"), "notWritten")
            }
            do throws(UsageError) {
                _ = try settings.changed([(file.setting, arriving)], current: Self.contents(consoleFile).map { String(decoding: $0, as: UTF8.self) })
            } catch {
                unlink(arriving)
                return (.error(400, "badFile", error.message.replacing(arriving, with: "the uploaded \(file.rawValue)")), "refused badFile")
            }
            guard rename(arriving, stored) == 0 else {
                let failure = String(cString: strerror(errno))
                unlink(arriving)
                return (.error(500, "notWritten", "cannot rename to \(stored): \(failure)"), "notWritten")
            }
            return change([(file.setting, stored)])
        }
    }

    /// The console's file changed, written, and reloaded by the booth; put back as it was when the
    /// booth refuses the reload.
    private func change(_ changes: [(name: String, value: String?)]) -> (ConsoleResponse, result: String) {
        let file: String, old: [UInt8]?, text: String
        do throws(UsageError) {
            file = try settings.consoleFile()
            old = Self.contents(file)
            text = try settings.changed(changes, current: old.map { String(decoding: $0, as: UTF8.self) })
        } catch {
            return (.error(400, "badSetting", error.message), "refused badSetting")
        }
        do throws(ConsoleError) { try WholeFile.write(Array(text.utf8), to: file, mode: Self.mode) } catch {
            return (.error(500, "notWritten", "cannot write \(file): \(error)"), "notWritten")
        }
        var message: String?
        switch booth(.command("{\"command\":\"reload\"}")) {
        case .answered: break
        case let .refused(_, code, refusal):
            restore(old, to: file)
            return (.error(400, code, refusal), "refused \(code)")
        case let .unreachable(why), let .noAnswer(_, why), let .badCommand(why):
            message = "saved; the booth reads it when it starts or reloads: \(why)"
        }
        do throws(UsageError) { return (.json(200, try settings.listing(reloaded: message == nil, message: message)), message == nil ? "ok" : "saved") } catch {
            return (.error(500, "badConfig", error.message), "badConfig")
        }
    }

    /// The console's file as it was before a change the booth refused: its bytes, or none.
    private func restore(_ old: [UInt8]?, to file: String) {
        guard let old else {
            unlink(file)
            return
        }
        do throws(ConsoleError) { try WholeFile.write(old, to: file, mode: Self.mode) } catch {
            Log.info("console: cannot put \(file) back as it was: \(error)")
        }
    }

    /// A file's bytes; nil when it is not there.
    static func contents(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}
