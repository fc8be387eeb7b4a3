import Foundation
import XCTest

@testable import AuthService

/// The email rule on bytes and scalars, against the same rule written with Foundation's
/// trimming and search (its form before) over a corpus of edge cases.
final class AccountRulesTests: XCTestCase {
    private func foundationRule(_ raw: String) -> String? {
        let email = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[0].utf8.count <= 64,
            parts[1].contains("."), !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            email.unicodeScalars.allSatisfy({ $0.value > 32 && $0.value != 127 })
        else { return nil }
        return email
    }

    func testEmailsAsTheFoundationFormJudgedThem() {
        let spaces = ["", " ", "\t", "\n", "\r\n", "\u{A0}", "\u{3000}", "\u{2028}", "\u{85}", "\u{200B}", "\u{FEFF}", "\u{180E}", " \u{2003} "]
        let bodies = [
            "a@b.c", "user@example.com", "사용자@예시.한국", "a@@b.c", "@b.c", "a@", "a@b", "a@.b", "a@b.", "a@b..c", "a b@c.d", "a@b.c\u{7F}",
            "a\u{1}@b.c", String(repeating: "x", count: 64) + "@b.c", String(repeating: "x", count: 65) + "@b.c",
            "a@" + String(repeating: "d", count: 250) + ".c", "", "@", ".", "a.b@c.d", "a@b@c.d",
        ]
        for body in bodies {
            for before in spaces {
                for after in spaces {
                    let raw = before + body + after
                    XCTAssertEqual(try? AccountRules.email(raw), foundationRule(raw), raw.debugDescription)
                }
            }
        }
    }
}
