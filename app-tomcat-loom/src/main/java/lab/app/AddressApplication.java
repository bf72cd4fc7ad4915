package lab.app;

import lab.common.BlockingClients;
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

	/** Blocking client, shared with the other blocking variants: pool, timeouts and implementation from lab.downstream. */
	@Bean
	RestClient downstream(RestClient.Builder builder, DownstreamProperties properties) {
		return BlockingClients.restClient(builder, properties);
	}

}
