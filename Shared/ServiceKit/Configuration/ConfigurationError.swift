/// A configuration value that stops the process at start, naming the variable.
public struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    public let variable: String
    public let problem: String

    public init(variable: String, problem: String) {
        self.variable = variable
        self.problem = problem
    }

    public var description: String { "configuration error: \(variable) \(problem)" }
}
