import RevocationFetch
import Testing

/// The one parser of the addresses and networks an operator lists (trusted proxies, webhook and fetch allow lists).
@Suite("IP addresses and networks")
struct IPNetworkTests {
    @Test("networks parse to their canonical text; anything else is refused", arguments: [
        ("10.0.0.0/8", "10.0.0.0/8"), ("192.0.2.1", "192.0.2.1/32"), (" fd00::/8 ", "fd00::/8"), ("::1", "::1/128"),
        ("[::1]", "::1/128"), ("[2001:db8::]/32", "2001:db8::/32"), ("FD00:0:0::1/64", "fd00::1/64"),
        ("::ffff:10.0.0.0/104", "10.0.0.0/8"), ("::ffff:127.0.0.1", "127.0.0.1/32"), ("0.0.0.0/0", "0.0.0.0/0"),
    ])
    func parses(text: String, canonical: String) throws {
        #expect(try #require(IPNetwork(text)).description == canonical)
    }

    @Test("not a network", arguments: ["", "/8", "10.0.0.0/", "10.0.0.0/33", "10.0.0.0/+8", "10.0.0.0/-1", "10.0.0.0/ 8",
                                       "10.0.0.0/8/8", "fd00::/129", "::ffff:10.0.0.0/95", "::ffff:10.0.0.0/129", "10.0.0",
                                       "host.example", "[10.0.0.1", "10.0.0.1%eth0", "fe80::1%eth0", "1.2.3.4:80", "[]"])
    func refuses(text: String) {
        #expect(IPNetwork(text) == nil)
    }

    @Test("containment masks the prefix's bits on both sides and never crosses families")
    func containment() throws {
        let network = try #require(IPNetwork("10.1.2.3/8"))
        #expect(network.contains(try #require(IPAddress("10.255.0.1"))))
        #expect(!network.contains(try #require(IPAddress("11.0.0.1"))))
        #expect(network.contains(try #require(IPAddress("::ffff:10.9.9.9"))))  // the mapped spelling is the IPv4 address
        #expect(!network.contains(try #require(IPAddress("::a01:203"))))  // an IPv6 address with the same low bytes
        let odd = try #require(IPNetwork("192.168.0.0/23"))
        #expect(odd.contains(try #require(IPAddress("192.168.1.255"))))
        #expect(!odd.contains(try #require(IPAddress("192.168.2.0"))))
        let v6 = try #require(IPNetwork("2001:db8::/33"))
        #expect(v6.contains(try #require(IPAddress("2001:db8:7fff::1"))))
        #expect(!v6.contains(try #require(IPAddress("2001:db8:8000::1"))))
        let everything = try #require(IPNetwork("0.0.0.0/0"))
        #expect(everything.contains(try #require(IPAddress("203.0.113.9"))))
        #expect(!everything.contains(try #require(IPAddress("2001:db8::1"))))
    }

    @Test("an allow entry uses the same parser: a mapped address is its IPv4 network, a name stays a name")
    func destinations() throws {
        let mapped = try #require(FetchDestination("::ffff:10.0.0.1"))
        #expect(mapped.description == "10.0.0.1/32" && mapped.host == nil)
        let address = try #require(IPAddress("10.0.0.1"))
        #expect(mapped.network?.contains(address) == true)
        #expect(FetchDestination("10.0.0.0/+8") == nil)
        let name = try #require(FetchDestination("Lists.Example"))
        #expect(name.host == "lists.example" && name.network == nil)
    }
}
