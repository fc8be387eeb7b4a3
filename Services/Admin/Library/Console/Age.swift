/// An age as operators read it at a glance: `45s`, `12m`, `5h`, `3d`.
enum Age {
    static func text(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(max(seconds, 0))s"
        case ..<3600: "\(seconds / 60)m"
        case ..<(48 * 3600): "\(seconds / 3600)h"
        default: "\(seconds / 86400)d"
        }
    }
}
