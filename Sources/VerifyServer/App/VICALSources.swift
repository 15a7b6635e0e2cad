import Foundation
import Mdoc
import MdocModel

/// What a VICAL or LoTE past its `nextUpdate` does (`vicalStalePolicy`).
public enum VICALStalePolicy: String, CaseIterable, Sendable {
    /// Its anchors stay trusted; `/readyz`, the metrics and each report that uses one of them say the list is stale.
    case warn
    /// Its anchors are not trusted until a current list is loaded; `/readyz` says why.
    case refuse
}

extension VICALSource {
    /// The file or the URL (without user info, query or fragment), as logs, problems and `/readyz` name the source.
    var name: String { TrustList.vical(self).name }

    /// The entries of `vicals`: from a file, objects `{file, root, allowRollback}` or `{url, root, refresh,
    /// allowRollback}`; from the environment, `FILE=ROOT` or `URL=ROOT` pairs separated by commas (a URL is split at
    /// its last `=`, since its query may hold one).
    static func list(from value: ConfigurationValue) throws(ConfigurationValueError) -> [VICALSource] {
        guard let objects = value.objectList else {
            return try value.list().map { pair throws(ConfigurationValueError) in
                let isURL = TrustListEntry.isURL(pair)
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
            let entry = try TrustListEntry(object, rootHint: "")
            var source = entry.url.map { VICALSource(url: $0, root: entry.root, refresh: entry.refresh ?? 3600) }
                ?? VICALSource(file: entry.file, root: entry.root)
            source.allowRollback = entry.allowRollback
            return source
        }
    }
}
