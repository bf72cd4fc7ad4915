package lab.common;

import java.io.File;
import java.time.Duration;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.boot.web.server.context.WebServerPortFileWriter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.PropertySource;

/**
 * What every service of the lab gets by depending on this module: process metrics, the JSON error body, the
 * downstream clients' settings, the port file the runner reads, and the defaults in
 * {@code lab-service-defaults.properties} (only health, info and prometheus exposed, percentile histograms, the
 * {@code application} tag, the clients' timeouts).
 */
@AutoConfiguration
@PropertySource("classpath:lab-service-defaults.properties")
@EnableConfigurationProperties(DownstreamProperties.class)
@Import({ ErrorResponses.class, DownstreamClients.class })
public class LabServiceAutoConfiguration {

	/**
	 * {@code lab.process-metrics.thread-walk=false}: no walk over every thread at each scrape for the context-switch
	 * counters; the runner passes it to the services it starts and walks their threads itself.
	 */
	@Bean
	ProcessMetrics processMetrics(@Value("${lab.process-metrics.thread-walk:true}") boolean threadWalk) {
		return new ProcessMetrics(threadWalk);
	}

	/** Pinned virtual threads counted from 1 ms, not micrometer's fixed 20 ms ({@code lab.pinned-threshold}). */
	@Bean(destroyMethod = "close")
	PinnedEventThreshold pinnedEventThreshold(@Value("${lab.pinned-threshold:1ms}") Duration threshold) {
		return new PinnedEventThreshold(threshold);
	}

	/** The downstream client's effective settings in {@code /actuator/info}, read from the client itself. */
	@Bean
	DownstreamClientReadback downstreamClientReadback(ListableBeanFactory beans) {
		return new DownstreamClientReadback(beans);
	}

	@Bean
	FailureLog failureLog(MeterRegistry registry) {
		return new FailureLog(registry);
	}

	/** Services started with port 0 write the port they got here, so the runner never guesses a free port. */
	@Bean
	@ConditionalOnProperty("lab.port-file")
	WebServerPortFileWriter portFileWriter(@Value("${lab.port-file}") String portFile) {
		return new WebServerPortFileWriter(new File(portFile));
	}

	/**
	 * Tomcat's per-connection socket buffers (application read and write, 8 KB each by default, on the heap), set by
	 * {@code lab.tomcat.socket-buffer-size}; Spring Boot has no property for them. Only a tuning sets it.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.tomcat.TomcatConnectorCustomizer")
	@ConditionalOnProperty("lab.tomcat.socket-buffer-size")
	static class TomcatSocketBuffers {

		@Bean
		org.springframework.boot.tomcat.TomcatConnectorCustomizer socketBufferSize(
				@Value("${lab.tomcat.socket-buffer-size}") org.springframework.util.unit.DataSize size) {
			String bytes = Long.toString(size.toBytes());
			return connector -> {
				TomcatSettings.set(connector, "socket.appReadBufSize", bytes, "lab.tomcat.socket-buffer-size");
				TomcatSettings.set(connector, "socket.appWriteBufSize", bytes, "lab.tomcat.socket-buffer-size");
			};
		}

	}

	/**
	 * Tomcat's buffer for the trailer headers of chunked request bodies ({@code lab.tomcat.max-trailer-size}), 8 KB
	 * allocated for every request object whether or not a request ever has a chunked body; Spring Boot has no
	 * property for it. A request whose trailers exceed it is refused. Only a tuning sets it.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.tomcat.TomcatConnectorCustomizer")
	@ConditionalOnProperty("lab.tomcat.max-trailer-size")
	static class TomcatTrailerSize {

		@Bean
		org.springframework.boot.tomcat.TomcatConnectorCustomizer maxTrailerSize(
				@Value("${lab.tomcat.max-trailer-size}") org.springframework.util.unit.DataSize size) {
			return connector -> TomcatSettings.set(connector, "maxTrailerSize", Long.toString(size.toBytes()), "lab.tomcat.max-trailer-size");
		}

	}

	/**
	 * The size of Tomcat's per-request response buffer ({@code lab.tomcat.response-buffer-size}, 8 KB + 8 K chars by
	 * default), through the protocol handler Tomcat asks for it. Only a tuning sets it.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.tomcat.TomcatWebServerFactory")
	@ConditionalOnProperty("lab.tomcat.response-buffer-size")
	static class TomcatResponseBuffer {

		@Bean
		org.springframework.boot.web.server.WebServerFactoryCustomizer<org.springframework.boot.tomcat.TomcatWebServerFactory> responseBufferSize(
				@Value("${lab.tomcat.response-buffer-size}") org.springframework.util.unit.DataSize size) {
			return factory -> {
				ResponseBufferHttp11NioProtocol.responseBufferSize = (int) size.toBytes();
				factory.setProtocol(ResponseBufferHttp11NioProtocol.class.getName());
			};
		}

	}

	/**
	 * The size of Tomcat's per-request reader buffer ({@code lab.tomcat.request-reader-chars}, 8 K chars by default,
	 * allocated for every request object whether a body is read or not), through {@link RequestReaderValve}. Only a
	 * tuning sets it.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.tomcat.TomcatContextCustomizer")
	@ConditionalOnProperty("lab.tomcat.request-reader-chars")
	static class TomcatRequestReader {

		@Bean
		org.springframework.boot.tomcat.TomcatContextCustomizer requestReaderSize(
				@Value("${lab.tomcat.request-reader-chars}") int chars) {
			RequestReaderValve valve = new RequestReaderValve(chars);
			return context -> context.getPipeline().addValve(valve);
		}

	}

	/**
	 * The Netty variants' open connections, counted as each opens and closes ({@link ServerConnections}): the
	 * requests in flight of a closed model, at no cost per request.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(NettyServerCustomizer.class)
	static class ReactorNettyConnections {

		@Bean
		NettyServerCustomizer openConnections(MeterRegistry registry) {
			ServerConnections open = ServerConnections.register(registry, "Reactor Netty");
			return server -> server.doOnChannelInit((observer, channel, address) -> {
				open.opened();
				channel.closeFuture().addListener(closed -> open.closed());
			});
		}

	}

	/** Tomcat's open connections, as its endpoint counts them ({@link ServerConnections}). */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.tomcat.TomcatConnectorCustomizer")
	static class TomcatConnections {

		@Bean
		org.springframework.boot.tomcat.TomcatConnectorCustomizer openConnections(MeterRegistry registry) {
			return connector -> ServerConnections.register(registry, "Tomcat", TomcatSettings.connectionCount(connector));
		}

	}

	/**
	 * Jetty's open connections, counted as each opens and closes ({@link ServerConnections}), and the Jetty settings
	 * Spring Boot has no property for, each set only when a property asks for it: the accept queue
	 * ({@code lab.jetty.accept-queue-size}; Jetty's default 0 leaves the JDK's backlog of 50, Tomcat's counterpart is
	 * {@code server.tomcat.accept-count}) and the per-connection cache of request header fields
	 * ({@code lab.jetty.header-cache-size}, 1,024 by default; 0: none).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.springframework.boot.jetty.JettyServerCustomizer")
	static class Jetty {

		@Bean
		org.springframework.boot.jetty.JettyServerCustomizer openConnections(MeterRegistry registry) {
			ServerConnections open = ServerConnections.register(registry, "Jetty");
			return server -> JettySettings.countConnections(server, open);
		}

		@Bean
		@ConditionalOnProperty("lab.jetty.accept-queue-size")
		org.springframework.boot.jetty.JettyServerCustomizer acceptQueueSize(@Value("${lab.jetty.accept-queue-size}") int size) {
			return server -> JettySettings.acceptQueueSize(server, size);
		}

		@Bean
		@ConditionalOnProperty("lab.jetty.header-cache-size")
		org.springframework.boot.jetty.JettyServerCustomizer headerCacheSize(@Value("${lab.jetty.header-cache-size}") int size) {
			return server -> JettySettings.headerCacheSize(server, size);
		}

	}

	/**
	 * Reactor Netty's own server meters, off unless asked for ({@code lab.netty-server-metrics=true}): they time
	 * every request a second time beside Spring's {@code http.server.requests}, which Tomcat variants do not get, so
	 * observation would not be equal between the models.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(NettyServerCustomizer.class)
	@ConditionalOnProperty(name = "lab.netty-server-metrics", havingValue = "true")
	static class ReactorNettyServerMetrics {

		/** Every URI maps to one tag value to bound cardinality. */
		@Bean
		NettyServerCustomizer connectionMetrics() {
			return server -> server.metrics(true, uri -> "/");
		}

	}

}
