package lab.analyse.evidence;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import jdk.jfr.Recording;
import lab.load.LoadWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** Threads blocked entering a monitor, read from a JFR recording of this JVM in which two threads fight over one lock. */
class ContentionTests {

	@TempDir
	Path dir;

	@Test
	void blockedThreadsAreTheMonitorEnterDurationsOverTheWindow() throws Exception {
		Object lock = new Object();
		Path file = this.dir.resolve("steady.jfr");
		long start;
		long end;
		try (Recording recording = new Recording()) {
			recording.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ofMillis(10));
			recording.start();
			start = System.currentTimeMillis();
			CountDownLatch held = new CountDownLatch(1);
			Thread holder = Thread.ofPlatform().start(() -> {
				synchronized (lock) {
					held.countDown();
					sleep(300);
				}
			});
			held.await();
			// Blocked about 300 ms entering the monitor the holder keeps.
			Thread waiter = Thread.ofPlatform().start(() -> {
				synchronized (lock) {
					lock.hashCode();
				}
			});
			holder.join();
			waiter.join();
			end = System.currentTimeMillis();
			recording.stop();
			recording.dump(file);
		}
		Contention contention = Contention.read(file, new LoadWindow(start, start, start + 1000));
		assertThat(contention.events()).isEqualTo(1);
		// About 300 ms blocked over a 1,000 ms window: 0.3 threads on average.
		assertThat(contention.blockedThreads()).isBetween(0.2, 0.4);
		assertThat(end).isGreaterThan(start);
		assertThat(Contention.read(this.dir.resolve("none.jfr"), new LoadWindow(start, start, end))).isEqualTo(Contention.NONE);
		assertThat(Contention.read(file, new LoadWindow(0, 0, 1000))).as("outside the window").satisfies(c -> assertThat(c.events()).isZero());
	}

	private static void sleep(long ms) {
		try {
			Thread.sleep(ms);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
