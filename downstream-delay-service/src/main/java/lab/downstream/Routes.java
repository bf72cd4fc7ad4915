package lab.downstream;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import lab.common.BadParameterException;

/** What every connection shares: the meters, the in-flight count, the scrape thread and the test fault's counter. */
final class Routes {

	/** Optional padding for payload-size experiments; bounded so a typo cannot exhaust the heap. */
	static final int MAX_PAD_BYTES = 1_048_576;

	final InFlight inFlight;

	final Timer overhead;

	final PrometheusMeterRegistry registry;

	final ExecutorService scrapes;

	private final long hangEvery;

	private final AtomicLong requests = new AtomicLong();

	Routes(InFlight inFlight, Timer overhead, PrometheusMeterRegistry registry, ExecutorService scrapes, long hangEvery) {
		this.inFlight = inFlight;
		this.overhead = overhead;
		this.registry = registry;
		this.scrapes = scrapes;
		this.hangEvery = hangEvery;
	}

	/**
	 * Whether the test fault leaves this request unanswered. The runner's probe (header {@code X-Lab-Probe}) is
	 * exempt: the fault is the service's to suffer, not the harness's.
	 */
	boolean hang(boolean probe) {
		return this.hangEvery > 0 && !probe && this.requests.incrementAndGet() % this.hangEvery == 0;
	}

	static int padBytes(String raw) {
		if (raw == null) {
			return 0;
		}
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

}
