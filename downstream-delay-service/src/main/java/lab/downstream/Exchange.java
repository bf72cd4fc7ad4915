package lab.downstream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;

import lab.common.BadParameterException;
import lab.common.DelayMs;

/**
 * One connection's requests, in order. An address is answered by a task scheduled on this connection's own event
 * loop (one wake-up, no thread hop); answers leave in the order the requests came, even if a client pipelines a
 * long delay before a short one. Errors use the contract's body, {@code {"error":"...","detail":"..."}}.
 */
final class Exchange extends ChannelInboundHandlerAdapter {

	private static final String ADDRESS = "/address/";

	private static final byte[] ADDRESS_HEAD = "{\"street\":\"1 Loom Street\",\"city\":\"Springfield\",\"zip\":\"00042\",\"delayMs\":"
		.getBytes(StandardCharsets.US_ASCII);

	private final Routes routes;

	private final boolean serveApp;

	private final boolean serveManagement;

	/** Answers not yet written, oldest first; an answer is written once it and every one before it is ready. */
	private final ArrayDeque<Pending> pending = new ArrayDeque<>(2);

	Exchange(Routes routes, boolean serveApp, boolean serveManagement) {
		this.routes = routes;
		this.serveApp = serveApp;
		this.serveManagement = serveManagement;
	}

	@Override
	public void channelRead(ChannelHandlerContext ctx, Object msg) {
		try {
			if (msg instanceof HttpRequest request) {
				if (request.decoderResult().isFailure()) {
					Pending answer = enqueue(ctx, false);
					answer.ready(error(HttpResponseStatus.BAD_REQUEST, "http_400", "malformed request"));
					return;
				}
				route(ctx, request);
			}
		}
		finally {
			// The request line and headers are plain objects; a body (none on GET) is released unread.
			ReferenceCountUtil.release(msg);
		}
	}

	private void route(ChannelHandlerContext ctx, HttpRequest request) {
		boolean keepAlive = HttpUtil.isKeepAlive(request);
		QueryStringDecoder uri = new QueryStringDecoder(request.uri());
		String path = uri.path();
		HttpMethod method = request.method();
		Pending answer = enqueue(ctx, keepAlive);
		if (this.serveApp && path.startsWith(ADDRESS) && path.indexOf('/', ADDRESS.length()) < 0 && path.length() > ADDRESS.length()) {
			if (!HttpMethod.GET.equals(method)) {
				answer.ready(error(HttpResponseStatus.METHOD_NOT_ALLOWED, "http_405", method + " is not supported on " + path));
				return;
			}
			address(ctx, request, uri, path.substring(ADDRESS.length()), answer);
		}
		else if (this.serveApp && path.equals("/inflight") && (HttpMethod.GET.equals(method) || HttpMethod.DELETE.equals(method))) {
			answer.ready(json(HttpResponseStatus.OK, HttpMethod.GET.equals(method) ? this.routes.inFlight.json() : this.routes.inFlight.reset()));
		}
		else if (this.serveManagement && path.equals("/actuator/health") && HttpMethod.GET.equals(method)) {
			answer.ready(json(HttpResponseStatus.OK, "{\"status\":\"UP\"}"));
		}
		else if (this.serveManagement && path.equals("/actuator/prometheus") && HttpMethod.GET.equals(method)) {
			this.routes.scrapes.execute(() -> {
				byte[] text = this.routes.registry.scrape().getBytes(StandardCharsets.UTF_8);
				ctx.executor().execute(() -> answer.ready(response(HttpResponseStatus.OK, "text/plain; version=0.0.4; charset=utf-8", text)));
			});
		}
		else {
			answer.ready(error(HttpResponseStatus.NOT_FOUND, "http_404", "no route for " + method + " " + path));
		}
	}

	private void address(ChannelHandlerContext ctx, HttpRequest request, QueryStringDecoder uri, String rawDelay, Pending answer) {
		long delay;
		int pad;
		try {
			delay = DelayMs.parse(rawDelay);
			List<String> padBytes = uri.parameters().get("padBytes");
			pad = Routes.padBytes((padBytes == null) ? null : padBytes.get(0));
		}
		catch (BadParameterException ex) {
			answer.ready(error(HttpResponseStatus.BAD_REQUEST, "bad_parameter", ex.getMessage()));
			return;
		}
		if (this.routes.hang(request.headers().contains("X-Lab-Probe"))) {
			return;
		}
		long start = System.nanoTime();
		this.routes.inFlight.enter();
		answer.inFlight = true;
		Runnable timer = () -> {
			this.routes.overhead.record(Math.max(0, System.nanoTime() - start - TimeUnit.MILLISECONDS.toNanos(delay)), TimeUnit.NANOSECONDS);
			answer.ready(addressBody(ctx, delay, pad));
		};
		answer.timer = ctx.executor().schedule(timer, delay, TimeUnit.MILLISECONDS);
	}

	private static FullHttpResponse addressBody(ChannelHandlerContext ctx, long delay, int pad) {
		ByteBuf body = ctx.alloc().buffer(ADDRESS_HEAD.length + 40 + pad);
		body.writeBytes(ADDRESS_HEAD);
		body.writeCharSequence(Long.toString(delay), StandardCharsets.US_ASCII);
		body.writeCharSequence(",\"padding\":\"", StandardCharsets.US_ASCII);
		for (int i = 0; i < pad; i++) {
			body.writeByte('x');
		}
		body.writeCharSequence("\"}", StandardCharsets.US_ASCII);
		return response(HttpResponseStatus.OK, body, HttpHeaderValues.APPLICATION_JSON.toString());
	}

	private Pending enqueue(ChannelHandlerContext ctx, boolean keepAlive) {
		Pending answer = new Pending(ctx, keepAlive);
		this.pending.addLast(answer);
		return answer;
	}

	/** Writes every answer at the head of the queue that is ready; flushes once. */
	private void drain(ChannelHandlerContext ctx) {
		boolean wrote = false;
		Pending head;
		while ((head = this.pending.peekFirst()) != null && head.response != null) {
			this.pending.removeFirst();
			if (head.inFlight) {
				this.routes.inFlight.leave();
				head.inFlight = false;
			}
			HttpUtil.setKeepAlive(head.response, head.keepAlive);
			if (head.keepAlive) {
				ctx.write(head.response, ctx.voidPromise());
			}
			else {
				ctx.writeAndFlush(head.response).addListener(ChannelFutureListener.CLOSE);
			}
			wrote = true;
		}
		if (wrote) {
			ctx.flush();
		}
	}

	@Override
	public void channelInactive(ChannelHandlerContext ctx) throws Exception {
		// The client went away: its waiting requests leave the count now, their timers are cancelled.
		for (Pending waiting : this.pending) {
			if (waiting.timer != null) {
				waiting.timer.cancel(false);
			}
			if (waiting.inFlight) {
				this.routes.inFlight.leave();
				waiting.inFlight = false;
			}
			if (waiting.response != null) {
				waiting.response.release();
			}
		}
		this.pending.clear();
		super.channelInactive(ctx);
	}

	@Override
	public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
		// A reset connection is the client's business; the channel closes and channelInactive tidies up.
		ctx.close();
	}

	/**
	 * The contract's error body, as the proxies answer it: an RFC 9457 problem detail ({@code application/problem+json})
	 * with the stable code as the extension member {@code error} (no {@code type}: RFC 9457's default, about:blank,
	 * as Spring leaves it).
	 */
	private static FullHttpResponse error(HttpResponseStatus status, String error, String detail) {
		String body = "{\"title\":\"" + escape(status.reasonPhrase()) + "\",\"status\":" + status.code()
				+ ",\"detail\":\"" + escape(detail) + "\",\"error\":\"" + error + "\"}";
		return response(status, PROBLEM_JSON, body.getBytes(StandardCharsets.UTF_8));
	}

	static final String PROBLEM_JSON = "application/problem+json";

	private static FullHttpResponse json(HttpResponseStatus status, String json) {
		return response(status, HttpHeaderValues.APPLICATION_JSON.toString(), json.getBytes(StandardCharsets.UTF_8));
	}

	private static FullHttpResponse response(HttpResponseStatus status, String contentType, byte[] body) {
		return response(status, io.netty.buffer.Unpooled.wrappedBuffer(body), contentType);
	}

	private static FullHttpResponse response(HttpResponseStatus status, ByteBuf body, String contentType) {
		FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
		response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType).setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
		return response;
	}

	/** JSON string escaping for an error's detail (which may quote what the client sent). */
	static String escape(String text) {
		StringBuilder out = new StringBuilder(text.length() + 8);
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			switch (c) {
				case '"' -> out.append("\\\"");
				case '\\' -> out.append("\\\\");
				default -> {
					if (c < 0x20) {
						out.append(String.format("\\u%04x", (int) c));
					}
					else {
						out.append(c);
					}
				}
			}
		}
		return out.toString();
	}

	/** One request's answer: written when ready and when every answer before it has been written. */
	private final class Pending {

		private final ChannelHandlerContext ctx;

		private final boolean keepAlive;

		private FullHttpResponse response;

		private ScheduledFuture<?> timer;

		private boolean inFlight;

		Pending(ChannelHandlerContext ctx, boolean keepAlive) {
			this.ctx = ctx;
			this.keepAlive = keepAlive;
		}

		/** On the connection's event loop. */
		void ready(FullHttpResponse response) {
			if (!this.ctx.channel().isActive()) {
				response.release();
				return;
			}
			this.response = response;
			drain(this.ctx);
		}

	}

}
