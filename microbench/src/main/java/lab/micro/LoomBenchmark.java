package lab.micro;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * One batch of short blocking tasks (each sleeps 1 ms) on three executors: the cost of creating and scheduling a
 * thread per task, platform or virtual, against reusing a pool.
 */
@State(Scope.Benchmark)
@BenchmarkMode({ Mode.Throughput, Mode.AverageTime })
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class LoomBenchmark {

	@Param("1000")
	int tasks;

	private ExecutorService pool;

	@Setup(Level.Trial)
	public void startPool() {
		this.pool = Executors.newFixedThreadPool(200);
	}

	@TearDown(Level.Trial)
	public void stopPool() {
		this.pool.close();
	}

	@Benchmark
	public void platformThreadPerTask() throws Exception {
		try (ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofPlatform().factory())) {
			submit(executor);
		}
	}

	@Benchmark
	public void platformThreadPool() throws Exception {
		var futures = new java.util.ArrayList<java.util.concurrent.Future<?>>(this.tasks);
		for (int i = 0; i < this.tasks; i++) {
			futures.add(this.pool.submit(LoomBenchmark::work));
		}
		for (var future : futures) {
			future.get();
		}
	}

	@Benchmark
	public void virtualThreadPerTask() throws Exception {
		try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
			submit(executor);
		}
	}

	private void submit(ExecutorService executor) {
		for (int i = 0; i < this.tasks; i++) {
			executor.submit(LoomBenchmark::work);
		}
	}

	static Object work() throws InterruptedException {
		Thread.sleep(1);
		return null;
	}

}
