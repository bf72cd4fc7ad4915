package lab.micro;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every experiment at tiny sizes: it runs and its measurements are sane, not fast. */
@Tag("slow") // not in ./lab test --fast: starts services or runs load
class ExperimentsTests {

	static final Sizes TINY = Sizes.tiny();

	static double number(String figure) {
		return Double.parseDouble(figure.replace(",", "").split(" ")[0]);
	}

	@Test
	void sleepingOnVirtualThreadsNeedsFewNativeThreads() throws Exception {
		Table table = Experiments.sleep(TINY);
		double cachedThreads = number(table.row("peak native threads, cached pool").here());
		double virtualThreads = number(table.row("peak native threads, virtual").here());
		assertThat(cachedThreads).as("a cached pool makes a thread per waiting task").isGreaterThan(TINY.sleepTasks() / 2.0);
		assertThat(virtualThreads).as("virtual threads stay near the carriers plus the JVM's own").isLessThan(100);
		assertThat(number(table.row("wall time, virtual").here())).isGreaterThanOrEqualTo(1_000);
	}

	@Test
	void waitingIsCheapOnVirtualThreadsAndWorkIsNot() throws Exception {
		Table table = Experiments.waiting(TINY);
		double pool = number(table.row("10,000 × 100 ms sleep, fixed pool of 200").here());
		double virtual = number(table.row("10,000 × 100 ms sleep, virtual").here());
		assertThat(virtual).isLessThan(pool).isGreaterThanOrEqualTo(100);
		assertThat(number(table.row("48 prime counts, virtual").here())).isPositive();
	}

	@Test
	void theSemaphoreBoundsConcurrencyAndThreadLocalsAreNotAPool() throws Exception {
		Table table = Experiments.semaphore(TINY);
		assertThat(table.row("peak calls in flight to the bounded dependency").here()).isEqualTo("20");
		assertThat(table.row("ThreadLocal initialisations, fixed pool of 10").here()).isEqualTo("10");
		assertThat(table.row("ThreadLocal initialisations, virtual").here()).isEqualTo("1,000");
	}

	@Test
	void theStructuredScopeCancelsTheSibling() throws Exception {
		Table table = Experiments.structured(TINY);
		assertThat(table.row("sibling cancelled (interrupted)").here()).isEqualTo("yes");
		assertThat(table.row("outcome").here()).isEqualTo("failed: user service down");
		assertThat(number(table.row("time until the scope returns").here())).isBetween(100.0, 900.0);
	}

	@Test
	void aNativeFrameStillPinsAndSynchronizedNoLongerDoes() throws Exception {
		Table table = Experiments.pinning(TINY, null);
		assertThat(number(table.row("blocking inside a native frame (FFM upcall from qsort)").here())).isGreaterThanOrEqualTo(1);
		if (Runtime.version().feature() >= 24) {
			assertThat(table.row("blocking in synchronized, JDK " + Runtime.version().feature()).here()).isEqualTo("0 events");
		}
	}

	@Test
	void theOtherExperimentsRunAndMeasure() throws Exception {
		Table tasks = Experiments.tasks(TINY);
		assertThat(number(tasks.row("wall time, virtual").here())).isGreaterThanOrEqualTo(1_000);
		Table ceiling = Experiments.ceiling(TINY);
		assertThat(ceiling.row("threads created, platform / virtual").here()).isEqualTo("100 / 2,000");
		Table dispatch = Experiments.dispatch(TINY);
		assertThat(number(dispatch.row("virtual thread per event").here())).isGreaterThanOrEqualTo(299);
		assertThat(ProcessStats.usage().userMicros()).isPositive();
	}

}
