package lab.downstream;

import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Requests waiting on their timer right now, and the peak since the last reset. The peak is the structural
 * evidence of a proxy's concurrency: a bounded pool can never push it above the pool size.
 */
final class InFlight {

	private final AtomicInteger current = new AtomicInteger();

	private final AtomicInteger peak = new AtomicInteger();

	InFlight(MeterRegistry registry) {
		Gauge.builder("downstream.inflight", this.current, AtomicInteger::get).register(registry);
		Gauge.builder("downstream.inflight.peak", this.peak, AtomicInteger::get).register(registry);
	}

	void enter() {
		int now = this.current.incrementAndGet();
		if (now > this.peak.get()) {
			this.peak.accumulateAndGet(now, Math::max);
		}
	}

	void leave() {
		this.current.decrementAndGet();
	}

	/** {@code {"current":N,"peak":M}} */
	String json() {
		return "{\"current\":" + this.current.get() + ",\"peak\":" + this.peak.get() + "}";
	}

	/** Starts a new observation: the peak restarts from what is in flight now. */
	String reset() {
		this.peak.set(this.current.get());
		return json();
	}

}
