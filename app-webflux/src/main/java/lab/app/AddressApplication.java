package lab.app;

import lab.common.DownstreamProperties;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.reactive.function.client.WebClient;

@SpringBootApplication
public class AddressApplication {

	public static void main(String[] args) {
		SpringApplication.run(AddressApplication.class, args);
	}

	/**
	 * Non-blocking client: Spring Boot's builder with its connector, timeouts and pool configured in service-common,
	 * the same timeouts and pool ceiling as the blocking variants.
	 */
	@Bean
	WebClient downstream(WebClient.Builder builder, DownstreamProperties properties) {
		return builder.baseUrl(properties.baseUrl()).build();
	}

}
