package lab.app;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.reactive.function.server.RouterFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared contract again, with the endpoint as a functional route ({@code lab.webflux.endpoint=functional}, what
 * the {@code tuned} tuning sets): the same answers, errors and concurrency as the annotated controller.
 */
@TestPropertySource(properties = "lab.webflux.endpoint=functional")
class FunctionalRouteTests extends AddressControllerTests {

	@Autowired
	ApplicationContext context;

	@Test
	void servesThroughTheRouteNotTheController() {
		assertThat(this.context.getBeansOfType(AddressController.class)).isEmpty();
		assertThat(this.context.getBeansOfType(RouterFunction.class)).containsKey("address");
	}

}
