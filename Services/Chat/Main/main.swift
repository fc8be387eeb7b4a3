import ChatService
import ServiceKit

await ServiceMain.run(.chat, build: ChatService.buildApplication)
