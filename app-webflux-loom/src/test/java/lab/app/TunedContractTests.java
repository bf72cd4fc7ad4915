package lab.app;

import org.springframework.test.context.TestPropertySource;

/**
 * The shared contract again, under the settings the {@code tuned} tuning gives this variant: the endpoint as a
 * functional route ({@code lab.webflux.endpoint=functional}), virtual threads started straight from
 * {@code Thread.ofVirtual()} ({@code lab.webflux.virtual-threads=thread-builder}), and the Apache client's small
 * buffers without its redirect and compression stages. The same answers, errors and concurrency as the defaults.
 */
@TestPropertySource(properties = { "lab.webflux.endpoint=functional", "lab.webflux.virtual-threads=thread-builder",
		"lab.downstream.buffer-size=256B", "spring.http.clients.redirects=dont-follow", "lab.downstream.content-compression=false" })
class FunctionalRouteTests extends AddressControllerTests {

}
