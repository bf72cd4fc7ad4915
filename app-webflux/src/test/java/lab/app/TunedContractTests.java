package lab.app;

import lab.common.TunedProperties;

import org.junit.jupiter.api.Tag;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The shared contract again, under the properties the lab's {@code tuned} tuning gives this variant, read from
 * {@code tuned.yml} itself (the endpoint as a functional route, no redirects followed): the same answers, errors and
 * concurrency as under the defaults.
 */
@Tag("slow") // not in ./lab test --fast: starts services or runs load
class TunedContractTests extends AddressControllerTests {

	@DynamicPropertySource
	static void tuned(DynamicPropertyRegistry registry) {
		TunedProperties.register(registry, "app-webflux");
	}

	/** The tuned properties change buffers, not timeouts: the 504 is the defaults' class's. */
	@Override
	protected boolean checksTheResponseTimeout() {
		return false;
	}

}
