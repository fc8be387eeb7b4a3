import PaymentVerifyService
import ServiceKit

await ServiceMain.run(.paymentVerify, assemble: PaymentVerifyAssembly.assemble)
