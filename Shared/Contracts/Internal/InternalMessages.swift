/// gateway → auth-svc: the app key a client sent.
package struct AppKeyLookup: Codable, Sendable, Equatable {
    package var key: String

    package init(key: String) {
        self.key = key
    }
}

/// gateway → auth-svc: the first segment of a path, asked as an app's mount.
package struct AppMountLookup: Codable, Sendable, Equatable {
    package var mount: String

    package init(mount: String) {
        self.mount = mount
    }
}

/// auth-svc's public signing keys as a JSON Web Key Set (RFC 7517): EC P-256 keys for ES256.
package struct PublicKeySet: Codable, Sendable, Equatable {
    package var keys: [PublicKey]

    package init(keys: [PublicKey]) {
        self.keys = keys
    }

    package struct PublicKey: Codable, Sendable, Equatable {
        package var kty: String
        package var crv: String?
        package var x: String?
        package var y: String?
        package var kid: String?
        package var alg: String?
        package var use: String?

        package init(kty: String, crv: String?, x: String?, y: String?, kid: String?, alg: String?, use: String?) {
            (self.kty, self.crv, self.x, self.y, self.kid, self.alg, self.use) = (kty, crv, x, y, kid, alg, use)
        }
    }
}
