#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import COpenSSL

/// Conversions between ASN1_TIME (UTCTime / GeneralizedTime, always UTC in certificates) and Date,
/// done with civil-calendar arithmetic: no formatter, no time zone database.
package enum ASN1Time {
    /// The instant an ASN1_TIME denotes, or nil when OpenSSL cannot read it.
    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else {
            ERR_clear_error()
            return nil
        }
        let days = daysFromCivil(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
        let seconds = days * 86_400 + Int(parts.tm_hour) * 3600 + Int(parts.tm_min) * 60 + Int(parts.tm_sec)
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// Whole seconds since 1970 (rounded down), as OpenSSL wants for time_t parameters.
    static func epochSeconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970.rounded(.down))
    }

    /// A new ASN1_TIME for `date` (UTCTime for 1950–2049, GeneralizedTime otherwise, as RFC 5280 requires).
    /// The caller frees it with ASN1_TIME_free.
    package static func make(_ date: Date) -> UnsafeMutablePointer<ASN1_TIME>? {
        ASN1_TIME_set(nil, time_t(epochSeconds(date)))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
    package static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
