// kiosk-recorder as the benchmarks that time it run it: commands on its stdin, events read from its
// stdout as they come.
import Foundation
import KioskSystem

/// A process's stderr lines as they come, each with the uptime it came at (read on a thread of its own).
final class LogLines: Sendable {
    private let lines = Locked<[(at: Double, line: String)]>([])
    func append(_ line: String) { lines.withLock { $0.append((ProcessInfo.processInfo.systemUptime, line)) } }
    var all: [(at: Double, line: String)] { lines.withLock { $0 } }
}

/// A kiosk-recorder process under SDL's dummy drivers (unless the environment names others).
final class BenchRecorder {
    let process = Process()
    private let input = Pipe(), events = Pipe()
    private var buffer = Data()
    /// With `logged`: each stderr line as it came, with the uptime it came at.
    private let log = Pipe()
    private let logged = LogLines()

    /// `logging`: stderr is read as it comes (`stderrLines`); otherwise it goes nowhere.
    init(_ recorder: String, arguments: [String], logging: Bool = false) {
        process.executableURL = URL(fileURLWithPath: recorder)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["SDL_VIDEODRIVER"] = env["SDL_VIDEODRIVER"] ?? "dummy"
        env["SDL_AUDIODRIVER"] = env["SDL_AUDIODRIVER"] ?? "dummy"
        process.environment = env
        process.standardInput = input
        process.standardOutput = events
        process.standardError = logging ? log : FileHandle.nullDevice
        do { try process.run() } catch { fail("cannot run \(recorder): \(error)") }
        guard logging else { return }
        let (reading, logged) = (log.fileHandleForReading, logged)
        Thread.detachNewThread {
            var pending = Data()
            while case let chunk = reading.availableData, !chunk.isEmpty {
                pending += chunk
                while let end = pending.firstIndex(of: 0x0A) {
                    logged.append(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
                    pending.removeSubrange(pending.startIndex...end)
                }
            }
        }
    }

    /// The stderr lines read so far (with `logging`), each with the uptime it came at.
    var stderrLines: [(at: Double, line: String)] { logged.all }

    /// From `ready`: Start, `seconds` of take, Stop, and `recordingFinished` read.
    func recordTake(seconds: Double) {
        wait(for: "ready")
        send("start")
        wait(for: "recordingStarted")
        Thread.sleep(forTimeInterval: seconds)
        send("stop")
        wait(for: "recordingFinished")
    }

    /// Reads stdout until a line holds `"event":"name"`; returns the uptime when it came.
    @discardableResult
    func wait(for name: String) -> Double { line(of: name).at }

    /// Reads stdout until a line holds `"event":"name"`; that line, and the uptime when it came.
    func line(of name: String) -> (line: String, at: Double) {
        while true {
            if let range = buffer.range(of: Data("\"event\":\"\(name)\"".utf8)),
               let end = buffer[range.upperBound...].firstIndex(of: 0x0A) {
                let start = buffer[..<range.lowerBound].lastIndex(of: 0x0A).map { $0 + 1 } ?? buffer.startIndex
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                buffer.removeAll()
                return (line, ProcessInfo.processInfo.systemUptime)
            }
            let chunk = events.fileHandleForReading.availableData
            if chunk.isEmpty { fail("kiosk-recorder ended before \(name)") }
            buffer += chunk
        }
    }

    /// Sends `{"command":"name"}`.
    func send(_ command: String) {
        input.fileHandleForWriting.write(Data("{\"command\":\"\(command)\"}\n".utf8))
    }
}
