package lab.common;

import java.time.Duration;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import jdk.jfr.Recording;

/**
 * Lowers the JFR threshold of {@code jdk.VirtualThreadPinned} to {@code lab.pinned-threshold} (1 ms by default).
 * micrometer-java21 counts pinned virtual threads from its own JFR stream at a fixed 20 ms threshold, so shorter
 * pins read as 0. JFR emits an event when any running recording asks for it, and every stream sees it: this
 * in-memory recording (nothing is written to disk, events kept 10 s) makes micrometer's
 * {@code jvm.threads.virtual.pinned} count every pin of at least the threshold. The threshold in force is
 * published as {@code lab.pinned.threshold} (seconds) so the runner and a scrape can read it back.
 */
public class PinnedEventThreshold implements MeterBinder, AutoCloseable {

	static final String PINNED_EVENT = "jdk.VirtualThreadPinned";

	private final Duration threshold;

	private final Recording recording;

	public PinnedEventThreshold(Duration threshold) {
		if (threshold.isNegative()) {
			throw new IllegalArgumentException("lab.pinned-threshold must be 0 or more, got " + threshold);
		}
		this.threshold = threshold;
		this.recording = new Recording();
		this.recording.setName("lab pinned threshold");
		this.recording.enable(PINNED_EVENT).withThreshold(threshold);
		this.recording.setToDisk(false);
		this.recording.setMaxAge(Duration.ofSeconds(10));
		this.recording.start();
	}

	public Duration threshold() {
		return this.threshold;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("lab.pinned.threshold", this, (self) -> self.threshold.toNanos() / 1e9)
			.description("JFR threshold of jdk.VirtualThreadPinned: pins shorter than this are not counted")
			.baseUnit("seconds")
			.register(registry);
	}

	@Override
	public void close() {
		this.recording.close();
	}

}
