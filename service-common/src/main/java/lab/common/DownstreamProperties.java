package lab.common;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How a proxy reaches the downstream. Identical for every variant: the fairness rules demand the same
 * timeouts, the same pool ceiling and a stated client.
 *
 * @param baseUrl downstream base URL
 * @param connectTimeout how long to wait for a TCP connection before answering 502
 * @param responseTimeout how long to wait for the downstream's answer before answering 504
 * @param maxConnections client connection pool ceiling; far above the users the lab drives, so no variant
 * queues silently behind its pool (HC5 defaults to 25, Reactor Netty to 500)
 * @param client blocking client implementation (MVC and WebFlux+Loom variants only)
 * @param bufferSize the Apache client's per-connection input and output buffers (its default 8 KB); the answers
 * are a few hundred bytes
 */
@ConfigurationProperties("lab.downstream")
public record DownstreamProperties(@DefaultValue("http://127.0.0.1:7000") String baseUrl,
		@DefaultValue("2s") Duration connectTimeout, @DefaultValue("30s") Duration responseTimeout,
		@DefaultValue("20000") int maxConnections, @DefaultValue("apache") BlockingClient client,
		@DefaultValue("8KB") org.springframework.util.unit.DataSize bufferSize) {

	/** The blocking clients a proxy can use; which one matters for virtual threads. */
	public enum BlockingClient {

		/** Apache HttpClient 5 with a pool raised to {@code maxConnections}: the lab's default. */
		APACHE,
		/** The JDK {@code java.net.http.HttpClient}: Spring's default when nothing else is on the classpath. */
		JDK,
		/** {@code HttpURLConnection}, what the article's {@code RestTemplate} used. */
		SIMPLE

	}

}
