// C's printf formatting for the few numbers written with a fixed number of decimals, without full
// Foundation (its `String(format:)` brings the internationalisation data: 30 MB of the binary).
import Glibc

extension String {
    /// `format` filled by vsnprintf in the C locale (the booth never calls setlocale: the decimal
    /// point is always '.'): "%.1f" or "%g" with a Double, "%ld" with an Int. No "%@".
    public init(printf format: String, _ arguments: CVarArg...) {
        var buffer = [CChar](repeating: 0, count: 256)
        var count = Int(withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) })
        if count >= buffer.count {
            buffer = [CChar](repeating: 0, count: count + 1)
            count = Int(withVaList(arguments) { vsnprintf(&buffer, buffer.count, format, $0) })
        }
        self = String(decoding: buffer[..<Swift.max(count, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
