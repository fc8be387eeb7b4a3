import PushService
import ServiceKit

await ServiceMain.run(.push, assemble: PushAssembly.assemble)
