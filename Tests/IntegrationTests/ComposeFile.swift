import Foundation

/// Just enough YAML for our compose file: nested block mappings, block lists of scalars, quoted
/// scalars and inline `[...]` lists kept as text. Enough to check what it declares.
indirect enum YAMLNode: Equatable {
    case scalar(String)
    case list([YAMLNode])
    case map([String: YAMLNode])

    subscript(key: String) -> YAMLNode? {
        if case .map(let map) = self { return map[key] }
        return nil
    }

    var map: [String: YAMLNode] { if case .map(let map) = self { map } else { [:] } }
    var list: [YAMLNode] { if case .list(let list) = self { list } else { [] } }
    var text: String? { if case .scalar(let text) = self { text } else { nil } }

    static func parse(_ source: String) -> YAMLNode {
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
            .map(String.init)
            .filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
        var index = 0
        return parseBlock(lines, &index, indent: 0)
    }

    private static func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }

    private static func parseBlock(_ lines: [String], _ index: inout Int, indent: Int) -> YAMLNode {
        guard index < lines.count else { return .map([:]) }
        if lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("- ") {
            var items: [YAMLNode] = []
            while index < lines.count, indentation(lines[index]) == indent, lines[index].trimmingCharacters(in: .whitespaces).hasPrefix("- ") {
                items.append(.scalar(unquote(String(lines[index].trimmingCharacters(in: .whitespaces).dropFirst(2)))))
                index += 1
            }
            return .list(items)
        }
        var map: [String: YAMLNode] = [:]
        while index < lines.count, indentation(lines[index]) == indent {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            guard let colon = line.firstIndex(of: ":") else { index += 1; continue }
            let key = String(line[..<colon])
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            index += 1
            if value.isEmpty {
                if index < lines.count, indentation(lines[index]) > indent {
                    map[key] = parseBlock(lines, &index, indent: indentation(lines[index]))
                } else {
                    map[key] = .map([:])
                }
            } else {
                map[key] = .scalar(unquote(value))
            }
        }
        return .map(map)
    }

    private static func unquote(_ text: String) -> String {
        if text.count >= 2, text.first == "\"", text.last == "\"" { return String(text.dropFirst().dropLast()) }
        return text
    }
}
