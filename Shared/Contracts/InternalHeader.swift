/// Header names that only travel between our processes. The gateway strips every `x-internal-*`
/// header a client sends, so a service may trust them once the secret matches.
public enum InternalHeader {
    public static let secret = "x-internal-secret"
    public static let appID = "x-internal-app-id"
    public static let clientIP = "x-internal-client-ip"
    public static let prefix = "x-internal-"
    public static let requestID = "x-request-id"
}
