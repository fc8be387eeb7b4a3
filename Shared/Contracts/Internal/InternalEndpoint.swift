/// An endpoint one service offers the others, never the gateway's clients: the service that
/// serves it, its method and path pattern, its path parameter, request body and answer. Declared
/// once (`InternalEndpoints`) and used both by the server's route registration and by the caller's
/// client, so the two cannot disagree on a path or a type.
package struct InternalEndpoint<Parameter: EndpointParameter, Body: Codable & Sendable, Answer: Codable & Sendable>: Sendable {
    package let service: ServiceName
    package let method: EndpointMethod
    /// `/`-separated; `{name}` segments are the parameter's values, in order.
    package let pattern: String

    package init(_ service: ServiceName, _ method: EndpointMethod, _ pattern: String) {
        self.service = service
        self.method = method
        self.pattern = pattern
    }

    /// The names of the pattern's `{name}` segments.
    package var parameterNames: [String] {
        pattern.split(separator: "/").filter { $0.hasPrefix("{") && $0.hasSuffix("}") }.map { String($0.dropFirst().dropLast()) }
    }

    /// The path of one call: the pattern with the parameter's values in place of its segments.
    package func path(_ parameter: Parameter) -> String {
        var values = parameter.pathValues.makeIterator()
        return pattern.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? (values.next() ?? "").addingPathSegmentEscapes : String(segment)
        }.joined(separator: "/")
    }

    /// What the endpoint lists say of it, without its types.
    package var description: InternalEndpointDescription {
        InternalEndpointDescription(
            service: service, method: method, pattern: pattern, parameterNames: parameterNames, parameterCount: Parameter.count
        )
    }
}

package enum EndpointMethod: String, Sendable, Equatable {
    case get = "GET"
    case post = "POST"
}

/// An endpoint's identity and shape, for lists and checks.
package struct InternalEndpointDescription: Sendable, Equatable, CustomStringConvertible {
    package var service: ServiceName
    package var method: EndpointMethod
    package var pattern: String
    package var parameterNames: [String]
    /// How many path values the endpoint's parameter type carries.
    package var parameterCount: Int

    package var description: String { "\(method.rawValue) \(pattern) (\(service.rawValue))" }
}

/// What fills an endpoint's `{name}` segments: nothing, or one string.
package protocol EndpointParameter: Sendable {
    static var count: Int { get }
    var pathValues: [String] { get }
    init(pathValues: [String])
}

/// The parameter of an endpoint whose path has no `{name}` segment.
package struct NoParameter: EndpointParameter {
    package static var count: Int { 0 }
    package var pathValues: [String] { [] }
    package init() {}
    package init(pathValues: [String]) {}
}

extension String: EndpointParameter {
    package static var count: Int { 1 }
    package var pathValues: [String] { [self] }
    package init(pathValues: [String]) { self = pathValues.first ?? "" }
}

/// The body of an endpoint that takes none (GET).
package struct NoBody: Codable, Sendable, Equatable {
    package init() {}
}

extension String {
    /// Percent-escapes everything but RFC 3986's unreserved characters: a value stays one segment.
    var addingPathSegmentEscapes: String {
        var escaped = ""
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return escaped
    }

    private func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
