// The timer label: "00:07", "12:34", and "1:02:03" past an hour (the seed wrapped at 60 minutes).

public enum TimerText {
    /// Whole seconds, rounded down, never negative: "MM:SS" under an hour, "H:MM:SS" from an hour.
    public static func format(seconds: Double) -> String {
        let total = seconds.isFinite && seconds > 0 ? Int(seconds.rounded(.down)) : 0
        let h = total / 3600, m = (total / 60) % 60, s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(two(m)):\(two(s))"
    }

    /// "position / duration" for the player's top panel.
    public static func playback(position: Double, duration: Double) -> String {
        "\(format(seconds: position)) / \(format(seconds: duration))"
    }
}
