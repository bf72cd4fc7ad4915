package lab.downstream;

import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * Requests waiting on their timer right now, and the peak since the last reset. The peak is the structural
 * evidence of a proxy's concurrency: a bounded pool can never push it above the pool size.
 */
@Component
class InFlight {

	private final AtomicInteger current = new AtomicInteger();

	private final AtomicInteger peak = new AtomicInteger();

	InFlight(MeterRegistry registry) {
		Gauge.builder("downstream.inflight", this.current, AtomicInteger::get).register(registry);
		Gauge.builder("downstream.inflight.peak", this.peak, AtomicInteger::get).register(registry);
	}

	void enter() {
		int now = this.current.incrementAndGet();
		this.peak.accumulateAndGet(now, Math::max);
	}

	void leave() {
		this.current.decrementAndGet();
	}

	Snapshot snapshot() {
		return new Snapshot(this.current.get(), this.peak.get());
	}

	/** Starts a new observation: the peak restarts from what is in flight now. */
	Snapshot reset() {
		this.peak.set(this.current.get());
		return snapshot();
	}

	record Snapshot(int current, int peak) {
	}

}
