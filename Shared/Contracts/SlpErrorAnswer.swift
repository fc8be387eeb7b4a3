/// An error as `slp` apps receive it (API.md §8): always HTTP 400 with the code.
package struct SlpErrorAnswer: Codable, Sendable, Equatable {
    package var errorCode: String

    package init(errorCode: String) {
        self.errorCode = errorCode
    }
}
