/// One environment variable a process reads: its name, its default (nil = required) and what it
/// means. Services declare theirs as values so the README table and the compose file can be
/// checked against the code.
package struct ConfigVariable: Sendable, Hashable {
    package let name: String
    package let defaultValue: String?
    package let help: String

    package init(_ name: String, default defaultValue: String?, _ help: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.help = help
    }
}
