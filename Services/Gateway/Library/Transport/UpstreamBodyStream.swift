import NIOCore

/// A service's answer body as it arrives, for bodies too large (or of unknown length) to collect.
/// Back-pressure reaches the connection: past a few buffered parts it stops reading.
struct UpstreamBodyStream: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    typealias Producer = NIOThrowingAsyncSequenceProducer<
        ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, Delegate
    >
    typealias Source = Producer.Source

    /// Tells the connection handler, on its event loop, to read on or to give the connection up.
    /// `serial` names the answer this stream carries: a word from it that arrives after the
    /// connection has gone on to the next answer is about an answer already over.
    struct Delegate: NIOAsyncSequenceProducerDelegate {
        let handler: NIOLoopBound<UpstreamConnectionHandler>
        let serial: Int

        init(handler: UpstreamConnectionHandler, serial: Int, eventLoop: any EventLoop) {
            self.handler = NIOLoopBound(handler, eventLoop: eventLoop)
            self.serial = serial
        }

        func produceMore() {
            handler.eventLoop.execute { handler.value.resumeReading(serial: serial) }
        }

        func didTerminate() {
            handler.eventLoop.execute { handler.value.consumerGone(serial: serial) }
        }
    }

    private let producer: Producer

    init(_ producer: Producer) {
        self.producer = producer
    }

    static func make(delegate: Delegate) -> Producer.NewSequence {
        Producer.makeSequence(backPressureStrategy: .init(lowWatermark: 2, highWatermark: 8), finishOnDeinit: false, delegate: delegate)
    }

    func makeAsyncIterator() -> Producer.AsyncIterator {
        producer.makeAsyncIterator()
    }
}
