import CryptoCore
import Foundation

/// RFC 3339 date-times (`tdate`, CBOR tag 0) and full-dates (tag 1004) without DateFormatter, which is costly to
/// create (docs/performance.md). Fractional seconds are accepted (real wallets send them).
public enum RFC3339 {
    /// An instant to the nanosecond, as RFC 3339 text writes it. A `Date` (a Double) cannot hold nanoseconds at
    /// today's epoch, so values that are printed back are kept as this.
    public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// Whole seconds since 1970-01-01T00:00:00Z (UTC).
        public let seconds: Int
        /// The fraction of the second, in nanoseconds (`0 ..< 1_000_000_000`).
        public let nanoseconds: Int

        /// Creates a timestamp from seconds since 1970-01-01T00:00:00Z; whole seconds in `nanoseconds` carry into
        /// `seconds`.
        public init(seconds: Int, nanoseconds: Int = 0) {
            self.seconds = seconds + nanoseconds / 1_000_000_000
            self.nanoseconds = nanoseconds % 1_000_000_000
        }

        /// A `Date`, to the microsecond (the precision a Date holds at today's epoch).
        public init(_ date: Date) {
            let micros = (date.timeIntervalSince1970 * 1_000_000).rounded()
            let whole = (micros / 1_000_000).rounded(.down)
            self.init(seconds: Int(whole), nanoseconds: Int(micros - whole * 1_000_000) * 1000)
        }

        /// Parses RFC 3339 date-time text, or returns nil when `text` is not one.
        ///
        /// The form is `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`/`z` in lower case are accepted too. Up to nine
        /// fraction digits are kept; further ones are read and dropped.
        public init?(parsing text: String) {
            guard let parsed = RFC3339.parse(text) else { return nil }
            self = parsed
        }

        /// The instant as a `Date` (a `Date` cannot hold every nanosecond).
        public var date: Date { Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000) }

        /// The timestamp as RFC 3339 text in UTC, with the fraction's significant digits only (none for whole seconds).
        public var description: String {
            // Floor division in integers: every field below is then in range for any `seconds`.
            let remainder = seconds % 86_400
            let days = seconds / 86_400 - (remainder < 0 ? 1 : 0)
            let secondsOfDay = remainder < 0 ? remainder + 86_400 : remainder
            let (y, m, d) = RFC3339.civilFromDays(days)
            // Written as ASCII into one buffer, one String: reports print several timestamps per document, and
            // concatenating padded pieces cost a String each. Years outside 0...9999 (only a caller's `Date` can hold
            // one) widen the year field or take a sign, as ISO 8601's expanded years do.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
                var count = 0
                func put(_ byte: UInt8) {
                    buffer[count] = byte
                    count += 1
                }
                // `value` (not negative) in at least `width` digits, leading zeros filling the rest.
                func put(_ value: Int, width: Int) {
                    var divisor = 1, digits = 1
                    while digits < width || value / divisor >= 10 {
                        divisor *= 10
                        digits += 1
                    }
                    var rest = value
                    while divisor > 0 {
                        put(UInt8(ascii: "0") + UInt8(rest / divisor))
                        rest %= divisor
                        divisor /= 10
                    }
                }
                if y < 0 { put(UInt8(ascii: "-")) }
                put(abs(y), width: 4); put(UInt8(ascii: "-")); put(m, width: 2); put(UInt8(ascii: "-")); put(d, width: 2)
                put(UInt8(ascii: "T")); put(secondsOfDay / 3600, width: 2); put(UInt8(ascii: ":"))
                put(secondsOfDay % 3600 / 60, width: 2); put(UInt8(ascii: ":")); put(secondsOfDay % 60, width: 2)
                if nanoseconds > 0 {
                    var fraction = nanoseconds, width = 9
                    while fraction % 10 == 0 {
                        fraction /= 10
                        width -= 1
                    }
                    put(UInt8(ascii: ".")); put(fraction, width: width)
                }
                put(UInt8(ascii: "Z"))
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
            }
        }

        /// Orders timestamps in time.
        public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
            (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; `t`/`z` in lower case are accepted too.
    public static func parseDateTime(_ text: String) -> Date? {
        parse(text)?.date
    }

    static func parse(_ text: String) -> Timestamp? {
        var text = text
        return text.withUTF8 { parse(utf8: $0) }
    }

    // The parsers read the UTF-8 bytes in place (no array per call: element types are checked on every response).
    private static func parse(utf8 s: UnsafeBufferPointer<UInt8>) -> Timestamp? {
        guard s.count >= 20,
              let year = number(s, 0, 4), s[4] == UInt8(ascii: "-"),
              let month = number(s, 5, 2), s[7] == UInt8(ascii: "-"),
              let day = number(s, 8, 2), s[10] == UInt8(ascii: "T") || s[10] == UInt8(ascii: "t"),
              let hour = number(s, 11, 2), s[13] == UInt8(ascii: ":"),
              let minute = number(s, 14, 2), s[16] == UInt8(ascii: ":"),
              let second = number(s, 17, 2)
        else { return nil }
        guard (1 ... 12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 60
        else { return nil }
        var index = 19
        var nanoseconds = 0
        if index < s.count, s[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 100_000_000
            let start = index
            while index < s.count, let digit = digitValue(s[index]) {
                nanoseconds += digit * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        guard index < s.count else { return nil }
        var offsetSeconds = 0
        switch s[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = s[index] == UInt8(ascii: "-") ? -1 : 1
            guard index + 6 == s.count, let oh = number(s, index + 1, 2), s[index + 3] == UInt8(ascii: ":"),
                  let om = number(s, index + 4, 2), oh <= 23, om <= 59
            else { return nil }
            offsetSeconds = sign * (oh * 3600 + om * 60)
            index += 6
        default:
            return nil
        }
        guard index == s.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
        return Timestamp(seconds: seconds, nanoseconds: nanoseconds)
    }

    /// Parses `YYYY-MM-DD`.
    public static func parseFullDate(_ text: String) -> (year: Int, month: Int, day: Int)? {
        var text = text
        return text.withUTF8 { parseFullDate(utf8: $0) }
    }

    private static func parseFullDate(utf8 s: UnsafeBufferPointer<UInt8>) -> (year: Int, month: Int, day: Int)? {
        guard s.count == 10, let year = number(s, 0, 4), s[4] == UInt8(ascii: "-"),
              let month = number(s, 5, 2), s[7] == UInt8(ascii: "-"), let day = number(s, 8, 2),
              (1 ... 12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return (year, month, day)
    }

    /// Formats `date` as `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (UTC; the fraction, to the microsecond, only when there is
    /// one).
    public static func format(_ date: Date) -> String {
        Timestamp(date).description
    }

    // MARK: - Calendar arithmetic (proleptic Gregorian, H. Hinnant's algorithms)

    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        ASN1Time.daysFromCivil(year: year, month: month, day: day)
    }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func digitValue(_ c: UInt8) -> Int? {
        c >= 48 && c <= 57 ? Int(c - 48) : nil
    }

    private static func number(_ s: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start + count <= s.count else { return nil }
        var value = 0
        for i in start ..< start + count {
            guard let d = digitValue(s[i]) else { return nil }
            value = value * 10 + d
        }
        return value
    }
}
