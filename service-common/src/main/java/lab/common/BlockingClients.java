package lab.common;

import java.net.http.HttpClient;
import java.util.concurrent.Executors;

import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.config.Http1Config;
import org.apache.hc.core5.util.Timeout;

import org.springframework.http.client.ClientHttpRequestFactory;
import org.springframework.http.client.HttpComponentsClientHttpRequestFactory;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.client.SimpleClientHttpRequestFactory;
import org.springframework.web.client.RestClient;

/**
 * Builds the blocking {@link RestClient} the MVC and WebFlux+Loom variants call the downstream with, so the
 * three share one client configuration and differ only in the concurrency model around it.
 */
public final class BlockingClients {

	private BlockingClients() {
	}

	/** From Spring Boot's builder, so the client is observed ({@code http.client.requests}) like WebClient is. */
	public static RestClient restClient(RestClient.Builder builder, DownstreamProperties downstream) {
		return builder.baseUrl(downstream.baseUrl()).requestFactory(requestFactory(downstream)).build();
	}

	static ClientHttpRequestFactory requestFactory(DownstreamProperties downstream) {
		return switch (downstream.client()) {
			case APACHE -> apache(downstream);
			case JDK -> jdk(downstream);
			case SIMPLE -> simple(downstream);
		};
	}

	private static ClientHttpRequestFactory apache(DownstreamProperties downstream) {
		var connections = PoolingHttpClientConnectionManagerBuilder.create()
			// HC5 defaults to 25 connections in total and 5 per route: every caller past that would wait.
			.setMaxConnTotal(downstream.maxConnections())
			.setMaxConnPerRoute(downstream.maxConnections())
			.setDefaultConnectionConfig(ConnectionConfig.custom()
				.setConnectTimeout(Timeout.of(downstream.connectTimeout()))
				.setSocketTimeout(Timeout.of(downstream.responseTimeout()))
				.build())
			.setConnectionFactory(ManagedHttpClientConnectionFactory.builder()
				.http1Config(Http1Config.custom().setBufferSize((int) downstream.bufferSize().toBytes()).build())
				.build())
			.build();
		var client = HttpClients.custom()
			.setConnectionManager(connections)
			.setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.of(downstream.responseTimeout())).build())
			.disableAutomaticRetries()
			.build();
		return new HttpComponentsClientHttpRequestFactory(client);
	}

	private static ClientHttpRequestFactory jdk(DownstreamProperties downstream) {
		// HTTP/1.1 like the others; the client's own executor is virtual so it adds no platform-thread pool.
		var client = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(downstream.connectTimeout())
			.executor(Executors.newVirtualThreadPerTaskExecutor())
			.build();
		var factory = new JdkClientHttpRequestFactory(client);
		factory.setReadTimeout(downstream.responseTimeout());
		return factory;
	}

	private static ClientHttpRequestFactory simple(DownstreamProperties downstream) {
		var factory = new SimpleClientHttpRequestFactory();
		factory.setConnectTimeout(downstream.connectTimeout());
		factory.setReadTimeout(downstream.responseTimeout());
		return factory;
	}

}
