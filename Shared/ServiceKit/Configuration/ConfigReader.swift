import Foundation
import Synchronization

/// Typed, validated reads of environment variables. Every read goes through a declared
/// `ConfigVariable`; a missing required value or a malformed one is a `ConfigurationError`:
/// thrown at once, or, by a reader that collects them (a process starting), recorded with a
/// stand-in answered, so that one start names every invalid variable (`finish`).
package struct ConfigReader: Sendable {
    package let environment: [String: String]
    private let problems: Problems?

    private final class Problems: Sendable {
        let found = Mutex<[ConfigurationError]>([])
    }

    package init(environment: [String: String] = ProcessInfo.processInfo.environment, collectingProblems: Bool = false) {
        self.environment = environment
        self.problems = collectingProblems ? Problems() : nil
    }

    /// An invalid value of `variable`: thrown, or recorded and `standIn` answered (collecting).
    package func refuse<Value>(_ variable: ConfigVariable, _ problem: String, standIn: Value) throws -> Value {
        let error = ConfigurationError(variable: variable.name, problem: problem)
        guard let problems else { throw error }
        problems.found.withLock { $0.append(error) }
        return standIn
    }

    /// After the last read of a configuration, before it is used: everything recorded, at once.
    package func finish() throws {
        guard let found = problems?.found.withLock({ $0 }), !found.isEmpty else { return }
        throw found.count == 1 ? found[0] as any Error : ConfigurationErrors(errors: found)
    }

    /// The raw value, or the variable's default; empty strings count as unset.
    package func string(_ variable: ConfigVariable, default override: String? = nil) throws -> String {
        if let value = environment[variable.name], !value.isEmpty { return value }
        if let fallback = override ?? variable.defaultValue { return fallback }
        return try refuse(variable, "is required (\(variable.help))", standIn: "")
    }

    package func int(_ variable: ConfigVariable, in range: ClosedRange<Int>, default override: Int? = nil) throws -> Int {
        let text = try string(variable, default: override.map(String.init))
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else {
            return try refuse(
                variable, "must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'", standIn: range.lowerBound)
        }
        return value
    }

    package func double(_ variable: ConfigVariable, in range: ClosedRange<Double>) throws -> Double {
        let text = try string(variable)
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, range.contains(value) else {
            return try refuse(variable, "must be a number in \(range.lowerBound)...\(range.upperBound), got '\(text)'", standIn: range.lowerBound)
        }
        return value
    }

    package func bool(_ variable: ConfigVariable) throws -> Bool {
        let text = try string(variable).lowercased()
        switch text {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: return try refuse(variable, "must be true or false, got '\(text)'", standIn: false)
        }
    }

    /// An `http://` or `https://` base URL without a trailing slash.
    package func url(_ variable: ConfigVariable, default override: String? = nil) throws -> String {
        try url(try string(variable, default: override), variable)
    }

    /// One base URL or several, comma-separated (a service's replicas), each as `url` reads it.
    package func urls(_ variable: ConfigVariable) throws -> [String] {
        try string(variable).split(separator: ",").map { try url($0.trimmingCharacters(in: .whitespaces), variable) }
    }

    private func url(_ text: String, _ variable: ConfigVariable) throws -> String {
        var text = text
        guard let parsed = URL(string: text), let scheme = parsed.scheme, ["http", "https"].contains(scheme), parsed.host != nil else {
            return try refuse(variable, "must be an http(s) URL, got '\(text)'", standIn: "http://invalid.invalid")
        }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
