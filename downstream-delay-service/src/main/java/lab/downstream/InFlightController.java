package lab.downstream;

import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** Lets tests and the runner read and restart the in-flight peak around one experiment. */
@RestController
class InFlightController {

	private final InFlight inFlight;

	InFlightController(InFlight inFlight) {
		this.inFlight = inFlight;
	}

	@GetMapping("/inflight")
	InFlight.Snapshot inFlight() {
		return this.inFlight.snapshot();
	}

	@DeleteMapping("/inflight")
	InFlight.Snapshot reset() {
		return this.inFlight.reset();
	}

}
