package lab.common;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * How a proxy reaches the downstream, beyond what Spring Boot's {@code spring.http.clients.*} properties cover
 * (timeouts and the blocking implementation, defaults in {@code lab-service-defaults.properties}). Identical for
 * every variant: the fairness rules demand the same timeouts, the same pool ceiling and a stated client.
 *
 * @param baseUrl downstream base URL
 * @param maxConnections client connection pool ceiling; far above the users the lab drives, so no variant
 * queues silently behind its pool (HC5 defaults to 25, Reactor Netty to 500)
 * @param bufferSize the Apache client's per-connection buffers: input, its line buffer, and output (its default
 * 8 KB each); the answers are a few hundred bytes
 * @param contentCompression whether the Apache client asks for compressed answers and decompresses them (its
 * default); the other clients ask for none
 */
@ConfigurationProperties("lab.downstream")
public record DownstreamProperties(@DefaultValue("http://127.0.0.1:7000") String baseUrl,
		@DefaultValue("20000") int maxConnections, @DefaultValue("8KB") DataSize bufferSize,
		@DefaultValue("true") boolean contentCompression) {

}
