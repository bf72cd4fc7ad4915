package lab.analyse.evidence;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import jdk.jfr.Recording;
import lab.load.LoadWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pinning grouped by the frame that pinned, on a recording made here: a virtual thread that sleeps inside a class
 * initialiser pins its carrier on every JDK, 21 and 25 alike (JEP 491 unpinned monitors, not initialisers).
 */
class PinnedSiteTests {

	@TempDir
	Path dir;

	@Test
	void aRecordingWithNoPinnedEventsCountsZeroNotUnknown() throws Exception {
		// A level recorded with JFR where nothing pinned: the count is 0 (a service without micrometer-java21's meter
		// showed "-" before), while a level without a recording has nothing to count from.
		Path file = this.dir.resolve("quiet.jfr");
		try (Recording recording = new Recording()) {
			recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ofMillis(1)).withStackTrace();
			recording.start();
			Thread.ofVirtual().start(() -> { }).join();
			recording.stop();
			recording.dump(file);
		}
		assertThat(PinnedSite.recorded(file)).isTrue();
		assertThat(PinnedSite.read(file, null).stream().mapToLong(PinnedSite::events).sum()).isZero();
		assertThat(PinnedSite.recorded(this.dir.resolve("none.jfr"))).isFalse();
	}

	@Test
	void eventsAreGroupedByTheTopmostFrameOutsideTheJdk() throws Exception {
		Path file = this.dir.resolve("pinned.jfr");
		long before = System.currentTimeMillis();
		try (Recording recording = new Recording()) {
			recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ofMillis(1)).withStackTrace();
			recording.start();
			// Each of two virtual threads initialises a class whose initialiser sleeps.
			Thread.ofVirtual().start(() -> touch(SlowToInitialise.VALUE)).join();
			Thread.ofVirtual().start(() -> touch(AlsoSlowToInitialise.VALUE)).join();
			recording.stop();
			recording.dump(file);
		}
		long after = System.currentTimeMillis();

		List<PinnedSite> sites = PinnedSite.read(file, null);
		// Each initialiser slept once, 30 and 20 ms, its thread pinned: the longer first.
		assertThat(sites).extracting(PinnedSite::frame).containsExactly(SlowToInitialise.class.getName() + ".<clinit>",
				AlsoSlowToInitialise.class.getName() + ".<clinit>");
		PinnedSite site = sites.get(0);
		assertThat(site.library()).isEqualTo("lab.analyse.evidence");
		assertThat(site.events()).isEqualTo(1);
		assertThat(site.totalMs()).isBetween(29.0, 1000.0);
		assertThat(site.maxMs()).isEqualTo(site.totalMs());
		assertThat(PinnedSite.totalMs(sites)).isBetween(49.0, 2000.0);
		// Only the window's events count: a window that ended before the recording began holds none.
		assertThat(PinnedSite.read(file, new LoadWindow(before - 20_000, before - 10_000, before - 1))).isEmpty();
		assertThat(PinnedSite.read(file, new LoadWindow(before, before, after))).isEqualTo(sites);
		// Repeats add up by frame.
		List<PinnedSite> merged = PinnedSite.merge(List.of(sites, sites));
		assertThat(merged).hasSize(2);
		assertThat(merged.get(0).events()).isEqualTo(2);
		assertThat(merged.get(0).totalMs()).isEqualTo(2 * site.totalMs());
		assertThat(PinnedSite.read(this.dir.resolve("none.jfr"), null)).isEmpty();
	}

	@Test
	void aFramesLibraryIsItsPackagesFirstThreeNames() {
		assertThat(PinnedSite.library("org.apache.hc.core5.pool.StrictConnPool.lease")).isEqualTo("org.apache.hc");
		assertThat(PinnedSite.library("ch.qos.logback.core.OutputStreamAppender.writeBytes")).isEqualTo("ch.qos.logback");
		assertThat(PinnedSite.library("Main.run")).isEmpty();
	}

	private static void touch(Object value) {
		assertThat(value).isNotNull();
	}

	// The initialisers sleep themselves: the topmost frame outside the JDK is <clinit>.
	static final class SlowToInitialise {

		static final Object VALUE = new Object();

		static {
			try {
				Thread.sleep(30);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	static final class AlsoSlowToInitialise {

		static final Object VALUE = new Object();

		static {
			try {
				Thread.sleep(20);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
