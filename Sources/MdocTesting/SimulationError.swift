/// Why a simulation could not be built (bad options, conflicting faults), as opposed to a verdict.
public enum SimulationError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsupported(String)
    case invalidOption(String)
    case conflictingFaults(Fault, Fault)
    case faultNotApplicable(Fault, String)

    public var description: String {
        switch self {
        case .unsupported(let what): return "unsupported: \(what)"
        case .invalidOption(let what): return "invalid option: \(what)"
        case .conflictingFaults(let a, let b): return "faults \(a.name) and \(b.name) cannot be combined"
        case .faultNotApplicable(let fault, let why): return "fault \(fault.name) cannot be applied: \(why)"
        }
    }
}
