package lab.analyse.measure;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import lab.analyse.evidence.Contention;
import lab.analyse.evidence.DumpCounts;
import lab.analyse.evidence.PinnedSite;
import lab.analyse.read.CounterDelta;
import lab.analyse.read.Database;
import lab.analyse.read.Halves;
import lab.analyse.read.InjectorWait;
import lab.analyse.read.Latency;
import lab.analyse.read.LevelFacts;
import lab.analyse.read.LevelFiles;
import lab.analyse.read.OffCpu;
import lab.analyse.read.Probes;
import lab.analyse.read.RequestCounts;
import lab.analyse.read.Samples;
import lab.analyse.read.Stall;
import lab.analyse.read.TimeSeries;
import lab.analyse.stat.Stats;
import lab.layout.LevelDir;
import lab.load.LoadFiles;
import lab.load.LoadWindow;

/**
 * One run of one level, computed from its raw files only: {@code level.json}, {@code metrics.csv} and the
 * injector's {@code load-window.csv}, {@code latency.hlog}, {@code requests.csv}, {@code cpu.csv}. Every series is
 * clipped to the steady window, counters are {@code last - first} (reset-aware), rates are per the real time
 * between samples; the window's two halves are compared ({@link Halves}). Several injectors ({@code injector-<n>/}) count as one: the window is the time all of them
 * were at full load, histograms are merged, counts summed. {@code sampled}: every declared {@link Metric}.
 */
public record Measurement(Path dir, LevelFacts facts, LoadWindow window, Latency latency, RequestCounts counts,
		double rps, double serviceCpuPercent, double cpuMsPerRequest, Map<Metric, Double> sampled,
		double injectorCpuPercent, double injectorCoresBusyPercent,
		double downstreamP99OverheadMs, Probes probes, Stall stall, WarmUpProfile warmup,
		List<InjectorShare> injectors, List<String> gatlingReports, Headroom headroom, Halves halves, List<PinnedSite> pinnedSites,
		Breakdown breakdown, OffCpu offCpu, List<RequestFigures> byRequest, Database database,
		Contention contention, DumpCounts threadDump, InjectorWait injectorWait) {

	/** The last seconds of a warm-up whose CPU per request is compared with the first level's. */
	static final int WARMUP_TAIL_SECONDS = 10;

	public static Measurement of(Path dir, Path resultsRoot) throws IOException {
		return of(LevelFiles.read(dir, resultsRoot));
	}

	/** A level's measurement with its facts given, not read from its level.json (the runner's, before it writes them). */
	public static Measurement of(Path dir, Path resultsRoot, LevelFacts facts) throws IOException {
		return of(LevelFiles.read(dir, resultsRoot, facts));
	}

	/** The level's figures from its files, read once ({@link LevelFiles}). */
	public static Measurement of(LevelFiles files) throws IOException {
		Path dir = files.dir();
		LevelFacts facts = files.facts();
		List<LevelFiles.Part> parts = files.parts();
		LoadWindow window = files.window();
		List<String> reports = files.gatlingReports();
		if (window == null) {
			return new Measurement(dir, facts, null, Latency.empty(), new RequestCounts(0, 0, 0, 0, 0, 0, 0), Double.NaN, Double.NaN,
					Double.NaN, Metric.unmeasured(), Double.NaN, Double.NaN, Double.NaN, Probes.NONE, new Stall(0, 0, 0), WarmUpProfile.NONE,
					List.of(), reports, Headroom.UNKNOWN, Halves.UNKNOWN, List.of(), Breakdown.NONE, OffCpu.NONE, List.of(), Database.NONE,
					Contention.NONE, DumpCounts.NONE, InjectorWait.NONE);
		}
		List<Latency> latencies = new ArrayList<>();
		List<RequestCounts> partCounts = new ArrayList<>();
		List<InjectorShare> shares = new ArrayList<>();
		for (LevelFiles.Part part : parts) {
			Latency latency = part.latency();
			RequestCounts counts = part.requests().in(window);
			latencies.add(latency);
			partCounts.add(counts);
			shares.add(new InjectorShare(dir.relativize(part.dir()).toString(), counts.total(), counts.errors(), latency.okMillis(99),
					100 * part.cpu().ratePerSecond(window), part.cpu().processors()));
		}
		Latency latency = Latency.merge(latencies);
		RequestCounts counts = RequestCounts.sum(partCounts);
		Samples samples = files.samples();
		double seconds = window.steadySeconds();
		double rps = latency.ok().getTotalCount() / seconds;
		double cpuPerSecond = serviceCpuPerSecond(samples, window);
		double requestsPerSecond = counts.total() / seconds;
		double downstream = CounterDelta.ratePerSecond(samples.series("downstream", "proc_cpu_seconds").clipTo(window));
		// Injectors on this machine are sampled from /proc (source injector or injector-<n>, like their directory)
		// and share its cores with the downstream; injectors on other hosts report their own CPU (cpu.csv) and are
		// judged against their own host's processors. The busiest cores decide.
		double injector = 0;
		double localInjectors = 0;
		double busy = Double.NaN;
		double harnessBusy = Double.NaN;
		boolean anyLocal = false;
		for (int i = 0; i < parts.size(); i++) {
			TimeSeries sampled = samples.series(parts.get(i).source(), "proc_cpu_seconds").clipTo(window);
			if (sampled.samples().size() >= 2) {
				double rate = CounterDelta.ratePerSecond(sampled);
				injector += rate;
				localInjectors += rate;
				anyLocal = true;
			}
			else {
				InjectorShare share = shares.get(i);
				injector += share.cpuPercent() / 100;
				busy = Stats.max(busy, share.cpuPercent() / Math.max(1, share.processors()));
			}
		}
		// A PostgreSQL the lab started belongs to the system under test: on the harness cores, its CPU is taken out of
		// theirs, so the injector and the runner are judged on what they used (its own figure is pgCpuPercent).
		Database database = Database.read(samples, window);
		double databaseCores = database.cpuPercent() / 100;
		if (anyLocal) {
			// The harness cores as the kernel saw them (/proc/stat: everything on them, the runner and the kernel's
			// network work included); without that series, the sum of the processes sampled on them.
			double cores = coresBusyPercent(samples, window);
			if (database.onHarnessCores() && Double.isFinite(databaseCores)) {
				cores = Math.max(0, cores - 100 * databaseCores / Math.max(1, facts.injectorCpus()));
			}
			harnessBusy = cores;
			busy = Stats.max(busy, !Double.isNaN(cores) ? cores
					: 100 * (localInjectors + (Double.isNaN(downstream) ? 0 : downstream)) / Math.max(1, facts.injectorCpus()));
		}
		List<PinnedSite> pinned = PinnedSite.read(dir.resolve(LevelDir.PINNED_RECORDING), window);
		Map<Metric, Double> sampled = sampled(samples, window);
		if (PinnedSite.recorded(dir.resolve(LevelDir.PINNED_RECORDING)) && Double.isNaN(sampled.get(Metric.PINNED_EVENTS))) {
			// No meter of the service counted them (a jar without micrometer-java21): the level's own JFR recording did, 0 when none.
			sampled.put(Metric.PINNED_EVENTS, (double) pinned.stream().mapToLong(PinnedSite::events).sum());
		}
		return new Measurement(dir, facts, window, latency, counts, rps, 100 * cpuPerSecond,
				(requestsPerSecond > 0) ? 1000 * cpuPerSecond / requestsPerSecond : Double.NaN, sampled, 100 * injector, busy, downstreamP99OverheadMillis(samples, window),
				Probes.read(dir.resolve(LevelDir.PROBE), window, facts.delayMs()), stall(parts, window, facts.startedCold()),
				WarmUpProfile.of(facts, files.resultsRoot()), (parts.size() > 1) ? List.copyOf(shares) : List.of(), reports,
				Headroom.of(requestsPerSecond, injector, downstream, databaseCores, database.placement(), harnessBusy, facts.injectorCpus()),
				Halves.of(samples, files.requests(), window),
				pinned, Breakdown.of(samples, window, latency),
				OffCpu.read(dir, window, facts.serviceCpus()), RequestFigures.of(files.byRequest(), files.resultsRoot()),
				database, Contention.read(dir.resolve(LevelDir.JFR_RECORDING), window),
				DumpCounts.atEnd(dir), InjectorWait.read(samples, parts.stream().map(LevelFiles.Part::source).toList(), window));
	}

	/**
	 * The longest silence any injector saw (several injectors: the one that saw the longest); a cold start's from its
	 * first answer on ({@link Stall}).
	 */
	static Stall stall(List<LevelFiles.Part> parts, LoadWindow window, boolean startedCold) {
		Stall longest = new Stall(0, 0, 0);
		for (LevelFiles.Part part : parts) {
			Stall stall = Stall.longest(part.completions(), window, startedCold);
			if (stall.seconds() > longest.seconds() || longest.rows() == 0) {
				longest = new Stall(stall.fromEpochMs(), stall.seconds(), Math.max(stall.rows(), longest.rows()));
			}
		}
		return longest;
	}

	/** Busy share of the harness cores from the sampled /proc/stat counters (source host), NaN without them. */
	static double coresBusyPercent(Samples samples, LoadWindow window) {
		double busy = CounterDelta.over(samples.series("host", "cpu_busy_seconds").clipTo(window));
		double total = CounterDelta.over(samples.series("host", "cpu_total_seconds").clipTo(window));
		return (total > 0) ? 100 * busy / total : Double.NaN;
	}

	/**
	 * CPU ms per request of the service in the last {@value #WARMUP_TAIL_SECONDS} s of a warm-up's first round
	 * ({@code whole} its load's window, {@code samples} its metrics.csv): service CPU over the requests sent in those
	 * seconds; NaN when it left no data.
	 */
	public static double warmupCpuMsPerRequest(Path warmup, LoadWindow whole, Samples samples) throws IOException {
		LoadWindow tail = new LoadWindow(whole.start(), Math.max(whole.steadyStart(), whole.end() - WARMUP_TAIL_SECONDS * 1000L), whole.end());
		double cpu = CounterDelta.ratePerSecond(samples.series("service", "proc_cpu_seconds").clipTo(tail));
		long sent = 0;
		for (Path part : LoadFiles.injectorDirs(warmup)) {
			sent += RequestCounts.read(part.resolve(LevelDir.REQUESTS), tail).total();
		}
		double requests = sent / tail.steadySeconds();
		return (requests > 0 && !Double.isNaN(cpu)) ? 1000 * cpu / requests : Double.NaN;
	}

	/**
	 * The JIT's compile time over the last {@code tailSeconds} of a warm-up round's load, in % of that wall time (the
	 * runner's "settled?" test between rounds); NaN when the round left no window or no JIT samples there.
	 */
	public static double warmupJitPercent(Path warmup, int tailSeconds) throws IOException {
		LoadWindow whole = LoadFiles.levelWindow(warmup);
		if (whole == null) {
			return Double.NaN;
		}
		LoadWindow tail = new LoadWindow(whole.start(), Math.max(whole.start(), whole.end() - tailSeconds * 1000L), whole.end());
		return Metric.JIT_PERCENT.measure(Samples.read(warmup.resolve(LevelDir.METRICS)), tail);
	}

	/**
	 * One injector's part of a level (only listed when several loaded it): requests and errors in the window, its
	 * own p99, its CPU in % of one core and its host's processors (NaN / 0 when it did not report them).
	 */
	public record InjectorShare(String name, long requests, long errors, double p99Ms, double cpuPercent, int processors) {
	}

	/**
	 * The service's CPU: from /proc when the runner started it, else from its own process binder's scraped counters
	 * (user + kernel), which a service on another host reports the same way.
	 */
	private static double serviceCpuPerSecond(Samples samples, LoadWindow window) {
		TimeSeries proc = samples.series("service", "proc_cpu_seconds").clipTo(window);
		if (proc.samples().size() >= 2) {
			return CounterDelta.ratePerSecond(proc);
		}
		return CounterDelta.ratePerSecond(samples.series("service", "cpu_user_seconds")
			.plus(samples.series("service", "cpu_kernel_seconds"))
			.clipTo(window));
	}

	/** Every declared metric over the window. */
	static Map<Metric, Double> sampled(Samples samples, LoadWindow window) {
		Map<Metric, Double> sampled = new EnumMap<>(Metric.class);
		for (Metric metric : Metric.values()) {
			sampled.put(metric, metric.measure(samples, window));
		}
		return sampled;
	}

	/**
	 * p99 of how late the downstream answered beyond the requested delay, in the window, from its cumulative
	 * Prometheus buckets: counts per bucket are {@code last - first}, the percentile is interpolated linearly inside
	 * its bucket.
	 */
	static double downstreamP99OverheadMillis(Samples samples, LoadWindow window) {
		return Breakdown.percentileMillis(samples.buckets("downstream"), window, 99);
	}

}
