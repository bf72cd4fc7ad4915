package lab.app;

import lab.common.DelayMs;
import lab.common.RequestWork;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * Blocking code inside WebFlux: the blocking call runs on a virtual thread of the one shared scheduler, wrapped in
 * a Mono, so the event loop never blocks and the waiting costs a parked virtual thread; the request's work
 * ({@link RequestWork}) runs on that virtual thread too. The default form
 * ({@code lab.webflux.endpoint=annotated}); {@link AddressRoute} is the same endpoint as a functional route.
 */
@RestController
@ConditionalOnProperty(name = "lab.webflux.endpoint", havingValue = "annotated", matchIfMissing = true)
class AddressController {

	private final RestClient downstream;

	private final Scheduler virtualThreads;

	AddressController(RestClient downstream, Scheduler virtualThreads) {
		this.downstream = downstream;
		this.virtualThreads = virtualThreads;
	}

	@GetMapping(path = "/address/{delayMs}", produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<String> address(@PathVariable String delayMs, @RequestParam(required = false) String work,
			@RequestParam(required = false) String bytes) {
		long delay = DelayMs.parse(delayMs);
		RequestWork asked = RequestWork.parse(work, bytes);
		return Mono.fromCallable(() -> asked.answer(this.downstream.get().uri("/address/{delayMs}", delay).retrieve().body(String.class)))
			.subscribeOn(this.virtualThreads);
	}

}
