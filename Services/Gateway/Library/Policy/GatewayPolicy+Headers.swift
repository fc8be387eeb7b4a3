import Contracts
import HTTPTypes
import NIOCore
import NIOHTTP1
import ServiceKit

/// Which headers cross the gateway, each way.
extension GatewayPolicy {
    /// The head a service receives: the client's headers without those that stay at the gateway
    /// (`HeaderRules`), plus the internal headers only the gateway may set.
    func upstreamHead(
        method: HTTPMethod, uri: String, fields: some Sequence<(name: String, value: String)>,
        app: AppInfo?, requestID: String, clientIP: String, authority: String? = nil
    ) -> UpstreamRequestHead {
        var head = UpstreamRequestHead(method: method, uri: uri, capacity: 512)
        // HTTP/1 heads carry `Host` among the fields; the router's form keeps it as the authority.
        var host = authority
        for (name, value) in fields {
            if name.utf8.count == 4, name.isASCII(caseInsensitivelyEqualTo: "host") { host = value }
            if !HeaderRules.staysAtGateway(name.utf8) { head.add(name, value) }
        }
        addInternalHeaders(to: &head, app: app, requestID: requestID, clientIP: clientIP, host: host)
        return head
    }

    /// The same from a plain head (the byte fronts): the lines passed on are copied as they came,
    /// each run of them in one write.
    func upstreamHead(
        _ plain: borrowing PlainRequestHead, method: HTTPMethod, uri: String, app: AppInfo?, requestID: String, clientIP: String
    ) -> UpstreamRequestHead {
        var head = UpstreamRequestHead(method: method, uri: uri, capacity: plain.lines.readableBytes + 256)
        // `content-length` always passes.
        head.hasLength = plain.facts?.contentLength != nil
        // The host is read only when it makes a header.
        let readsHost = app?.mount != nil && configuration.publicURL.isEmpty
        var host: String?
        var run: Range<Int>?
        plain.forEachField { name, value, line in
            if readsHost, name.count == 4, name.isASCII(caseInsensitivelyEqualTo: "host") { host = String(decoding: value, as: UTF8.self) }
            if HeaderRules.staysAtGateway(name) {
                if let passed = run { head.add(lines: UnsafeRawBufferPointer(rebasing: line.base[passed])) }
                run = nil
            } else {
                run = (run?.lowerBound ?? line.startIndex)..<line.endIndex
            }
        }
        if let run { plain.lines.withUnsafeReadableBytes { head.add(lines: UnsafeRawBufferPointer(rebasing: $0[run])) } }
        addInternalHeaders(to: &head, app: app, requestID: requestID, clientIP: clientIP, host: host)
        return head
    }

    private func addInternalHeaders(to head: inout UpstreamRequestHead, app: AppInfo?, requestID: String, clientIP: String, host: String?) {
        head.add(line: internalSecretLine)
        head.add(InternalHeader.requestID, requestID)
        head.add(InternalHeader.clientIP, clientIP)
        if let app {
            head.add(InternalHeader.appID, app.appID)
            head.add(InternalHeader.appProfile, app.profile.rawValue)
            if let mount = app.mount, let base = publicBase(host: host) { head.add(InternalHeader.publicBase, base + "/" + mount) }
        }
    }

    /// The scheme and host clients use: the configured public URL, or the request's `Host`
    /// (letters, digits, `.`, `-`, `:` only; anything else names no host of ours).
    private func publicBase(host: String?) -> String? {
        if !configuration.publicURL.isEmpty { return configuration.publicURL }
        guard let host, (1...255).contains(host.utf8.count),
            host.utf8.allSatisfy({
                (48...58).contains($0) || (65...90).contains($0) || (97...122).contains($0) || $0 == 45 || $0 == 46 || $0 == 91 || $0 == 93
            })
        else { return nil }
        return "http://" + host
    }

    /// The same from the router's form of a request.
    func upstreamHead(_ request: HTTPRequest, admission: Admission, requestID: String) -> UpstreamRequestHead {
        upstreamHead(
            method: HTTPMethod(rawValue: request.method.rawValue), uri: admission.upstreamTarget(request.path ?? "/"),
            fields: request.headerFields.lazy.map { (name: $0.name.rawName, value: $0.value) },
            app: admission.app, requestID: requestID, clientIP: admission.clientIP, authority: request.authority
        )
    }

    /// A service's head as the client gets it: hop-by-hop headers dropped, `length` (an answer in
    /// hand) in place of the service's own (a streamed answer keeps what the service said), the
    /// service's `Server` and request id replaced by the gateway's, `Date` added when missing.
    func clientHead(_ head: HTTPResponseHead, length: Int?, requestID: String, dates: inout HTTPDateCache) -> HTTPResponseHead {
        var headers = HTTPHeaders()
        headers.reserveCapacity(head.headers.count + 4)
        var dated = false
        for (name, value) in head.headers {
            switch Self.passing(name.utf8, lengthReplaced: length != nil) {
            case .dropped: continue
            case .date: dated = true
            case .kept: break
            }
            headers.add(name: name, value: value)
        }
        if let length { headers.add(name: "content-length", value: String(length)) }
        if !dated { headers.add(name: "date", value: dates.now()) }
        addGatewayHeaders(to: &headers, requestID: requestID)
        return HTTPResponseHead(version: .http1_1, status: head.status, headers: headers)
    }

    /// The same head written as bytes straight from the service's field lines (the byte front),
    /// framed as `AnswerBytes` frames NIO's: returns the framing.
    func writeClientHead(
        _ head: UpstreamHead, length: Int?, requestID: String, dates: inout HTTPDateCache, to buffer: inout ByteBuffer
    ) -> BodyFraming {
        let framing: BodyFraming
        switch head.body {
        case _ where !head.status.mayHaveResponseBody: framing = .none
        case _ where length != nil: framing = .length
        case .length: framing = .length
        default: framing = .chunked
        }
        buffer.writeStatusLine(head.status)
        var dated = false
        head.forEachField { name, _, line in
            switch Self.passing(name, lengthReplaced: length != nil || framing != .length) {
            case .dropped: return
            case .date: dated = true
            case .kept: break
            }
            buffer.writeBytes(line)
        }
        if framing == .length, let length { buffer.writeField("content-length", String(length)) }
        if !dated { buffer.writeField("date", dates.now()) }
        buffer.writeField(InternalHeader.requestID, requestID)
        buffer.writeField("server", serverName)
        if framing == .chunked { buffer.writeStaticString("transfer-encoding: chunked\r\n") }
        buffer.writeStaticString("\r\n")
        return framing
    }

    private enum Passing {
        case kept
        case dropped
        case date
    }

    /// Whether a service's header reaches the client (`clientHead`, `writeClientHead`).
    private static func passing(_ name: some Collection<UInt8>, lengthReplaced: Bool) -> Passing {
        // The length sorts out all but one candidate before any byte is compared.
        switch name.count {
        case 14 where lengthReplaced && name.isASCII(caseInsensitivelyEqualTo: "content-length"),
            6 where name.isASCII(caseInsensitivelyEqualTo: "server"),
            12 where name.isASCII(caseInsensitivelyEqualTo: InternalHeader.requestID):
            return .dropped
        case 4 where name.isASCII(caseInsensitivelyEqualTo: "date"):
            return .date
        default:
            return HeaderRules.isHopByHop(name) ? .dropped : .kept
        }
    }

    /// An answer the gateway has whole, as the client gets it.
    func clientAnswer(_ rendered: RenderedAnswer, requestID: String, dates: inout HTTPDateCache) -> (HTTPResponseHead, ByteBuffer) {
        var headers = HTTPHeaders()
        headers.reserveCapacity(rendered.headers.count + 4)
        for field in rendered.headers { headers.add(name: field.name.rawName, value: field.value) }
        headers.add(name: "content-length", value: String(rendered.body.readableBytes))
        headers.add(name: "date", value: dates.now())
        addGatewayHeaders(to: &headers, requestID: requestID)
        return (HTTPResponseHead(version: .http1_1, status: .init(statusCode: rendered.status.code), headers: headers), rendered.body)
    }

    /// A service's headers in the router's form, hop-by-hop ones dropped (its middleware adds the
    /// request id and `Server`).
    func responseFields(_ headers: HTTPHeaders) -> HTTPFields {
        HTTPFields(headers) { !HeaderRules.isHopByHop($0) }
    }

    private func addGatewayHeaders(to headers: inout HTTPHeaders, requestID: String) {
        headers.add(name: InternalHeader.requestID, value: requestID)
        // As the router's answers say (a service's own `Server` would say which service answered).
        headers.add(name: "server", value: serverName)
    }
}
