import PushService
import ServiceKit

await ServiceMain.run(.push, build: PushService.buildApplication)
