import CryptoCore
import Foundation
import Mdoc

/// What a VICAL past its `nextUpdate` does (`vicalStalePolicy`).
public enum VICALStalePolicy: String, CaseIterable, Sendable {
    /// Its IACAs stay trusted; `/readyz`, the metrics and each report that uses one of them say the list is stale.
    case warn
    /// Its IACAs are not trusted until a current list is loaded; `/readyz` says why.
    case refuse
}

extension VICALSource {
    /// The shortest and longest `refresh` accepted, in seconds.
    static let refreshRange: ClosedRange<TimeInterval> = 60 ... 86_400

    /// The file or the URL (without user info, query or fragment), as logs, problems and `/readyz` name the source.
    var name: String { url.map(Self.redacted) ?? file }

    /// `url` without user info, query or fragment: those may carry an access token.
    static func redacted(_ url: String) -> String {
        guard var parts = URLComponents(string: url) else { return InputQuote.short(url) }
        parts.user = nil
        parts.password = nil
        parts.query = nil
        parts.fragment = nil
        return parts.string ?? InputQuote.short(url)
    }

    /// The entries of `vicals`: from a file, objects `{file, root, allowRollback}` or `{url, root, refresh,
    /// allowRollback}`; from the environment, `FILE=ROOT` or `URL=ROOT` pairs separated by commas (a URL is split at
    /// its last `=`, since its query may hold one).
    static func list(from value: ConfigurationValue) throws(ConfigurationValueError) -> [VICALSource] {
        guard let objects = value.objectList else {
            return try value.list().map { pair throws(ConfigurationValueError) in
                let isURL = pair.lowercased().hasPrefix("http://") || pair.lowercased().hasPrefix("https://")
                guard let split = isURL ? pair.lastIndex(of: "=") : pair.firstIndex(of: "="),
                      split != pair.startIndex, pair.index(after: split) != pair.endIndex else {
                    throw ConfigurationValueError("every entry is `FILE=ROOT`, `URL=ROOT` or an object with those keys")
                }
                let location = String(pair[..<split]), root = String(pair[pair.index(after: split)...])
                return isURL ? VICALSource(url: location, root: root) : VICALSource(file: location, root: root)
            }
        }
        let known: Set<String> = ["file", "url", "root", "refresh", "allowRollback"]
        return try objects.map { object throws(ConfigurationValueError) in
            if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
                throw ConfigurationValueError("entries know `file` or `url`, `root`, `refresh` and `allowRollback`, not `\(InputQuote.short(unknown))`")
            }
            guard let root = object["root"], !root.isEmpty else { throw ConfigurationValueError("every entry needs `root`") }
            var source: VICALSource
            switch (object["file"], object["url"]) {
            case (let file?, nil): source = VICALSource(file: file, root: root)
            case (nil, let url?): source = VICALSource(url: url, root: root)
            case (.some, .some): throw ConfigurationValueError("an entry has `file` or `url`, not both")
            case (nil, nil): throw ConfigurationValueError("every entry needs `file` or `url`")
            }
            if let refresh = object["refresh"] {
                guard source.url != nil else { throw ConfigurationValueError("`refresh` is for entries with a `url`") }
                guard let seconds = Double(refresh), seconds.isFinite else { throw ConfigurationValueError("refresh must be a number of seconds") }
                source.refresh = seconds
            }
            if let flag = object["allowRollback"] {
                guard let allow = Bool(flag) else { throw ConfigurationValueError("allowRollback must be true or false") }
                source.allowRollback = allow
            }
            return source
        }
    }
}

extension ServerConfiguration {
    /// The VICAL entries' problems that need no file or network access.
    var vicalProblems: [String] {
        var problems: [String] = []
        var urls = Set<String>()
        for source in vicals {
            guard let url = source.url else { continue }
            let scheme = URLComponents(string: url)?.scheme?.lowercased()
            if scheme != "http" && scheme != "https" || URLComponents(string: url)?.host?.isEmpty != false {
                problems.append("vicals: \(InputQuote.short(source.name)) is not an http or https URL")
            }
            if !Self.isInRange(source.refresh) {
                problems.append("vicals: refresh of \(source.name) must be \(Int(VICALSource.refreshRange.lowerBound)) to "
                                + "\(Int(VICALSource.refreshRange.upperBound)) seconds")
            }
            if !urls.insert(url).inserted { problems.append("vicals: \(source.name) is listed twice") }
        }
        if !urls.isEmpty && vicalCacheDirectory.isEmpty {
            problems.append("vicalCacheDirectory is empty; VICALs with a url keep their last good copy there")
        }
        return problems
    }

    private static func isInRange(_ refresh: TimeInterval) -> Bool { VICALSource.refreshRange.contains(refresh) }

    /// Where the last good copy of a `url` source is kept: `vicalCacheDirectory/<SHA-256 of the URL>.cbor`.
    func vicalCopyPath(_ source: VICALSource) -> String? {
        guard let url = source.url else { return nil }
        let name = Hex.encode(Digest.hash(.sha256, Array(url.utf8))) + ".cbor"
        return URL(fileURLWithPath: vicalCacheDirectory).appendingPathComponent(name).path
    }
}
