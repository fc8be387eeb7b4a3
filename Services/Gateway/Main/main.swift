import Gateway
import ServiceKit

await ServiceMain.run(.gateway, assemble: GatewayAssembly.assemble)
