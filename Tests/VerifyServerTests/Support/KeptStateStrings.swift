import Verifier

extension KeptState {
    /// A kept state of string members, for a store test that keeps it without reading it.
    static func strings(_ members: [String: String]) -> KeptState {
        (try? KeptState(members)) ?? .empty
    }

    /// The member names, sorted.
    var names: [String] { value.members?.map(\.0) ?? [] }

    /// Whether a member's text holds `marker`.
    func holds(_ marker: String) -> Bool { json.contains(marker) }
}
