import Foundation

/// Typed, validated reads of environment variables. Every read goes through a declared
/// `ConfigVariable`; a missing required value or a malformed one throws `ConfigurationError`.
package struct ConfigReader: Sendable {
    package let environment: [String: String]

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// The raw value, or the variable's default; empty strings count as unset.
    package func string(_ variable: ConfigVariable, default override: String? = nil) throws -> String {
        if let value = environment[variable.name], !value.isEmpty { return value }
        if let fallback = override ?? variable.defaultValue { return fallback }
        throw ConfigurationError(variable: variable.name, problem: "is required (\(variable.help))")
    }


    package func int(_ variable: ConfigVariable, in range: ClosedRange<Int>, default override: Int? = nil) throws -> Int {
        let text = try string(variable, default: override.map(String.init))
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            throw ConfigurationError(variable: variable.name, problem: "must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return value
    }

    package func double(_ variable: ConfigVariable, in range: ClosedRange<Double>) throws -> Double {
        let text = try string(variable)
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, range.contains(value) else {
            throw ConfigurationError(variable: variable.name, problem: "must be a number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return value
    }

    package func bool(_ variable: ConfigVariable) throws -> Bool {
        let text = try string(variable).lowercased()
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw ConfigurationError(variable: variable.name, problem: "must be true or false, got '\(text)'")
        }
    }

    /// An `http://` or `https://` base URL without a trailing slash.
    package func url(_ variable: ConfigVariable, default override: String? = nil) throws -> String {
        try Self.url(try string(variable, default: override), variable)
    }

    /// One base URL or several, comma-separated (a service's replicas), each as `url` reads it.
    package func urls(_ variable: ConfigVariable) throws -> [String] {
        try string(variable).split(separator: ",").map { try Self.url($0.trimmingCharacters(in: .whitespaces), variable) }
    }

    private static func url(_ text: String, _ variable: ConfigVariable) throws -> String {
        var text = text
        guard let parsed = URL(string: text), let scheme = parsed.scheme, ["http", "https"].contains(scheme), parsed.host != nil else {
            throw ConfigurationError(variable: variable.name, problem: "must be an http(s) URL, got '\(text)'")
        }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
