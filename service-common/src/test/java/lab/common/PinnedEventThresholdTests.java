package lab.common;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.java21.instrument.binder.jdk.VirtualThreadMetrics;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A virtual thread that sleeps 5 ms inside a class initializer pins its carrier (JDK 24+ still pins there). With
 * micrometer's own 20 ms threshold that pin is not counted; with the lab's 1 ms recording running it is.
 */
class PinnedEventThresholdTests {

	@Test
	void aFiveMillisecondPinIsCountedOnlyWithTheLowerThreshold() throws Exception {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		try (VirtualThreadMetrics micrometer = new VirtualThreadMetrics()) {
			micrometer.bindTo(registry);
			Thread.ofVirtual().start(PinsWhileInitialising::touch).join();
			Thread.sleep(1500); // micrometer's stream flushes about once a second
			assertThat(registry.get("jvm.threads.virtual.pinned").timer().count()).as("20 ms threshold").isZero();
			try (PinnedEventThreshold lower = new PinnedEventThreshold(Duration.ofMillis(1))) {
				lower.bindTo(registry);
				Thread.ofVirtual().start(AlsoPinsWhileInitialising::touch).join();
				long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
				while (registry.get("jvm.threads.virtual.pinned").timer().count() == 0 && System.nanoTime() < deadline) {
					Thread.sleep(100);
				}
				assertThat(registry.get("jvm.threads.virtual.pinned").timer().count()).as("1 ms threshold").isEqualTo(1);
				assertThat(registry.get("lab.pinned.threshold").gauge().value()).isEqualTo(0.001);
			}
		}
	}

	@Test
	void refusesANegativeThreshold() {
		assertThatIllegalArgumentException().isThrownBy(() -> new PinnedEventThreshold(Duration.ofMillis(-1)))
			.withMessageContaining("lab.pinned-threshold");
	}

	static class PinsWhileInitialising {

		static {
			sleep(5);
		}

		static void touch() {
		}

	}

	static class AlsoPinsWhileInitialising {

		static {
			sleep(5);
		}

		static void touch() {
		}

	}

	static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
