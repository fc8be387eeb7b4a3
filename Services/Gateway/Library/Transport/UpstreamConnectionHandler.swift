import NIOCore
import NIOHTTP1
import ServiceKit

/// One keep-alive HTTP/1 connection to a service, one request at a time, as bytes: the request's
/// head written here, the answer read by `UpstreamAnswerReader`. Lives on its channel's event
/// loop: the gateway's request task runs there too (see the executable), so forwarding a request
/// costs no thread switch. Small answers are collected here and handed over whole; larger ones
/// stream with back-pressure (reading stops while the client is slower).
final class UpstreamConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundIn = UpstreamBodyPart
    typealias OutboundOut = ByteBuffer

    private enum State {
        case idle
        case awaitingHead(EventLoopPromise<UpstreamResponse>)
        /// The answer's body so far (nil before its first part, which is most often all of it).
        case buffering(UpstreamHead, ByteBuffer?, EventLoopPromise<UpstreamResponse>)
        case streaming(UpstreamBodyStream.Source)
        case closed
    }

    private var state = State.idle
    private var reader = UpstreamAnswerReader()
    /// How a streamed request body's parts are framed.
    private var bodyFraming = BodyFraming.none
    private let host: String
    private var context: ChannelHandlerContext?
    /// When the answer in progress is late: its head or whole small body, or a streamed body's
    /// next part while the client is reading. One timer per connection checks it, re-armed only
    /// while an answer is due: a timer per request cost more than the forwarding it guarded.
    private var answerDue: NIODeadline?
    private var timeout = TimeAmount.seconds(60)
    private var timer: Scheduled<Void>?
    private var keepAlive = true
    private var requestEnded = false
    private var readingPaused = false
    private var readPending = false
    /// Called on the event loop when a response has ended and the connection can take another request.
    var onReusable: (() -> Void)?

    /// Whether any byte of the current answer has arrived (a request that failed before that may be retried).
    private var answered = false
    /// The streamed answer in progress: its stream's word comes on the event loop a moment later,
    /// possibly after the connection has gone on to the next answer.
    private var streamSerial = 0

    /// `host` is the service's authority, sent as every request's `Host`.
    init(host: String) {
        self.host = host
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    /// Writes the head (and the body when it is in hand); a streamed body follows through the
    /// channel and ends with `.end`.
    func send(_ request: UpstreamRequest, timeout: TimeAmount, promise: EventLoopPromise<UpstreamResponse>) {
        guard let context, case .idle = state else {
            promise.fail(UpstreamError.closedBeforeAnswer)
            return
        }
        state = .awaitingHead(promise)
        // The answer decides: a request never asks to close (`connection` stays at the gateway).
        keepAlive = true
        requestEnded = false
        answered = false
        self.timeout = timeout
        expectAnswer(context: context)
        reader.expect(answerTo: request.head.method)
        var head = context.channel.allocator.buffer(capacity: 1024)
        bodyFraming = request.writeHead(host: host, to: &head)
        // A body in hand goes in the same write; a streamed body's parts pass through `write`.
        switch request.body {
        case .none:
            requestEnded = true
            context.writeAndFlush(wrapOutboundOut(head), promise: nil)
        case .bytes(let buffer):
            requestEnded = true
            context.write(wrapOutboundOut(head), promise: nil)
            context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        case .stream:
            context.writeAndFlush(wrapOutboundOut(head), promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part: ByteBuffer?
        switch unwrapOutboundIn(data) {
        case .part(let buffer): part = buffer
        case .end:
            requestEnded = true
            part = nil
        }
        context.write(wrapOutboundOut(bodyFraming.frame(part, allocator: context.channel.allocator)), promise: promise)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        answered = true
        reader.read(unwrapInboundIn(data))
        do {
            while let event = try reader.next() {
                handle(event, context: context)
            }
        } catch {
            // Not an answer, or one nobody asked for: the connection is out of step, do not reuse it.
            fail(error)
            context.close(promise: nil)
        }
    }

    private func handle(_ event: UpstreamAnswerReader.Event, context: ChannelHandlerContext) {
        switch (event, state) {
        case (.head(let head), .awaitingHead(let promise)):
            keepAlive = keepAlive && head.keepAlive
            switch head.body {
            case .none:
                state = .buffering(head, nil, promise)
            case .length(let length) where length <= UpstreamResponse.bufferedLimit:
                state = .buffering(head, nil, promise)
            default:
                expectAnswer(context: context)
                streamSerial += 1
                let stream = UpstreamBodyStream.make(delegate: .init(handler: self, serial: streamSerial, eventLoop: context.eventLoop))
                state = .streaming(stream.source)
                promise.succeed(UpstreamResponse(head: head, body: .stream(UpstreamBodyStream(stream.sequence))))
            }
        case (.body(var part), .buffering(let head, var buffer, let promise)):
            state = .idle  // lets `buffer` be appended to in place
            if buffer == nil {
                buffer = part
            } else {
                buffer!.writeBuffer(&part)
            }
            state = .buffering(head, buffer, promise)
        case (.body(let part), .streaming(let source)):
            if source.yield(part) == .stopProducing {
                // The client is slower: the service is not late while we do not read.
                readingPaused = true
                answerDue = nil
            } else {
                expectAnswer(context: context)
            }
        case (.end, .buffering(let head, let buffer, let promise)):
            finishResponse(context: context)
            promise.succeed(UpstreamResponse(head: head, body: .buffered(buffer ?? context.channel.allocator.buffer(capacity: 0))))
        case (.end, .streaming(let source)):
            finishResponse(context: context)
            source.finish()
        default:
            context.close(promise: nil)
        }
    }

    func read(context: ChannelHandlerContext) {
        if readingPaused {
            readPending = true
        } else {
            context.read()
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // An answer without length or chunks ends here.
        if let end = reader.closed() { handle(end, context: context) }
        timer?.cancel()
        timer = nil
        fail(answered ? UpstreamError.connectionClosed : UpstreamError.closedBeforeAnswer)
        state = .closed
        onReusable = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    /// The client wants more of a streamed body.
    func resumeReading(serial: Int) {
        guard serial == streamSerial else { return }
        readingPaused = false
        if case .streaming = state, let context { expectAnswer(context: context) }
        if readPending, let context {
            readPending = false
            context.read()
        }
    }

    /// The client stopped reading a streamed body (it went away): the rest of that answer would
    /// arrive on this connection, so it cannot be reused. A stream that ended with its answer says
    /// so too, after the connection may have taken the next request: that is not this answer's.
    func consumerGone(serial: Int) {
        guard serial == streamSerial, case .streaming = state else { return }
        context?.close(promise: nil)
    }

    private func finishResponse(context: ChannelHandlerContext) {
        answerDue = nil
        state = .idle
        readingPaused = false
        // A request still being sent when its answer ended leaves the connection mid-message.
        if keepAlive && requestEnded, let onReusable {
            onReusable()
        } else {
            context.close(promise: nil)
        }
    }

    private func expectAnswer(context: ChannelHandlerContext) {
        let due = NIODeadline.now() + timeout
        answerDue = due
        if timer == nil { armTimer(at: due, context: context) }
    }

    private func armTimer(at deadline: NIODeadline, context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in self?.timerFired() }
    }

    private func timerFired() {
        timer = nil
        guard let due = answerDue, let context else { return }
        if due <= .now() {
            fail(UpstreamError.timedOut)
            context.close(promise: nil)
        } else {
            armTimer(at: due, context: context)
        }
    }

    private func fail(_ error: any Error) {
        answerDue = nil
        switch state {
        case .awaitingHead(let promise), .buffering(_, _, let promise):
            promise.fail(error)
        case .streaming(let source):
            source.finish(error)
        case .idle, .closed:
            break
        }
        state = .idle
    }
}

enum UpstreamError: Error {
    /// Closed before any byte of the answer: the service may not have seen the request.
    case closedBeforeAnswer
    /// No connection could be made: the request was never sent.
    case unreachable(String)
    case connectionClosed
    case timedOut
}
