package lab.common;

import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.Executors;

import org.apache.hc.client5.http.impl.io.ManagedHttpClientConnectionFactory;
import org.apache.hc.core5.http.config.Http1Config;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.http.client.ClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpComponentsClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.HttpRedirects;
import org.springframework.boot.http.client.JdkClientHttpRequestFactoryBuilder;
import org.springframework.boot.http.client.autoconfigure.ClientHttpRequestFactoryBuilderCustomizer;
import org.springframework.boot.http.client.autoconfigure.imperative.ImperativeHttpClientsProperties;
import org.springframework.boot.http.client.autoconfigure.reactive.ClientHttpConnectorBuilderCustomizer;
import org.springframework.boot.http.client.reactive.ReactorClientHttpConnectorBuilder;
import org.springframework.boot.util.LambdaSafe;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * The proxies' HTTP clients, configured the Spring Boot way: timeouts and the blocking implementation are Boot's own
 * {@code spring.http.clients.*} properties (defaults in {@code lab-service-defaults.properties}), applied by Boot's
 * client builders to the {@code RestClient.Builder} and {@code WebClient.Builder} it hands the applications. What
 * Boot has no property for, the pool ceiling and the Apache client's buffers ({@code lab.downstream.*}), is added
 * through Boot's builder customizers. The applications only set the base URL. {@link DownstreamClientReadback}
 * reads the effective settings back from the clients the applications built.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(ClientHttpRequestFactoryBuilder.class)
class DownstreamClients {

	/**
	 * Apache HttpClient 5: the pool raised to {@code lab.downstream.max-connections} (HC5 defaults to 25 in total
	 * and 5 per route: every caller past that would wait), the per-connection buffers sized, no automatic retries
	 * (a retried timeout would hide the failure the lab counts). Two of its request stages can go: the redirect
	 * stage where Boot is told not to follow redirects ({@code spring.http.clients.redirects=dont-follow}: the stage
	 * would only check and pass), and the content-compression stage ({@code lab.downstream.content-compression=false}:
	 * no {@code Accept-Encoding} asked, no decompression; Reactor Netty's and the JDK's clients ask for none either).
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = "org.apache.hc.client5.http.impl.classic.HttpClientBuilder")
	static class Apache {

		@Bean
		ClientHttpRequestFactoryBuilderCustomizer<HttpComponentsClientHttpRequestFactoryBuilder> labApacheClient(
				DownstreamProperties downstream, Environment environment) {
			boolean followsRedirects = Binder.get(environment)
				.bind("spring.http.clients.redirects", HttpRedirects.class)
				.map(redirects -> redirects != HttpRedirects.DONT_FOLLOW)
				.orElse(true);
			return builder -> builder
				.withConnectionManagerCustomizer(pool -> pool.setMaxConnTotal(downstream.maxConnections())
					.setMaxConnPerRoute(downstream.maxConnections())
					.setConnectionFactory(ManagedHttpClientConnectionFactory.builder()
						.http1Config(Http1Config.custom().setBufferSize((int) downstream.bufferSize().toBytes()).build())
						.build()))
				.withHttpClientCustomizer(client -> {
					client.disableAutomaticRetries();
					if (!followsRedirects) {
						client.disableRedirectHandling();
					}
					if (!downstream.contentCompression()) {
						client.disableContentCompression();
					}
				});
		}

	}

	/** The JDK client: HTTP/1.1 like the others, and a virtual executor so it adds no platform-thread pool. */
	@Bean
	ClientHttpRequestFactoryBuilderCustomizer<JdkClientHttpRequestFactoryBuilder> labJdkClient() {
		return builder -> builder.withExecutor(Executors.newVirtualThreadPerTaskExecutor())
			.withHttpClientCustomizer(client -> client.version(HttpClient.Version.HTTP_1_1));
	}

	/**
	 * Reactor Netty: a pool of {@code lab.downstream.max-connections} with an unbounded acquire queue. Its default
	 * (500 connections, 1,000 pending) would cap a 500 ms downstream near 1,000 rps and queue the rest silently. Runs
	 * after Boot's own customizer (order 0), which would otherwise give the client the shared default pool.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(name = { "reactor.netty.http.client.HttpClient",
			"org.springframework.web.reactive.function.client.WebClient" })
	static class ReactorNetty {

		@Bean
		ClientHttpConnectorBuilderCustomizer<ReactorClientHttpConnectorBuilder> labReactorClient(
				DownstreamProperties downstream) {
			return builder -> builder.withHttpClientFactory(() -> reactor.netty.http.client.HttpClient
				.create(ConnectionProvider.builder("downstream")
					.maxConnections(downstream.maxConnections())
					.pendingAcquireMaxCount(-1)
					.metrics(true)
					.build()));
		}

	}

	/**
	 * Boot configures the blocking client builder only in servlet applications; a reactive application that calls
	 * out with a {@code RestClient} (WebFlux+Loom) would get a bare detected builder, without
	 * {@code spring.http.clients.imperative.factory} or the customizers above. This bean closes that gap the way
	 * Boot's own configuration does, so all three blocking variants get the same client.
	 */
	@Bean
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass(name = "org.springframework.web.client.RestClient")
	@ConditionalOnMissingBean
	@SuppressWarnings("unchecked")
	ClientHttpRequestFactoryBuilder<?> blockingClientOfAReactiveApplication(Environment environment,
			ObjectProvider<ClientHttpRequestFactoryBuilderCustomizer<?>> customizers) {
		ImperativeHttpClientsProperties.Factory factory = Binder.get(environment)
			.bind("spring.http.clients.imperative.factory", ImperativeHttpClientsProperties.Factory.class)
			.orElse(null);
		ClientHttpRequestFactoryBuilder<?> builder = (factory != null) ? builderFor(factory)
				: ClientHttpRequestFactoryBuilder.detect(getClass().getClassLoader());
		ClientHttpRequestFactoryBuilder<?>[] customized = { builder };
		List<ClientHttpRequestFactoryBuilderCustomizer<?>> all = customizers.orderedStream().toList();
		LambdaSafe.callbacks(ClientHttpRequestFactoryBuilderCustomizer.class, all, builder)
			.invoke(customizer -> customized[0] = customizer.customize(customized[0]));
		return customized[0];
	}

	private static ClientHttpRequestFactoryBuilder<?> builderFor(ImperativeHttpClientsProperties.Factory factory) {
		return switch (factory) {
			case HTTP_COMPONENTS -> ClientHttpRequestFactoryBuilder.httpComponents();
			case JETTY -> ClientHttpRequestFactoryBuilder.jetty();
			case REACTOR -> ClientHttpRequestFactoryBuilder.reactor();
			case JDK -> ClientHttpRequestFactoryBuilder.jdk();
			case SIMPLE -> ClientHttpRequestFactoryBuilder.simple();
		};
	}

}
