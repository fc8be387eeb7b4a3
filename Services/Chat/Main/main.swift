import ChatService
import ServiceKit

await ServiceMain.run(.chat, assemble: ChatAssembly.assemble)
