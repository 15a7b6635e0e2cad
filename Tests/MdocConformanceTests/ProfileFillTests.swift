@testable import MdocConformance
import Foundation
import Testing

/// `conformance run --target http`: a profile's `${name}` and `${env:NAME}` placeholders are filled in one pass, so a
/// value the tested verifier chose (a request id) cannot name one of the tester's environment variables.
@Suite("conformance http profile placeholders")
struct ProfileFillTests {
    @Test("values and environment variables are filled; an unknown name stays as written")
    func fills() {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        #expect(HTTPProfileTarget.fill("${format}/${id}?p=${env:PATH}&x=${nothing}", ["format": "annex-c", "id": "42"])
                == "annex-c/42?p=\(path)&x=${nothing}")
    }

    @Test("a value holding ${env:…} or another placeholder is inserted as written, never expanded")
    func valuesAreNotRescanned() {
        let filled = HTTPProfileTarget.fill("/v1/${id}/${format}", ["id": "${env:PATH}${format}", "format": "apple-app"])
        #expect(filled == "/v1/${env:PATH}${format}/apple-app")
    }

    @Test("an unclosed placeholder ends the scan")
    func unclosed() {
        #expect(HTTPProfileTarget.fill("a${id", ["id": "1"]) == "a${id")
    }
}
