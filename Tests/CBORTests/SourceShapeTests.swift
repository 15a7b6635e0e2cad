import Foundation
import Testing
import TestSupport

/// Issue 35: no function, initializer or closure-initialized property in `Sources/` has a body over
/// `SourceShape.maximumBodyLines` lines, counted from the line of its opening brace to the line of its closing brace.
@Suite("Source shape")
struct SourceShapeTests {
    @Test("no function, init or closure property in Sources/ is longer than the limit")
    func noLongBodies() throws {
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = try SourceShape.swiftFiles(under: sources)
        #expect(files.count > 100, "found only \(files.count) Swift files under \(sources.path)")
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            let relative = "Sources/" + file.path.dropFirst(sources.path.count + 1)
            for body in SourceShape.bodies(in: text) where body.lines > SourceShape.maximumBodyLines {
                offenders.append("\(relative):\(body.firstLine) \(body.name) has \(body.lines) lines")
            }
        }
        #expect(offenders.isEmpty, """
            split these into smaller, well-named functions (at most \(SourceShape.maximumBodyLines) lines each):
            \(offenders.joined(separator: "\n"))
            """)
    }

    @Test("the scanner measures func, init, subscript, computed and closure properties; not calls or stored values")
    func scannerFindsDeclarations() {
        let source = """
            struct S {
                let stored = 1
                var computed: Int {
                    stored + 1
                }
                static let table: [Int] = {
                    [1, 2]
                }()
                init?(x: Int) {
                    self.init(y: x)
                }
                subscript(i: Int) -> Int { i }
                func run(handler: () -> Void = {}) -> Int {
                    let local = { 2 }
                    return local()
                }
                static func == (a: S, b: S) -> Bool {
                    true
                }
                deinit {
                }
            }
            protocol P {
                func requirement()
            }
            let top = [1].map { $0 }
            """
        let found = SourceShape.bodies(in: source).map { "\($0.name)@\($0.firstLine)+\($0.lines)" }
        #expect(found == ["computed@3+3", "table@6+3", "init@9+3", "subscript@12+1", "run@13+4", "==@17+3", "deinit@20+2"])
    }

    @Test("braces inside strings, raw strings, interpolations and comments are not counted")
    func scannerSkipsLiteralsAndComments() {
        let source = #"""
            func a() {
                let s = "}\("{" + "}")"  // }
                /* } /* nested } */ } */
                let r = #"}"\"#
                let m = """
                    }
                    """
            }
            func b() {
            }
            """#
        let found = SourceShape.bodies(in: source).map { "\($0.name)@\($0.firstLine)+\($0.lines)" }
        #expect(found == ["a@1+8", "b@9+2"])
    }

    @Test("a body one line over the limit is reported and one at the limit is not")
    func limitIsInclusive() {
        func function(named name: String, lines: Int) -> String {
            "func \(name)() {\n" + String(repeating: "    _ = 1\n", count: lines - 2) + "}\n"
        }
        let limit = SourceShape.maximumBodyLines
        let source = function(named: "atLimit", lines: limit) + function(named: "over", lines: limit + 1)
        let long = SourceShape.bodies(in: source).filter { $0.lines > limit }.map(\.name)
        #expect(long == ["over"])
    }
}

/// A small Swift scanner that finds declaration bodies: it skips comments and string literals and follows braces.
enum SourceShape {
    static let maximumBodyLines = 60

    struct Body: Equatable {
        let name: String
        let firstLine: Int
        let lastLine: Int
        var lines: Int { lastLine - firstLine + 1 }
    }

    static func swiftFiles(under root: URL) throws -> [URL] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
            .sorted { $0.path < $1.path }
    }

    /// Bodies of every func, init, deinit and subscript, and of computed or closure-initialized properties declared
    /// outside function bodies, in the order of their opening braces.
    static func bodies(in text: String) -> [Body] {
        var lexer = Lexer(Array(text.utf8))
        var parser = BraceParser(tokens: lexer.tokens())
        return parser.run().sorted { $0.firstLine < $1.firstLine }
    }

    struct Token {
        enum Kind { case word, punctuation, literal }
        let kind: Kind
        let text: String
        let line: Int

        func isPunctuation(_ character: String) -> Bool { kind == .punctuation && text == character }
    }

    /// Splits source into words, single punctuation characters and opaque literals, with line numbers.
    struct Lexer {
        private let bytes: [UInt8]
        private var index = 0
        private var line = 1
        private var out: [Token] = []

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        private func byte(_ offset: Int = 0) -> UInt8? {
            index + offset < bytes.count ? bytes[index + offset] : nil
        }

        private func starts(with text: String, at position: Int) -> Bool {
            let pattern = Array(text.utf8)
            guard position + pattern.count <= bytes.count else { return false }
            return Array(bytes[position..<position + pattern.count]) == pattern
        }

        private mutating func advance(_ count: Int = 1) {
            for _ in 0..<count where index < bytes.count {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
        }

        private static func isWordByte(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte >= 0x80
        }

        mutating func tokens() -> [Token] {
            while let current = byte() {
                if starts(with: "//", at: index) {
                    while let next = byte(), next != UInt8(ascii: "\n") { advance() }
                } else if starts(with: "/*", at: index) {
                    skipBlockComment()
                } else if current == UInt8(ascii: "\"") || current == UInt8(ascii: "#") && rawHashes() > 0 {
                    let startLine = line
                    skipString()
                    out.append(Token(kind: .literal, text: "\"", line: startLine))
                } else if current == UInt8(ascii: "`") || Self.isWordByte(current) {
                    readWord()
                } else if current == UInt8(ascii: " ") || current == UInt8(ascii: "\t") || current == UInt8(ascii: "\n")
                    || current == UInt8(ascii: "\r") {
                    advance()
                } else {
                    out.append(Token(kind: .punctuation, text: String(decoding: [current], as: UTF8.self), line: line))
                    advance()
                }
            }
            return out
        }

        private mutating func readWord() {
            let start = index
            if byte() == UInt8(ascii: "`") {
                advance()
                while let next = byte(), next != UInt8(ascii: "`"), next != UInt8(ascii: "\n") { advance() }
                advance()
            } else {
                while let next = byte(), Self.isWordByte(next) { advance() }
            }
            out.append(Token(kind: .word, text: String(decoding: bytes[start..<index], as: UTF8.self), line: line))
        }

        private mutating func skipBlockComment() {
            var depth = 0
            repeat {
                if starts(with: "/*", at: index) {
                    depth += 1
                    advance(2)
                } else if starts(with: "*/", at: index) {
                    depth -= 1
                    advance(2)
                } else {
                    advance()
                }
            } while depth > 0 && index < bytes.count
        }

        /// The number of `#` before a `"` at the current position (0 when this is no raw string).
        private func rawHashes() -> Int {
            var count = 0
            while byte(count) == UInt8(ascii: "#") { count += 1 }
            return byte(count) == UInt8(ascii: "\"") ? count : 0
        }

        /// Skips a string literal of any kind from its opening delimiter; `\(` interpolations are skipped as code.
        private mutating func skipString() {
            let hashes = rawHashes()
            advance(hashes)
            let multiline = starts(with: "\"\"\"", at: index)
            let quote = multiline ? "\"\"\"" : "\""
            advance(quote.count)
            let terminator = quote + String(repeating: "#", count: hashes)
            let escape = "\\" + String(repeating: "#", count: hashes)
            while index < bytes.count {
                if starts(with: terminator, at: index) {
                    advance(terminator.count)
                    return
                }
                if !multiline && byte() == UInt8(ascii: "\n") { return }
                if starts(with: escape + "(", at: index) {
                    advance(escape.count + 1)
                    skipInterpolation()
                } else if starts(with: escape, at: index) {
                    advance(escape.count + 1)
                } else {
                    advance()
                }
            }
        }

        /// Skips the code of an interpolation up to its closing parenthesis, including nested strings.
        private mutating func skipInterpolation() {
            var depth = 0
            while let current = byte() {
                if current == UInt8(ascii: "\"") || current == UInt8(ascii: "#") && rawHashes() > 0 {
                    skipString()
                    continue
                }
                if current == UInt8(ascii: "(") { depth += 1 }
                if current == UInt8(ascii: ")") {
                    if depth == 0 {
                        advance()
                        return
                    }
                    depth -= 1
                }
                advance()
            }
        }
    }

    /// Follows braces and parentheses and ties each `{` to the declaration whose header it ends.
    struct BraceParser {
        private enum Scope {
            case type
            case body(name: String, line: Int)
            case other
        }

        private enum PendingKind {
            case function(String)
            case property(String)
            case type
        }

        private struct Pending {
            let kind: PendingKind
            let braceDepth: Int
            let parenDepth: Int
            var sawEquals = false
        }

        private let tokens: [Token]
        private var scopes: [Scope] = []
        private var parenDepth = 0
        private var pending: Pending?
        private var found: [Body] = []

        private static let typeKeywords: Set<String> = ["struct", "class", "enum", "extension", "protocol", "actor"]
        private static let statementKeywords: Set<String> = [
            "if", "guard", "for", "while", "switch", "do", "repeat", "defer", "return", "case", "import", "typealias",
        ]

        init(tokens: [Token]) { self.tokens = tokens }

        private var onlyTypeScopes: Bool {
            scopes.allSatisfy { if case .type = $0 { true } else { false } }
        }

        private func start(_ kind: PendingKind) -> Pending {
            Pending(kind: kind, braceDepth: scopes.count, parenDepth: parenDepth)
        }

        mutating func run() -> [Body] {
            for position in tokens.indices {
                let token = tokens[position]
                switch token.kind {
                case .word: word(at: position)
                case .punctuation: punctuation(at: position)
                case .literal: break
                }
            }
            return found
        }

        private func functionName(after position: Int) -> String {
            guard position + 1 < tokens.count else { return "func" }
            if tokens[position + 1].kind == .word { return tokens[position + 1].text }
            var name = ""
            var next = position + 1
            while next < tokens.count, tokens[next].kind == .punctuation, !tokens[next].isPunctuation("(") {
                name += tokens[next].text
                next += 1
            }
            return name
        }

        private mutating func word(at position: Int) {
            let text = tokens[position].text
            let previous = position > 0 ? tokens[position - 1] : nil
            let next = position + 1 < tokens.count ? tokens[position + 1] : nil
            let isMember = previous?.isPunctuation(".") ?? false
            switch text {
            case "func":
                pending = start(.function(functionName(after: position)))
            case "init", "subscript":
                if !isMember, let next, next.kind == .punctuation, ["(", "?", "!", "<"].contains(next.text) {
                    pending = start(.function(text))
                }
            case "deinit":
                pending = start(.function(text))
            case "var", "let":
                if onlyTypeScopes, let next, next.kind == .word { pending = start(.property(next.text)) }
            case _ where Self.typeKeywords.contains(text):
                if !isMember, next?.kind == .word { pending = start(.type) }
            case _ where Self.statementKeywords.contains(text):
                if case .property = pending?.kind { pending = nil }
            default:
                break
            }
        }

        private mutating func punctuation(at position: Int) {
            let token = tokens[position]
            switch token.text {
            case "(", "[":
                parenDepth += 1
            case ")", "]":
                parenDepth -= 1
            case "=":
                if pending?.braceDepth == scopes.count && pending?.parenDepth == parenDepth { pending?.sawEquals = true }
            case ";":
                if case .property = pending?.kind { pending = nil }
            case "{":
                open(token, afterEquals: position > 0 && tokens[position - 1].isPunctuation("="))
            case "}":
                close(token)
            default:
                break
            }
        }

        private mutating func open(_ token: Token, afterEquals: Bool) {
            guard let declaration = pending, declaration.braceDepth == scopes.count,
                  declaration.parenDepth == parenDepth else {
                scopes.append(.other)
                return
            }
            pending = nil
            switch declaration.kind {
            case .type:
                scopes.append(.type)
            case .function(let name):
                scopes.append(.body(name: name, line: token.line))
            case .property(let name) where !declaration.sawEquals || afterEquals:
                scopes.append(.body(name: name, line: token.line))
            case .property:
                scopes.append(.other)
            }
        }

        private mutating func close(_ token: Token) {
            guard let scope = scopes.popLast() else { return }
            if case .body(let name, let line) = scope {
                found.append(Body(name: name, firstLine: line, lastLine: token.line))
            }
            if let declaration = pending, scopes.count < declaration.braceDepth { pending = nil }
        }
    }
}
