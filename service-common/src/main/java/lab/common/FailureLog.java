package lab.common;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts every failure ({@code lab.failures{kind}}) but logs at most one line per kind per interval: at 10k users
 * a dead downstream would otherwise write 20k lines a second and the logging would become the experiment.
 */
public class FailureLog {

	private static final Logger logger = LoggerFactory.getLogger(FailureLog.class);

	private static final long INTERVAL_NANOS = 10_000_000_000L;

	private final MeterRegistry registry;

	private final Map<String, AtomicLong> lastLogged = new ConcurrentHashMap<>();

	private final Map<String, AtomicLong> suppressed = new ConcurrentHashMap<>();

	public FailureLog(MeterRegistry registry) {
		this.registry = registry;
	}

	public void record(String kind, Throwable failure) {
		this.registry.counter("lab.failures", "kind", kind).increment();
		long now = System.nanoTime();
		AtomicLong last = this.lastLogged.computeIfAbsent(kind, k -> new AtomicLong(now - INTERVAL_NANOS));
		AtomicLong skipped = this.suppressed.computeIfAbsent(kind, k -> new AtomicLong());
		long previous = last.get();
		if (now - previous >= INTERVAL_NANOS && last.compareAndSet(previous, now)) {
			logger.warn("{}: {} ({} more of this kind in the last interval, see lab_failures_total)", kind,
					summary(failure), skipped.getAndSet(0));
		}
		else {
			skipped.incrementAndGet();
		}
	}

	static String summary(Throwable failure) {
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = root.getClass().getSimpleName() + ((root.getMessage() != null) ? ": " + root.getMessage() : "");
		return (message.length() > 200) ? message.substring(0, 200) + "..." : message;
	}

}
