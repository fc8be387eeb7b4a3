/// A Socket.IO v5 packet: `<type>[<attachments>-][<namespace>,][<ack id>][<JSON>]`, carried in
/// an Engine.IO message; binary attachments follow as separate binary messages.
package struct SocketPacket: Sendable, Equatable {
    package enum Kind: UInt8, Sendable {
        case connect = 0
        case disconnect, event, ack, connectError, binaryEvent, binaryAck
    }

    package var kind: Kind
    package var namespace: String
    package var ackID: Int?
    package var data: JSONValue?
    /// Binary attachments, in placeholder order.
    package var attachments: [[UInt8]]

    package init(_ kind: Kind, namespace: String = "/", ackID: Int? = nil, data: JSONValue? = nil, attachments: [[UInt8]] = []) {
        self.kind = kind
        self.namespace = namespace
        self.ackID = ackID
        self.data = data
        self.attachments = attachments
    }

    package enum DecodingError: Error, Equatable {
        case empty, unknownType, badAttachmentCount, badNamespace, badAckID, badJSON, badPayload
    }

    /// The text part, and the attachments to send after it as binary messages.
    package func encoded() -> (text: String, attachments: [[UInt8]]) {
        var text = String(kind.rawValue)
        if kind == .binaryEvent || kind == .binaryAck { text += "\(attachments.count)-" }
        if namespace != "/" { text += namespace + "," }
        if let ackID { text += String(ackID) }
        if let data { text += data.text }
        return (text, attachments)
    }

    /// Parses the text part. For binary kinds, `expectedAttachments` says how many binary
    /// messages must follow before the packet is complete (see `BinaryAssembly`).
    package static func decode(_ text: String) throws(DecodingError) -> (packet: SocketPacket, expectedAttachments: Int) {
        var rest = Substring(text)
        guard let first = rest.utf8.first else { throw .empty }
        guard first >= 48, let kind = Kind(rawValue: first - 48) else { throw .unknownType }
        rest = rest.dropFirst()
        var expected = 0
        if kind == .binaryEvent || kind == .binaryAck {
            guard let dash = rest.firstIndex(of: "-"), let count = Int(rest[..<dash]), (0...16).contains(count) else {
                throw .badAttachmentCount
            }
            expected = count
            rest = rest[rest.index(after: dash)...]
        }
        var namespace = "/"
        if rest.first == "/" {
            if let comma = rest.firstIndex(of: ",") {
                namespace = String(rest[..<comma])
                rest = rest[rest.index(after: comma)...]
            } else {
                namespace = String(rest)
                rest = ""
            }
            guard namespace.count <= 256 else { throw .badNamespace }
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        var ackID: Int?
        if !digits.isEmpty {
            guard digits.count <= 15, let id = Int(digits) else { throw .badAckID }
            ackID = id
            rest = rest.dropFirst(digits.count)
        }
        var data: JSONValue?
        if !rest.isEmpty {
            guard let value = JSONValue.parse(rest) else { throw .badJSON }
            data = value
        }
        let packet = SocketPacket(kind, namespace: namespace, ackID: ackID, data: data)
        try packet.validate()
        return (packet, expected)
    }

    /// Payload shapes the protocol allows per type.
    func validate() throws(DecodingError) {
        switch kind {
        case .connect:
            if let data, data.object == nil { throw .badPayload }
        case .disconnect:
            if data != nil { throw .badPayload }
        case .event, .binaryEvent:
            guard let array = data?.array, !array.isEmpty else { throw .badPayload }
            if kind == .event, array.first?.string == nil { throw .badPayload }
        case .ack, .binaryAck:
            guard data?.array != nil, ackID != nil else { throw .badPayload }
        case .connectError:
            if let data, data.object == nil, data.string == nil { throw .badPayload }
        }
    }

    /// The event name and its arguments, for EVENT packets.
    package var event: (name: String, arguments: [JSONValue])? {
        guard kind == .event || kind == .binaryEvent, let array = data?.array, let name = array.first?.string else { return nil }
        return (name, Array(array.dropFirst()))
    }
}

/// Collects the binary messages that follow a BINARY_EVENT / BINARY_ACK, then puts them where
/// their placeholders stand.
package struct BinaryAssembly: Sendable {
    package private(set) var packet: SocketPacket
    private let expected: Int

    package init(packet: SocketPacket, expected: Int) {
        self.packet = packet
        self.expected = expected
    }

    package var isComplete: Bool { packet.attachments.count == expected }

    package mutating func add(_ bytes: [UInt8]) {
        packet.attachments.append(bytes)
    }
}

extension SocketPacket {
    /// The text of an EVENT with one argument given as JSON text: what a broadcast sends, built
    /// without re-encoding the argument.
    static func eventText(namespace: String, event: String, json: String) -> String {
        let name = JSONValue.string(event).text
        return namespace == "/" ? "2[\(name),\(json)]" : "2\(namespace),[\(name),\(json)]"
    }
}
