// Arithmetic on numbers that come from files and drivers (timestamps, durations, sizes, indices):
// a result that does not fit is nil (checked) or pinned to the end of the range (saturating), never
// a trap. A file or a camera can say anything; `+` on what it says would let it end the process.

extension FixedWidthInteger {
    /// `self + other`, or nil when it does not fit.
    @inlinable public func checkedAdding(_ other: Self) -> Self? {
        let (result, overflow) = addingReportingOverflow(other)
        return overflow ? nil : result
    }

    /// `self - other`, or nil when it does not fit.
    @inlinable public func checkedSubtracting(_ other: Self) -> Self? {
        let (result, overflow) = subtractingReportingOverflow(other)
        return overflow ? nil : result
    }

    /// `self * other`, or nil when it does not fit.
    @inlinable public func checkedMultiplied(by other: Self) -> Self? {
        let (result, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? nil : result
    }

    /// `self + other`, pinned to `min`/`max` when it does not fit (FFmpeg's `av_sat_add64`).
    @inlinable public func saturatingAdding(_ other: Self) -> Self {
        checkedAdding(other) ?? (other < 0 ? .min : .max)
    }

    /// `self - other`, pinned to `min`/`max` when it does not fit (`av_sat_sub64`).
    @inlinable public func saturatingSubtracting(_ other: Self) -> Self {
        checkedSubtracting(other) ?? (other < 0 ? .max : .min)
    }
}

extension Int64 {
    /// A `timeval`/`timespec` time in nanoseconds: `seconds` × 10⁹ + `fraction` × `unit` (1000
    /// for microseconds, 1 for nanoseconds); nil when it does not fit or the fraction is not one
    /// (a driver's stamp that cannot be right).
    @inlinable public static func nanoseconds(seconds: Int64, fraction: Int64, unit: Int64) -> Int64? {
        guard fraction >= 0, fraction < 1_000_000_000 / unit, let whole = seconds.checkedMultiplied(by: 1_000_000_000)
        else { return nil }
        return whole.checkedAdding(fraction * unit)
    }
}

extension RandomAccessCollection {
    /// The element at `index`, or nil when it is outside (an index a driver or a file gave).
    @inlinable public subscript(checked index: Index) -> Element? {
        index >= startIndex && index < endIndex ? self[index] : nil
    }
}
