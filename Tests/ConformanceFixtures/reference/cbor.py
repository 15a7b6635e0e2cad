"""A small CBOR (RFC 8949) decoder and encoder for the reference verifier.

The decoder keeps what a verifier must hash as received: every tag item carries `raw`, the exact bytes it was encoded
with (so an IssuerSignedItemBytes digest is taken over the bytes the issuer signed, never a re-encoding). Preferred
(shortest) encoding is not required of the input (RFC 8949 §4.2 is a rule for encoders); duplicate map keys,
trailing bytes, invalid UTF-8 and reserved additional-information values are errors.
"""
import struct

import mutants

MAX_DEPTH = 64


class CBORError(ValueError):
    """The input is not well-formed CBOR (or is outside what this decoder takes)."""


class Tag:
    """A tagged item: `tag` number, decoded `value`, and `raw`, the item's bytes as received (head included)."""

    def __init__(self, tag, value, raw):
        self.tag, self.value, self.raw = tag, value, raw

    def __eq__(self, other):
        return isinstance(other, Tag) and (self.tag, self.value) == (other.tag, other.value)

    def __hash__(self):
        return hash((self.tag, repr(self.value)))

    def __repr__(self):
        return "Tag(%d, %r)" % (self.tag, self.value)


class Undefined:
    """The simple value `undefined` (22)."""

    def __repr__(self):
        return "undefined"


UNDEFINED = Undefined()


class Simple:
    """An unassigned simple value."""

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Simple) and other.value == self.value

    def __hash__(self):
        return hash(("simple", self.value))


class Raw:
    """Bytes that are already CBOR, inserted by the encoder as they are."""

    def __init__(self, data):
        self.data = data


def _hashable(key):
    """Map keys must be hashable: arrays become tuples, maps become sorted item tuples."""
    if isinstance(key, list):
        return tuple(_hashable(k) for k in key)
    if isinstance(key, dict):
        return tuple(sorted(((repr(k), _hashable(v)) for k, v in key.items())))
    return key


class _Decoder:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def take(self, n):
        if n < 0 or self.pos + n > len(self.data):
            raise CBORError("truncated input")
        chunk = self.data[self.pos:self.pos + n]
        self.pos += n
        return chunk

    def head(self):
        """(major type, additional info, argument); argument is None for an indefinite length."""
        start = self.pos
        initial = self.take(1)[0]
        major, info = initial >> 5, initial & 0x1F
        if info < 24:
            arg = info
        elif info in (24, 25, 26, 27):
            size = 1 << (info - 24)
            arg = int.from_bytes(self.take(size), "big")
            if major != 7 and mutants.active("cbor-preferred-encoding-required"):
                # BUG: insists on the shortest argument, which RFC 8949 requires only of encoders.
                if (info == 24 and arg < 24) or (info > 24 and arg < (1 << (8 * (size // 2)))):
                    raise CBORError("non-preferred encoding at offset %d" % start)
        elif info == 31 and major in (2, 3, 4, 5, 7):
            arg = None
        else:
            raise CBORError("reserved additional information %d at offset %d" % (info, start))
        return major, info, arg

    def item(self, depth=0):
        if depth > MAX_DEPTH:
            raise CBORError("nesting too deep")
        start = self.pos
        major, info, arg = self.head()
        if major == 0:
            return arg
        if major == 1:
            return -1 - arg
        if major in (2, 3):
            if arg is None:
                chunks = []
                while True:
                    if self.data[self.pos:self.pos + 1] == b"\xff":
                        self.pos += 1
                        break
                    m, _, n = self.head()
                    if m != major or n is None:
                        raise CBORError("bad chunk in an indefinite-length string")
                    chunks.append(self.take(n))
                raw = b"".join(chunks)
            else:
                raw = self.take(arg)
            if major == 2:
                return raw
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                raise CBORError("text string is not UTF-8")
        if major == 4:
            out = []
            if arg is None:
                while not self._at_break():
                    out.append(self.item(depth + 1))
            else:
                if arg > len(self.data):
                    raise CBORError("array longer than the input")
                for _ in range(arg):
                    out.append(self.item(depth + 1))
            return out
        if major == 5:
            out = {}
            count = 0
            while True:
                if arg is None:
                    if self._at_break():
                        break
                elif count == arg:
                    break
                if arg is not None and arg > len(self.data):
                    raise CBORError("map longer than the input")
                key = _hashable(self.item(depth + 1))
                value = self.item(depth + 1)
                if key in out:
                    raise CBORError("duplicate map key %r" % (key,))
                out[key] = value
                count += 1
            return out
        if major == 6:
            value = self.item(depth + 1)
            if arg == 24 and not isinstance(value, bytes):
                raise CBORError("tag 24 does not wrap a byte string")
            return Tag(arg, value, self.data[start:self.pos])
        # major 7
        if info == 20:
            return False
        if info == 21:
            return True
        if info == 22:
            return None
        if info == 23:
            return UNDEFINED
        if info == 25:
            return _half(arg)
        if info == 26:
            return struct.unpack(">f", arg.to_bytes(4, "big"))[0]
        if info == 27:
            return struct.unpack(">d", arg.to_bytes(8, "big"))[0]
        if info == 31:
            raise CBORError("unexpected break")
        if info == 24 and arg < 32:
            raise CBORError("simple value below 32 in two bytes")
        return Simple(arg)

    def _at_break(self):
        if self.pos >= len(self.data):
            raise CBORError("truncated input")
        if self.data[self.pos] == 0xFF:
            self.pos += 1
            return True
        return False


def _half(bits):
    sign = -1.0 if bits & 0x8000 else 1.0
    exp, frac = (bits >> 10) & 0x1F, bits & 0x3FF
    if exp == 0:
        return sign * frac * 2.0 ** -24
    if exp == 31:
        return sign * float("inf") if frac == 0 else float("nan")
    return sign * (1 + frac / 1024.0) * 2.0 ** (exp - 15)


def loads(data):
    """Decodes one CBOR item that must fill `data`."""
    if not isinstance(data, (bytes, bytearray)):
        raise CBORError("not bytes")
    decoder = _Decoder(bytes(data))
    value = decoder.item()
    if decoder.pos != len(data):
        raise CBORError("%d trailing bytes" % (len(data) - decoder.pos))
    return value


def _head(major, arg):
    if arg < 24:
        return bytes([(major << 5) | arg])
    for info, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if arg < (1 << (8 * size)):
            return bytes([(major << 5) | info]) + arg.to_bytes(size, "big")
    raise CBORError("integer too large")


def dumps(value):
    """Encodes with preferred (shortest) heads; map keys in the order given. Only what the verifier builds."""
    if isinstance(value, Raw):
        return value.data
    if value is None:
        return b"\xf6"
    if value is True:
        return b"\xf5"
    if value is False:
        return b"\xf4"
    if isinstance(value, int):
        return _head(0, value) if value >= 0 else _head(1, -1 - value)
    if isinstance(value, bytes):
        return _head(2, len(value)) + value
    if isinstance(value, str):
        data = value.encode("utf-8")
        return _head(3, len(data)) + data
    if isinstance(value, (list, tuple)):
        return _head(4, len(value)) + b"".join(dumps(v) for v in value)
    if isinstance(value, dict):
        return _head(5, len(value)) + b"".join(dumps(k) + dumps(v) for k, v in value.items())
    if isinstance(value, Tag):
        return _head(6, value.tag) + dumps(value.value)
    if isinstance(value, float):
        return b"\xfb" + struct.pack(">d", value)
    raise CBORError("cannot encode %s" % type(value).__name__)
