extension IssuerSignedItem {
    /// What an item repeats from an earlier item of its namespace (§9.1.2.5: a digestID, and an element, appear once
    /// per namespace).
    package enum Repeat: Sendable, Equatable {
        /// An earlier item has the same digestID.
        case digestID
        /// An earlier item whose digestID was new has the same element identifier.
        case element
    }

    /// Up to this many items are compared pairwise: cheaper than allocating two sets and hashing every identifier.
    static let pairwiseRepeatLimit = 32

    /// Item index → what it repeats, for the items that repeat anything (empty, and not allocated, when none does).
    package static func repeats(_ items: [IssuerSignedItem]) -> [Int: Repeat] {
        var repeats: [Int: Repeat] = [:]
        if items.count <= pairwiseRepeatLimit {
            var counted: UInt64 = 0  // bit i: item i's digestID was new, so its element identifier counts
            for index in items.indices {
                let digestID = items[index].digestID
                // Identifiers of different lengths differ: most pairs are told apart without a string comparison.
                let length = items[index].elementIdentifier.utf8.count
                if (0 ..< index).contains(where: { items[$0].digestID == digestID }) {
                    repeats[index] = .digestID
                } else if (0 ..< index).contains(where: {
                    counted & (1 << $0) != 0 && items[$0].elementIdentifier.utf8.count == length
                        && items[$0].elementIdentifier == items[index].elementIdentifier
                }) {
                    repeats[index] = .element
                } else {
                    counted |= 1 << index
                }
            }
            return repeats
        }
        var seenIDs = Set<UInt64>(minimumCapacity: items.count)
        var seenElements = Set<String>(minimumCapacity: items.count)
        for index in items.indices {
            if !seenIDs.insert(items[index].digestID).inserted {
                repeats[index] = .digestID
            } else if !seenElements.insert(items[index].elementIdentifier).inserted {
                repeats[index] = .element
            }
        }
        return repeats
    }
}
