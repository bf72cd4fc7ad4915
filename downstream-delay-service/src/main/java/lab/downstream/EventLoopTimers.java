package lab.downstream;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.channel.EventLoop;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.http.server.HttpServerRequest;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

/**
 * Runs each request's delay timer on the event loop of its own connection. With Reactor's shared parallel timer,
 * every answer hopped from the timer thread back to the event loop: two thread wake-ups per request, which made
 * the downstream cost 0.25 ms of CPU per request here and made it the bottleneck it must never be.
 */
@Component
class EventLoopTimers {

	private final Map<EventLoop, Scheduler> schedulers = new ConcurrentHashMap<>();

	Scheduler of(ServerWebExchange exchange) {
		EventLoop loop = eventLoop(exchange.getRequest());
		if (loop == null) {
			return Schedulers.parallel();
		}
		return this.schedulers.computeIfAbsent(loop, l -> Schedulers.fromExecutorService(l, "event-loop-timer"));
	}

	private static EventLoop eventLoop(ServerHttpRequest request) {
		Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request);
		if (nativeRequest instanceof HttpServerRequest reactorRequest) {
			EventLoop[] loop = new EventLoop[1];
			reactorRequest.withConnection(connection -> loop[0] = connection.channel().eventLoop());
			return loop[0];
		}
		return null;
	}

}
