package lab.app;

import lab.common.DelayMs;
import lab.common.RequestWork;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Non-blocking end to end: the handler returns at once with a Mono, the event loop serves other requests, and the
 * downstream's answer completes the response on the same event loop, which also does the request's work
 * ({@link RequestWork}): an event loop has no other thread to give it to. The default form
 * ({@code lab.webflux.endpoint=annotated}); {@link AddressRoute} is the same endpoint as a functional route.
 */
@RestController
@ConditionalOnProperty(name = "lab.webflux.endpoint", havingValue = "annotated", matchIfMissing = true)
class AddressController {

	private final WebClient downstream;

	AddressController(WebClient downstream) {
		this.downstream = downstream;
	}

	@GetMapping(path = "/address/{delayMs}", produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<String> address(@PathVariable String delayMs, @RequestParam(required = false) String work,
			@RequestParam(required = false) String bytes) {
		long delay = DelayMs.parse(delayMs);
		RequestWork asked = RequestWork.parse(work, bytes);
		return this.downstream.get().uri("/address/{delayMs}", delay).retrieve().bodyToMono(String.class).map(asked::answer);
	}

}
