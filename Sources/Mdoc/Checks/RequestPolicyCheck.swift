import CBOR
import MdocModel

extension DocumentCheck {
    /// The returned docType must be one the relying party asked for.
    static let policyDocType = DocumentCheck(.policyDocType, needs: .requestPolicy, produces: .documentRequest, stage: nil) {
        $0.checkRequestedDocType(policy: $1)
    }

    /// The returned elements must be a subset of the requested ones; an `age_over_NN` question may be answered
    /// from `age_in_years` (`AgeDisclosure`). Requested-but-absent elements are not errors.
    static let policyElements = DocumentCheck(.policyElements, needs: .documentRequest, produces: .ageDisclosure, stage: nil) {
        $0.checkRequestedElements(request: $1)
    }

    /// Each age answer derived from `age_in_years` is released as a boolean, and the exact age withheld.
    static let policyAgeFallback = DocumentCheck(.policyAgeFallback, needs: .ageDisclosure, stage: nil) { $0.checkAgeFallback($1) }
}

extension DocumentVerification {
    mutating func checkRequestedDocType(policy: RequestPolicy) -> RequestPolicy.DocumentRequest? {
        guard let request = policy.request(for: document.docType) else {
            fail(.policyDocType, .policyDocTypeNotRequested, "docType \(InputQuote.short(document.docType)) was not requested")
            return nil
        }
        pass(.policyDocType, document.docType)
        return request
    }

    mutating func checkRequestedElements(request: RequestPolicy.DocumentRequest) -> AgeDisclosure {
        let returned = returnedElements
        let ages = AgeDisclosure(request: request, returned: returned.map { ($0.nameSpace, $0.element) })
        if ages.unrequested.isEmpty {
            pass(.policyElements, "\(returned.count) returned element(s), all requested")
        }
        for label in ages.unrequested {
            fail(.policyElements, .policyElementNotRequested, "\(label) was returned but not requested")
        }
        return ages
    }

    mutating func checkAgeFallback(_ ages: AgeDisclosure) {
        guard !ages.derivations.isEmpty else {
            pass(.policyAgeFallback, "no age question needed an answer derived from age_in_years")
            return
        }
        let returned = returnedElements
        for derivation in ages.derivations {
            let source = returned.first { $0.nameSpace == derivation.nameSpace && $0.element == derivation.source }
            let label = "\(derivation.nameSpace)/\(derivation.element)"
            if let source, AgeDisclosure.answer(derivation, ageInYears: source.value) != nil {
                pass(.policyAgeFallback, "\(label) was not returned; answered from \(derivation.source) as a derived boolean, "
                     + "and the exact age is withheld")
            } else {
                fail(.policyAgeFallback, .elementTypeInvalid,
                     "\(derivation.nameSpace)/\(derivation.source) is not an unsigned integer, so it cannot answer \(label)")
            }
        }
    }
}
