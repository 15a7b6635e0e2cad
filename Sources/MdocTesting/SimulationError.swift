/// Why a simulation could not be built (bad options, conflicting faults), as opposed to a verdict.
public enum SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kit cannot do what was asked, such as sign with an X25519 key; the text says what.
    case unsupported(String)
    /// An option is invalid or does not fit the others; the text says which and why.
    case invalidOption(String)
    /// The two faults cannot be built into one response.
    case conflictingFaults(Fault, Fault)
    /// The fault cannot be applied, with the reason (another format, nothing to act on, no status list).
    case faultNotApplicable(Fault, String)

    /// A one-line message for the error.
    public var description: String {
        switch self {
        case .unsupported(let what): return "unsupported: \(what)"
        case .invalidOption(let what): return "invalid option: \(what)"
        case .conflictingFaults(let a, let b): return "faults \(a.name) and \(b.name) cannot be combined"
        case .faultNotApplicable(let fault, let why): return "fault \(fault.name) cannot be applied: \(why)"
        }
    }
}
