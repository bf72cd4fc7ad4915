package lab.downstream;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import lab.common.BadParameterException;
import lab.common.DelayMs;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;

/**
 * Answers after a non-blocking timer: a waiting request holds no thread, so 10k+ of them cost only memory and
 * the downstream never becomes the bottleneck of the proxy under test.
 */
@RestController
class AddressController {

	/** Optional padding for payload-size experiments; bounded so a typo cannot exhaust the heap. */
	static final int MAX_PAD_BYTES = 1_048_576;

	private final InFlight inFlight;

	private final Timer overhead;

	private final EventLoopTimers timers;

	/**
	 * Test-only fault ({@code lab.fault.hang-every=N}, 0 = off): every Nth request is never answered, so the fault
	 * suite can check that the lab counts requests left hanging as errors, not as nothing.
	 */
	private final long hangEvery;

	private final AtomicLong requests = new AtomicLong();

	AddressController(InFlight inFlight, EventLoopTimers timers, MeterRegistry registry,
			@Value("${lab.fault.hang-every:0}") long hangEvery) {
		this.inFlight = inFlight;
		this.hangEvery = hangEvery;
		this.timers = timers;
		// How late the answer is beyond the requested delay: the lab's check that the downstream is never the
		// bottleneck. Its own histogram, because http.server.requests buckets near 500 ms are ~90 ms wide.
		this.overhead = Timer.builder("downstream.overhead")
			.description("Time beyond the requested delay until the answer is emitted")
			.publishPercentileHistogram()
			.maximumExpectedValue(Duration.ofSeconds(10))
			.register(registry);
	}

	@GetMapping(path = "/address/{delayMs}", produces = MediaType.APPLICATION_JSON_VALUE)
	Mono<Address> address(@PathVariable String delayMs, @RequestParam(defaultValue = "0") String padBytes,
			ServerWebExchange exchange) {
		long delay = DelayMs.parse(delayMs);
		int pad = padBytes(padBytes);
		long start = System.nanoTime();
		// The runner's probe (header X-Lab-Probe) is exempt: the fault is the service's to suffer, not the harness's.
		if (this.hangEvery > 0 && !exchange.getRequest().getHeaders().containsHeader("X-Lab-Probe")
				&& this.requests.incrementAndGet() % this.hangEvery == 0) {
			return Mono.never();
		}
		return Mono.fromSupplier(() -> new Address("1 Loom Street", "Springfield", "00042", delay, "x".repeat(pad)))
			.delayElement(Duration.ofMillis(delay), this.timers.of(exchange))
			.doOnSubscribe(subscription -> this.inFlight.enter())
			.doOnNext(address -> this.overhead.record(Math.max(0, System.nanoTime() - start - delay * 1_000_000), TimeUnit.NANOSECONDS))
			.doFinally(signal -> this.inFlight.leave());
	}

	private static int padBytes(String raw) {
		try {
			int pad = Integer.parseInt(raw);
			if (pad >= 0 && pad <= MAX_PAD_BYTES) {
				return pad;
			}
		}
		catch (NumberFormatException ex) {
			// reported below
		}
		throw new BadParameterException("padBytes must be an integer between 0 and " + MAX_PAD_BYTES + ", got '" + raw + "'");
	}

	record Address(String street, String city, String zip, long delayMs, String padding) {
	}

}
