package lab.app;

import org.springframework.test.context.TestPropertySource;

/**
 * The shared contract again, with the endpoint as a functional route ({@code lab.webflux.endpoint=functional}, what
 * the {@code tuned} tuning sets): the same answers, errors and concurrency as the annotated controller.
 */
@TestPropertySource(properties = "lab.webflux.endpoint=functional")
class FunctionalRouteTests extends AddressControllerTests {

}
