package lab.app;

import lab.common.DownstreamProperties;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.web.client.RestClient;

@SpringBootApplication
public class AddressApplication {

	public static void main(String[] args) {
		SpringApplication.run(AddressApplication.class, args);
	}

	/** Blocking client, the same on every blocking variant: Spring Boot's builder, configured in service-common. */
	@Bean
	RestClient downstream(RestClient.Builder builder, DownstreamProperties properties) {
		return builder.baseUrl(properties.baseUrl()).build();
	}

}
