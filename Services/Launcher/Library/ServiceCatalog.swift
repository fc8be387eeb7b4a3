import AuthService
import ChatService
import Contracts
import GeoService
import Gateway
import MarketService
import PaymentVerifyService
import PushService
import ServiceKit

/// How to build each process; `glint serve <name>` runs one of these in its own process.
public enum ServiceCatalog {
    public static func builder(for service: ServiceName) -> ServiceMain.Builder {
        switch service {
        case .gateway: GatewayService.buildApplication
        case .auth: AuthService.buildApplication
        case .chat: ChatService.buildApplication
        case .market: MarketService.buildApplication
        case .geo: GeoService.buildApplication
        case .paymentVerify: PaymentVerifyService.buildApplication
        case .push: PushService.buildApplication
        }
    }
}
