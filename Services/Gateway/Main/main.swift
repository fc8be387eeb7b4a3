import Gateway
import ServiceKit

await ServiceMain.run(.gateway, build: GatewayService.buildApplication)
