import Contracts
import Hummingbird

// Wire types handlers return directly (Contracts stays Foundation-only).
extension MessageAnswer: ResponseEncodable {}
extension AuthAnswer: ResponseEncodable {}
extension JoinAnswer: ResponseEncodable {}
extension TokenPair: ResponseEncodable {}
extension EmptyAnswer: ResponseEncodable {}
extension WithdrawAnswer: ResponseEncodable {}
extension ProfileAnswer: ResponseEncodable {}
extension FollowAnswer: ResponseEncodable {}
extension BlockAnswer: ResponseEncodable {}
extension ReportAnswer: ResponseEncodable {}
extension AttendanceAnswer: ResponseEncodable {}
extension DataList: ResponseEncodable {}
extension UserLookupAnswer: ResponseEncodable {}
extension UserIDList: ResponseEncodable {}
extension PostAnswer: ResponseEncodable {}
extension CursorPage: ResponseEncodable {}
extension LikeStatus: ResponseEncodable {}
extension CommentAnswer: ResponseEncodable {}
extension FilesAnswer: ResponseEncodable {}
extension FilterSummary: ResponseEncodable {}
extension FilterDetail: ResponseEncodable {}
extension OrderAnswer: ResponseEncodable {}
extension PaidOrderItem: ResponseEncodable {}
extension OrderRecordAnswer: ResponseEncodable {}
extension TodayFilterAnswer: ResponseEncodable {}
extension TodayAuthorAnswer: ResponseEncodable {}
extension AppInfo: ResponseEncodable {}
extension ChatAnswer: ResponseEncodable {}
extension ChatRoomAnswer: ResponseEncodable {}
extension UnreadCountAnswer: ResponseEncodable {}
extension ReverseGeocodeAnswer: ResponseEncodable {}
extension WalkAnswer: ResponseEncodable {}
extension PaymentValidationAnswer: ResponseEncodable {}
extension PaymentReceipt: ResponseEncodable {}
extension CoinPurchaseAnswer: ResponseEncodable {}
extension CoinGrantAnswer: ResponseEncodable {}
extension NotificationAnswer: ResponseEncodable {}
extension SlpMe: ResponseEncodable {}
extension SlpUser: ResponseEncodable {}
