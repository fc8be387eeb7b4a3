/// A configuration value that stops the process at start, naming the variable.
package struct ConfigurationError: Error, CustomStringConvertible, Equatable {
    package let variable: String
    package let problem: String

    package init(variable: String, problem: String) {
        self.variable = variable
        self.problem = problem
    }

    package var description: String { "configuration error: \(variable) \(problem)" }
}

/// Several invalid variables, found in one start (`ConfigReader.finish`).
package struct ConfigurationErrors: Error, CustomStringConvertible, Equatable {
    package let errors: [ConfigurationError]

    package var description: String { errors.map(\.description).joined(separator: "\n") }
}
