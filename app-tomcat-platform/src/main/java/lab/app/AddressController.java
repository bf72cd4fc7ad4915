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
 * Blocking code, one request per platform thread of Tomcat's bounded pool (server.tomcat.threads.max): while the
 * downstream answers, the thread waits and serves nobody else.
 * The request's work ({@link RequestWork}) runs on the same pool thread.
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
