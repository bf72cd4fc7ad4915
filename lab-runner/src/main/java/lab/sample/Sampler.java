package lab.sample;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import lab.common.ContextSwitches;
import lab.common.JitThreads;
import lab.plan.DatabasePlacement;

/**
 * Once a second: scrapes {@code /actuator/prometheus} of each service, and reads the CPU time of each watched
 * process from {@code /proc/<pid>/stat} (the injector has no metrics endpoint). Each sample is appended to
 * {@code metrics.csv} as {@code epoch_ms,source,series,value} the moment it is taken, stamped with its own time.
 */
public final class Sampler implements AutoCloseable {

	private static final double TICKS_PER_SECOND = 100.0;

	private final PrintWriter csv;

	private final Map<String, String> endpoints = new ConcurrentHashMap<>();

	private final Map<String, Long> processes = new ConcurrentHashMap<>();

	private final Map<String, ContextSwitches> threads = new ConcurrentHashMap<>();

	private final Map<String, JitThreads> compilers = new ConcurrentHashMap<>();

	/** CPUs whose /proc/stat counters are sampled (source host), empty for none. */
	private volatile java.util.Set<Integer> cores = java.util.Set.of();

	private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofMillis(800)).build();

	private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
		Thread thread = new Thread(r, "lab-sampler");
		thread.setDaemon(true);
		return thread;
	});

	public Sampler(Path file) throws IOException {
		this.csv = new PrintWriter(Files.newBufferedWriter(file));
		this.csv.println("epoch_ms,source,series,value");
		this.ticker.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
	}

	public void watchEndpoint(String source, String baseUrl) {
		this.endpoints.put(source, baseUrl + "/actuator/prometheus");
	}

	/** Prometheus endpoints read for their connection pools' series alone ({@link Prometheus#selectPools}), by source. */
	private final Map<String, String> pools = new ConcurrentHashMap<>();

	/** {@code /proc/<pid>/status} read once a second for the resident set and the thread count, by source. */
	private final Map<String, Long> statuses = new ConcurrentHashMap<>();

	/** The {@code jstat} children reading a service's heap and GC, stopped on close. */
	private final java.util.List<ProcessWatch> watches = new java.util.concurrent.CopyOnWriteArrayList<>();

	/**
	 * A service of the user's own: its Prometheus text endpoint at {@code url} (Actuator's, say), read once a second for
	 * its connection pools' meters only: everything else the lab reads from outside.
	 */
	public void watchPools(String source, String url) {
		this.pools.put(source, url);
	}

	/**
	 * The resident set ({@code rss_bytes}) and the OS threads ({@code native_threads}) of {@code pid} from
	 * {@code /proc/<pid>/status} once a second: what the lab's own services report through their meters.
	 */
	public void watchStatus(String source, long pid) {
		this.statuses.put(source, pid);
	}

	/**
	 * The heap and GC of a JVM the lab did not build, from outside: {@code jstat -gc <pid> 1000} of the JDK it runs on,
	 * a child pinned to {@code cpus}, its lines kept in {@code file} and written as series as they come
	 * ({@link JstatWatch}).
	 */
	public void watchJstat(String source, Path javaHome, long pid, String cpus, Path file) throws IOException {
		this.watches.add(JstatWatch.start(javaHome, pid, cpus, file, (series, value) -> write(System.currentTimeMillis(), source, series, value)));
	}

	/**
	 * A PostgreSQL's activity and CPU once a second ({@link PostgresWatch}), through {@code psql} started by {@code psql}
	 * (pinned to {@code cpus}); and how busy the cores it runs on were ({@code cores_busy_seconds}, {@code cores_total_seconds}
	 * from /proc/stat) with where it was placed ({@code placed_service}, {@code placed_harness}: 1 or 0, both 0 unpinned).
	 */
	public void watchPostgres(String source, java.util.List<String> psql, long postmaster, String cpus, java.util.Set<Integer> cores, String placement)
			throws IOException {
		this.watches.add(PostgresWatch.start(psql, postmaster, cpus, (series, value) -> write(System.currentTimeMillis(), source, series, value)));
		this.databaseCores = java.util.Set.copyOf(cores);
		this.databaseSource = source;
		this.databasePlacement = placement;
	}

	private volatile java.util.Set<Integer> databaseCores = java.util.Set.of();

	private volatile String databaseSource;

	private volatile String databasePlacement;

	public void watchProcess(String source, long pid) {
		this.processes.put(source, pid);
	}

	/**
	 * Walks every thread of {@code pid} once a second for its context switches ({@code ctx_voluntary},
	 * {@code ctx_involuntary}): the services this runner starts skip that walk themselves, so the measured process
	 * does not pay for it (the platform variant has 200+ threads).
	 */
	public void watchThreads(String source, long pid) {
		this.threads.put(source, new ContextSwitches(Path.of("/proc/" + pid)));
		this.compilers.put(source, new JitThreads(Path.of("/proc/" + pid + "/task")));
	}

	/**
	 * Samples how busy these CPUs are, from /proc/stat: {@code host/cpu_busy_seconds} and {@code host/cpu_total_seconds}
	 * summed over them (everything that ran there, the kernel's network work included).
	 */
	public void watchCores(java.util.Set<Integer> cpus) {
		this.cores = java.util.Set.copyOf(cpus);
	}

	private volatile CoreStrangers strangers;

	private volatile PrintWriter slices;

	/**
	 * The process's CPU seconds every 100 ms into {@code file} ({@code epoch_ms,cpu_seconds}), on a thread of its own: a
	 * second's mean cannot tell a core busy half of every second from one saturated and idle by turns.
	 */
	public void watchSlices(long pid, Path file) throws IOException {
		PrintWriter writer = new PrintWriter(Files.newBufferedWriter(file));
		writer.println("epoch_ms,cpu_seconds");
		this.slices = writer;
		this.slicer.scheduleAtFixedRate(() -> {
			double seconds = cpuSeconds(pid);
			if (seconds >= 0) {
				synchronized (writer) {
					writer.println(System.currentTimeMillis() + "," + seconds);
				}
			}
		}, 0, 100, TimeUnit.MILLISECONDS);
	}

	private final ScheduledExecutorService slicer = Executors.newSingleThreadScheduledExecutor(r -> {
		Thread thread = new Thread(r, "lab-slices");
		thread.setDaemon(true);
		return thread;
	});

	/**
	 * Samples what other processes did on the service's cores ({@link CoreStrangers}): the series
	 * {@code service/strangers_cpu_seconds} and the rows of {@code file} naming them.
	 */
	public void watchStrangers(java.util.Set<Integer> serviceCores, long servicePid, long databasePid, Path file) throws IOException {
		if (!serviceCores.isEmpty()) {
			this.strangers = new CoreStrangers(serviceCores, servicePid, databasePid, file);
		}
	}

	private void sample() {
		this.endpoints.forEach((source, url) -> scrape(source, url, Prometheus::select));
		this.pools.forEach((source, url) -> scrape(source, url, Prometheus::selectPools));
		this.statuses.forEach((source, pid) -> {
			long[] rssAndThreads = status(pid);
			if (rssAndThreads != null) {
				long now = System.currentTimeMillis();
				write(now, source, "rss_bytes", rssAndThreads[0]);
				write(now, source, "native_threads", rssAndThreads[1]);
			}
		});
		this.processes.forEach((source, pid) -> {
			double seconds = cpuSeconds(pid);
			if (seconds >= 0) {
				write(System.currentTimeMillis(), source, "proc_cpu_seconds", seconds);
			}
			if (source.startsWith("injector")) {
				// The injector's threads' wait for a CPU: what could have delayed the moments it stamps on requests.
				long[] waitAndSlices = runQueue(pid);
				if (waitAndSlices != null) {
					long now = System.currentTimeMillis();
					write(now, source, "run_queue_wait_seconds", waitAndSlices[0] / 1e9);
					write(now, source, "sched_slices", waitAndSlices[1]);
				}
			}
		});
		this.threads.forEach((source, switches) -> {
			long[] counts = switches.read();
			long now = System.currentTimeMillis();
			write(now, source, "ctx_voluntary", counts[0]);
			write(now, source, "ctx_involuntary", counts[1]);
		});
		this.compilers.forEach((source, compilers) -> write(System.currentTimeMillis(), source, "jit_cpu_seconds", compilers.cpuSeconds()));
		List<String> procStat = (this.cores.isEmpty() && this.databaseCores.isEmpty()) ? List.of() : procStat();
		if (!this.cores.isEmpty()) {
			double[] busyAndTotal = coreSeconds(procStat, this.cores);
			if (busyAndTotal != null) {
				long now = System.currentTimeMillis();
				write(now, "host", "cpu_busy_seconds", busyAndTotal[0]);
				write(now, "host", "cpu_total_seconds", busyAndTotal[1]);
			}
		}
		if (!this.databaseCores.isEmpty()) {
			double[] busyAndTotal = coreSeconds(procStat, this.databaseCores);
			if (busyAndTotal != null) {
				long now = System.currentTimeMillis();
				write(now, this.databaseSource, "cores_busy_seconds", busyAndTotal[0]);
				write(now, this.databaseSource, "cores_total_seconds", busyAndTotal[1]);
				write(now, this.databaseSource, "placed_service", DatabasePlacement.SERVICE.equals(this.databasePlacement) ? 1 : 0);
				write(now, this.databaseSource, "placed_harness", DatabasePlacement.HARNESS.equals(this.databasePlacement) ? 1 : 0);
			}
		}
		CoreStrangers others = this.strangers;
		if (others != null) {
			long now = System.currentTimeMillis();
			write(now, "service", "strangers_cpu_seconds", others.look(now));
		}
		synchronized (this.csv) {
			this.csv.flush();
		}
		PrintWriter slicesWriter = this.slices;
		if (slicesWriter != null) {
			synchronized (slicesWriter) {
				slicesWriter.flush();
			}
		}
	}

	/**
	 * Busy and total seconds of the given CPUs from /proc/stat ({@code cpuN user nice system idle iowait irq softirq
	 * steal ...} in ticks; idle and iowait are not busy; guest time is already inside user), or null when unreadable.
	 */
	static double[] coreSeconds(java.util.Set<Integer> cpus) {
		return coreSeconds(procStat(), cpus);
	}

	/** /proc/stat's lines, read once for every set of cores a second samples; empty when it cannot be read. */
	private static List<String> procStat() {
		try {
			return Files.readAllLines(Path.of("/proc/stat"));
		}
		catch (IOException ex) {
			return List.of();
		}
	}

	/** Busy and total CPU seconds of {@code cpus} in {@code procStat}'s lines; null without them. */
	static double[] coreSeconds(List<String> procStat, java.util.Set<Integer> cpus) {
		try {
			double busy = 0;
			double total = 0;
			for (String line : procStat) {
				if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
					continue;
				}
				String[] f = line.trim().split("\\s+");
				if (!cpus.contains(Integer.parseInt(f[0].substring(3)))) {
					continue;
				}
				long[] ticks = new long[Math.min(8, f.length - 1)];
				for (int i = 0; i < ticks.length; i++) {
					ticks[i] = Long.parseLong(f[i + 1]);
				}
				long all = 0;
				for (long t : ticks) {
					all += t;
				}
				long idle = ticks[3] + ((ticks.length > 4) ? ticks[4] : 0);
				busy += (all - idle) / TICKS_PER_SECOND;
				total += all / TICKS_PER_SECOND;
			}
			return (total > 0) ? new double[] { busy, total } : null;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/** Per injector PID: each thread's last schedstat counts, and the totals so far (only ever rising). */
	private final Map<Long, Map<String, long[]>> runQueueSeen = new ConcurrentHashMap<>();

	private final Map<Long, long[]> runQueueTotals = new ConcurrentHashMap<>();

	/**
	 * The process's threads' time runnable but waiting for a CPU (ns) and their time slices on one, summed as counters
	 * that only rise ({@code /proc/<pid>/task/<tid>/schedstat}: each thread's rise since the last look; a thread first
	 * seen counts whole, one that ended keeps what it added); null when the process is gone.
	 */
	long[] runQueue(long pid) {
		Map<String, long[]> seen = this.runQueueSeen.computeIfAbsent(pid, p -> new java.util.HashMap<>());
		long[] totals = this.runQueueTotals.computeIfAbsent(pid, p -> new long[2]);
		try {
			ThreadSchedstat.eachThread(pid, (task, stat) -> {
				long[] before = seen.getOrDefault(task.getFileName().toString(), new long[3]);
				totals[0] += Math.max(0, stat[1] - before[1]);
				totals[1] += Math.max(0, stat[2] - before[2]);
				seen.put(task.getFileName().toString(), stat);
			});
		}
		catch (IOException ex) {
			return null;
		}
		return totals.clone();
	}

	private void write(long epochMs, String source, String series, double value) {
		synchronized (this.csv) {
			this.csv.println(epochMs + "," + source + "," + series + "," + value);
		}
	}

	/** One Prometheus scrape of {@code url}, the series {@code select} keeps written under {@code source}. */
	private void scrape(String source, String url, java.util.function.Function<String, Map<String, Double>> select) {
		try {
			HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(900)).build();
			HttpResponse<String> response = this.client.send(request, HttpResponse.BodyHandlers.ofString());
			long now = System.currentTimeMillis();
			if (response.statusCode() == 200) {
				select.apply(response.body()).forEach((series, value) -> write(now, source, series, value));
			}
		}
		catch (IOException ex) {
			// a missed sample: the analysis works on the samples that exist, by their timestamps
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/** {@code VmRSS} in bytes and {@code Threads} of {@code /proc/<pid>/status}, or null when it is gone. */
	static long[] status(long pid) {
		try {
			long rss = -1;
			long threads = -1;
			for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
				if (line.startsWith("VmRSS:")) {
					rss = Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
				}
				else if (line.startsWith("Threads:")) {
					threads = Long.parseLong(line.replaceAll("[^0-9]", ""));
				}
			}
			return (rss >= 0 && threads >= 0) ? new long[] { rss, threads } : null;
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	/** utime + stime of a process (fields 14 and 15 of /proc/<pid>/stat), or -1 when it is gone. */
	static double cpuSeconds(long pid) {
		return JitThreads.statCpuSeconds(Path.of("/proc/" + pid + "/stat"));
	}

	@Override
	public void close() {
		this.watches.forEach(ProcessWatch::close);
		this.ticker.shutdown();
		this.slicer.shutdown();
		try {
			this.ticker.awaitTermination(5, TimeUnit.SECONDS);
			this.slicer.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		PrintWriter writer = this.slices;
		if (writer != null) {
			synchronized (writer) {
				writer.close();
			}
		}
		synchronized (this.csv) {
			this.csv.close();
		}
		if (this.strangers != null) {
			this.strangers.close();
		}
		this.client.close();
	}

}
