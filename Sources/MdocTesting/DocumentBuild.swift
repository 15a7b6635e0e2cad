import CBOR
import CryptoCore
import Foundation
import Mdoc

/// The state of building one Document: content, disclosure, keys and the faults to apply.
struct DocumentBuild {
    let pki: TestPKI
    let options: SimulationOptions
    let faults: Set<Fault>
    let style: CBOREncodingStyle
    /// Unknown map entries for `unknownMapKeys` (empty otherwise).
    let extraEntries: [(CBORValue, CBORValue)]
    var seed: SeedMaterial { pki.seed }
    var time: Date { options.time }

    private(set) var disclosed: [ElementID] = []
    var documentSigner: Certificate?
    /// The CA between the IACA and the document signer (`intermediateCA` fault), sent in x5chain after the signer.
    var intermediateCA: Certificate?
    var readerKeyForVerifier: PrivateKey?
    /// Which seeded device key the document binds (a second document of the same docType uses another).
    var deviceKeyLabel = "device"
    /// The digest `missingDigestID` leaves out of the MSO.
    var omittedDigest: (nameSpace: String, id: UInt64)?
    var deviceAuthentication: SimulationOptions.DeviceAuthMode {
        faults.contains(.deviceMacWithoutReaderKey) ? .mac : options.deviceAuthentication
    }

    init(pki: TestPKI, options: SimulationOptions, faults: Set<Fault>) {
        self.pki = pki
        self.options = options
        self.faults = faults
        self.style = faults.contains(.nonShortestCBOR) ? .nonShortest : .preferred
        self.extraEntries = faults.contains(.unknownMapKeys) ? [(.text("x-mdoc-testing"), .text("a key no standard defines"))] : []
    }

    /// One IssuerSignedItem as built: its element, digest ID, salt and bytes.
    struct Item {
        var element: DataElement
        var digestID: UInt64
        var salt: [UInt8]
        var bytes: [UInt8]
    }

    struct NameSpaceItems {
        let name: String
        var all: [Item]
        var decoys: [(id: UInt64, digest: [UInt8])]
        var disclosed: [Item]
    }

    mutating func document(target: ResponseTarget) throws -> CBORValue {
        guard options.saltLength >= IssuerSignedItemBuilder.minimumSaltLength, options.saltLength <= 1024 else {
            throw SimulationError.invalidOption("saltLength must be 16…1024 bytes")
        }
        guard options.decoysPerNameSpace >= 0, options.decoysPerNameSpace <= 64 else {
            throw SimulationError.invalidOption("decoysPerNameSpace must be 0…64")
        }
        var nameSpaces = try issuerNameSpaces()
        try applyItemFaults(&nameSpaces)
        let deviceKey = try pki.deviceKey(curve: options.deviceCurve, label: deviceKeyLabel)
        let issuerAuth = try issuerAuth(nameSpaces: nameSpaces, deviceKey: deviceKey.publicKey)
        let deviceSigned = try deviceSigned(target: target, deviceKey: deviceKey)
        return DeviceResponseBuilder.document(
            docType: options.docType,
            issuerNameSpaces: nameSpaces.filter { !$0.disclosed.isEmpty }.map { ($0.name, $0.disclosed.map(\.bytes)) },
            issuerAuth: issuerAuth, deviceSigned: deviceSigned, extraEntries: extraEntries)
    }

    // MARK: Content and disclosure

    private mutating func issuerNameSpaces() throws -> [NameSpaceItems] {
        guard let content = options.content ?? SampleContent.elements(for: options.docType, at: time, country: pki.country,
                                                                       jurisdiction: pki.jurisdiction) else {
            throw SimulationError.invalidOption("no sample content for docType \(options.docType); pass `content`")
        }
        var seen: Set<ElementID> = []
        for element in content where !seen.insert(element.id).inserted {
            throw SimulationError.invalidOption("content holds \(element.id) twice")
        }
        let selection = options.elements ?? content.map(\.id)
        for id in selection where !seen.contains(id) {
            throw SimulationError.invalidOption("\(id) is not an element of the \(options.docType) content")
        }
        let chosen = Set(selection)
        disclosed = content.map(\.id).filter { chosen.contains($0) }

        var order: [String] = []
        var grouped: [String: [DataElement]] = [:]
        for element in content {
            if grouped[element.nameSpace] == nil { order.append(element.nameSpace) }
            grouped[element.nameSpace, default: []].append(element)
        }
        let digestLength = options.digestAlgorithm.outputByteCount
        return order.map { name in
            let elements = grouped[name] ?? []
            // Issuers hand out digest IDs in random order so that IDs reveal nothing about elements.
            let ids = permutation(count: elements.count + options.decoysPerNameSpace, label: "digest-ids/\(options.docType)/\(name)")
            var items: [Item] = []
            for (index, element) in elements.enumerated() {
                let salt = seed.bytes("salt/\(options.docType)/\(name)/\(element.identifier)", count: options.saltLength)
                items.append(item(element, digestID: ids[index], salt: salt))
            }
            let decoys = ids[elements.count...].map { id in
                (id: id, digest: seed.bytes("decoy/\(options.docType)/\(name)/\(id)", count: digestLength))
            }
            return NameSpaceItems(name: name, all: items, decoys: decoys, disclosed: items.filter { chosen.contains($0.element.id) })
        }
    }

    func item(_ element: DataElement, digestID: UInt64, salt: [UInt8]) -> Item {
        let bytes = IssuerSignedItemBuilder.encode(digestID: digestID, random: salt, element: element, extraEntries: extraEntries, style: style)
        return Item(element: element, digestID: digestID, salt: salt, bytes: bytes)
    }

    /// 0..<count shuffled with seeded randomness (Fisher–Yates).
    func permutation(count: Int, label: String) -> [UInt64] {
        var values = (0 ..< UInt64(count)).map { $0 }
        guard count > 1 else { return values }
        let random = seed.bytes(label, count: 4 * count)
        for index in stride(from: count - 1, to: 0, by: -1) {
            let word = random[4 * index ..< 4 * index + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            values.swapAt(index, Int(word % UInt32(index + 1)))
        }
        return values
    }
}
