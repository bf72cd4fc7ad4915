package lab.app;

import io.netty.channel.ChannelOption;
import lab.common.DownstreamProperties;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;

@SpringBootApplication
public class AddressApplication {

	public static void main(String[] args) {
		SpringApplication.run(AddressApplication.class, args);
	}

	/**
	 * Non-blocking client with the same timeouts and pool ceiling as the blocking variants. Reactor Netty's default
	 * pool (500 connections, 1,000 pending) would cap a 500 ms downstream near 1,000 rps and queue the rest silently.
	 */
	@Bean
	WebClient downstream(WebClient.Builder builder, DownstreamProperties properties) {
		ConnectionProvider pool = ConnectionProvider.builder("downstream")
			.maxConnections(properties.maxConnections())
			.pendingAcquireMaxCount(-1)
			.metrics(true)
			.build();
		HttpClient client = HttpClient.create(pool)
			.option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) properties.connectTimeout().toMillis())
			.responseTimeout(properties.responseTimeout());
		return builder.baseUrl(properties.baseUrl()).clientConnector(new ReactorClientHttpConnector(client)).build();
	}

}
