import Foundation

/// A 24 × 32 pixel baseline JPEG (JFIF, 518 bytes): a drawn head-and-shoulders figure, no real person.
/// Made once with Pillow and embedded so the kit needs no image library.
enum PortraitJPEG {
    static let base64 = """
        /9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAA0JCgsKCA0LCgsODg0PEyAVExISEyccHhcgLikxMC4pLSwzOko+MzZGNywtQFdBRkxO
        UlNSMj5aYVpQYEpRUk//2wBDAQ4ODhMREyYVFSZPNS01T09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09PT09P
        T09PT09PT0//wAARCAAgABgDASIAAhEBAxEB/8QAGQAAAgMBAAAAAAAAAAAAAAAAAAUDBAYH/8QALhAAAQEGBAMHBQAAAAAAAAAA
        AQIAAwQFERMGEhQhMUFRFSI1YXGy4WJzgqHi/8QAFgEBAQEAAAAAAAAAAAAAAAAAAgMB/8QAGxEAAgIDAQAAAAAAAAAAAAAAAQIA
        EQMSIRP/2gAMAwEAAhEDEQA/ANTMYvQwD6KtLe2k5siOJ+Op5BsKvFk3VEXA9dpRUG0HYy+m++/q3QHlbZoyVUilan94wbvNUGgJ
        CdvpBp+mOV9TUeJNhcuyOYqmktRErcl0upSrbuqI5p8vkcmGtwyAhylCUhKE7JAFAB0DDVU2oMkwpiIrnE97Li0uNNdzIC81zLzI
        pwPRlhxUkmugPpe/locYeKuvsD3KZC1vNWHRAHZTwzZSzEevj3ULo7eeveuVpQE8KeTDIcNePQ35e0sMWAB5NBuf/9k=
        """

    static let bytes: [UInt8] = {
        guard let data = Data(base64Encoded: base64, options: .ignoreUnknownCharacters) else { return [] }
        return Array(data)
    }()
}
