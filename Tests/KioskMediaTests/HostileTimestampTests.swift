// The hostile-timestamp corpus (issue 12, Tests/KioskTestSupport/HostileMovies.swift) in the
// process: each file inspected by MovieProbe, as a Start does over a file left beside a marker, and
// played by MoviePlayer. None traps or hangs; each plays to its end (or, with nothing to play, ends
// with an error) within its length plus 5 s; the probe's duration is no longer than that.
import Foundation
import Testing
import KioskCore
import KioskSystem
@testable import KioskMedia
import KioskTestSupport

@Suite("Hostile timestamps")
struct HostileTimestampTests {
    @Test("the hostile-timestamp corpus: MovieProbe and MoviePlayer never trap or hang; each file ends within its length + 5 s")
    func corpus() throws {
        let files = try HostileMovies.make(in: scratch("hostile"))
        for (movie, path) in files {
            do {
                let info = try MovieProbe.inspect(path)
                #expect(info.duration >= 0 && info.duration <= movie.content + 5, "\(movie): the probe says \(info.duration) s")
                #expect(!movie.plays || info.videoPackets + info.audioPackets > 0, "\(movie): \(info)")
                print("hostile: \(movie): probe \(info.duration) s, \(info.videoPackets) + \(info.audioPackets) packets, \(info.retimedPackets) re-timed")
            } catch {
                #expect(!movie.plays, "\(movie): \(error)")
            }
        }
        // Three at a time, in real time: the bound is on the playing, as a guest would see it.
        let results = Locked<[(HostileMovie, PlayOutcome)]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { lane in
            for (movie, path) in files.enumerated().filter({ $0.offset % 3 == lane }).map(\.element) {
                let outcome = play(path, timeout: movie.content + 5, readStamps: false)
                results.withLock { $0.append((movie, outcome)) }
            }
        }
        let all = results.withLock { $0 }
        #expect(all.count == files.count)
        for (movie, outcome) in all {
            let shown = outcome.shown.map(\.time)
            print("hostile: \(movie): \(String(describing: outcome.ended)) after \(outcome.seconds) s, \(shown.count) pictures "
                  + "(\(outcome.dropped) late) up to \(shown.last ?? 0) s")
            switch outcome.ended {
            case .end?:
                #expect(movie.plays, "\(movie) played, though there is nothing in it")
                #expect(outcome.info?.videoSize == nil || !shown.isEmpty, "\(movie): no picture shown")
            case let .error(message)?:
                #expect(!movie.plays, "\(movie): \(message)")
            case nil:
                Issue.record("\(movie) did not end within \(movie.content + 5) s: pictures at \(shown)")
            }
            // Re-timed, not taken at their word: no picture is shown hours into a 1 s file.
            #expect((shown.last ?? 0) <= movie.content + 1, "\(movie): pictures at \(shown)")
            #expect(outcome.closeSeconds < 0.5, "\(movie): close took \(outcome.closeSeconds) s")
        }
    }
}
