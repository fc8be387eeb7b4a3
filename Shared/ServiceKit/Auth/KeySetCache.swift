import Foundation
import JWTKit

/// A JWKS kept in memory for verifying JWTs (our access tokens, Apple identity tokens). An
/// unknown `kid` triggers a refetch, at most once per `refetchInterval`, so forged kids cannot
/// make us hammer the key server.
package actor KeySetCache {
    package enum Failure: Error, Equatable {
        case malformed, unknownKey, invalid
    }

    private let jwks: JWKSClient
    private let refetchInterval: Duration
    private var keys = JWTKeyCollection()
    private var knownKeyIDs: Set<String> = []
    private var lastFetch: ContinuousClock.Instant?
    /// A fetch under way: concurrent callers wait for it instead of being refused by the rate limit.
    private var inFlight: Task<Void, Never>?
    /// The `kid` of header segments seen: a signer's header is the same on every token it signs,
    /// so decoding it as JSON once is enough. Bounded like any cache of client input.
    private var keyIDs: [Substring: String] = [:]

    package init(jwks: JWKSClient, refetchInterval: Duration = .seconds(10)) {
        self.jwks = jwks
        self.refetchInterval = refetchInterval
    }

    package func verify<Payload: JWTPayload>(_ token: String, as _: Payload.Type) async throws(Failure) -> Payload {
        guard token.utf8.count <= 8192, let keyID = keyID(of: token) else { throw .malformed }
        if !knownKeyIDs.contains(keyID) {
            await refreshKeys()
            guard knownKeyIDs.contains(keyID) else { throw .unknownKey }
        }
        do {
            return try await keys.verify(token, as: Payload.self)
        } catch {
            throw .invalid
        }
    }

    private func refreshKeys() async {
        if let inFlight { return await inFlight.value }
        let clock = ContinuousClock()
        if let lastFetch, clock.now - lastFetch < refetchInterval { return }
        lastFetch = clock.now
        let task = Task { await self.fetchKeys() }
        inFlight = task
        await task.value
        inFlight = nil
    }

    private func fetchKeys() async {
        guard let set = try? await jwks.fetch() else { return }
        let fresh = JWTKeyCollection()
        guard (try? await fresh.add(jwks: set)) != nil else { return }
        keys = fresh
        knownKeyIDs = Set(set.keys.compactMap { $0.keyIdentifier?.string })
    }

    private func keyID(of token: String) -> String? {
        guard let header = token.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first else { return nil }
        if let known = keyIDs[header] { return known }
        guard let keyID = Self.keyID(of: token) else { return nil }
        if keyIDs.count >= 64 { keyIDs.removeAll() }
        keyIDs[Substring(String(header))] = keyID  // a copy: the key must not keep the whole token alive
        return keyID
    }

    /// The `kid` of the JOSE header, read without trusting anything else in the token.
    static func keyID(of token: String) -> String? {
        guard let headerPart = token.split(separator: ".", maxSplits: 3, omittingEmptySubsequences: false).first,
            let data = Base64URL.decode(headerPart),
            let header = try? JSONDecoder().decode(KeyIDHeader.self, from: data)
        else { return nil }
        return header.kid
    }

    private struct KeyIDHeader: Decodable {
        var kid: String
    }
}
