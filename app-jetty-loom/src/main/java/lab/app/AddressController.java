package lab.app;

import lab.common.DelayMs;
import lab.common.RequestWork;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.client.RestClient;

/**
 * Blocking code, one request per virtual thread (spring.threads.virtual.enabled in application.yml): while the
 * downstream answers, the virtual thread unmounts and its carrier serves other requests.
 * The request's work ({@link RequestWork}) runs on the same virtual thread, mounted on a carrier.
 */
@RestController
class AddressController {

	private final RestClient downstream;

	AddressController(RestClient downstream) {
		this.downstream = downstream;
	}

	@GetMapping(path = "/address/{delayMs}", produces = MediaType.APPLICATION_JSON_VALUE)
	String address(@PathVariable String delayMs, @RequestParam(required = false) String work,
			@RequestParam(required = false) String bytes) {
		long delay = DelayMs.parse(delayMs);
		RequestWork asked = RequestWork.parse(work, bytes);
		return asked.answer(this.downstream.get().uri("/address/{delayMs}", delay).retrieve().body(String.class));
	}

}
