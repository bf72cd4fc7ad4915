package lab.analyse.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

import lab.layout.LevelDir;
import lab.load.LoadFiles;
import lab.load.LoadWindow;
import org.HdrHistogram.Histogram;

/**
 * The raw files of one level, each read once: {@code level.json}, {@code metrics.csv}, and per injector its
 * {@code load-window.csv}, {@code requests.csv}, {@code latency.hlog}, {@code completions.csv} and {@code cpu.csv}.
 * Everything the analysis computes about the level ({@code Measurement}, {@code LevelSeries}, the memory profile's
 * answers per second) comes from here; the interval histograms are folded as they are read (the window's, and a
 * p50 / p99 per send second), so a level in memory holds no per-second histogram.
 *
 * @param dir the level's directory
 * @param resultsRoot the results directory it lies in
 * @param facts its {@code level.json}
 * @param window the time every injector was at full load (null: the level never ran)
 * @param parts its injectors, one unless several loaded it
 * @param samples the runner's samples of the service, the downstream and the harness
 * @param okPercentilesBySecond over every injector, per send second (ms): p50 and p99 of the successes
 */
public record LevelFiles(Path dir, Path resultsRoot, LevelFacts facts, LoadWindow window, List<Part> parts, Samples samples,
		TreeMap<Long, double[]> okPercentilesBySecond) {

	/**
	 * One injector's files.
	 *
	 * @param dir where it wrote ({@code injector-<n>/}, or the level's own directory)
	 * @param source the name its CPU is sampled under in {@code metrics.csv}
	 * @param window its own load window (null when it wrote none)
	 * @param requests its {@code requests.csv} rows
	 * @param latency its successes and failures in the level's window
	 * @param completions its {@code completions.csv}: per wall-clock second, stamp (ms) and answers
	 * @param cpu its own account of its CPU
	 * @param gatlingReports its Gatling HTML reports, relative to the results directory
	 * @param byRequest a mix's named requests' successes and failures in the window, by place in the mix (empty for none)
	 */
	public record Part(Path dir, String source, LoadWindow window, RequestCounts.Rows requests, Latency latency, List<long[]> completions,
			InjectorCpu cpu, List<String> gatlingReports, java.util.Map<Integer, Latency> byRequest) {
	}

	public static LevelFiles read(Path dir, Path resultsRoot) throws IOException {
		return read(dir, resultsRoot, LevelFacts.read(dir));
	}

	/** A level's files with its facts given, not read from its level.json (the runner's, before it writes them). */
	public static LevelFiles read(Path dir, Path resultsRoot, LevelFacts facts) throws IOException {
		List<Path> dirs = LoadFiles.injectorDirs(dir);
		List<LoadWindow> windows = new ArrayList<>();
		for (Path part : dirs) {
			windows.add(LoadFiles.window(part));
		}
		LoadWindow window = LoadFiles.merged(windows);
		TreeMap<Long, Histogram> okBySecond = new TreeMap<>();
		List<Part> parts = new ArrayList<>();
		for (int i = 0; i < dirs.size(); i++) {
			Path part = dirs.get(i);
			Latency latency = Latency.read(part.resolve(LevelDir.LATENCY), window, okBySecond);
			parts.add(new Part(part, LoadFiles.injectorSource(dir, part), windows.get(i), RequestCounts.rows(part.resolve(LevelDir.REQUESTS)), latency,
					LoadFiles.completions(part.resolve(LevelDir.COMPLETIONS)), InjectorCpu.read(part), gatlingReports(part, resultsRoot),
					Latency.byRequest(part.resolve(LevelDir.LATENCY_BY_REQUEST), window)));
		}
		TreeMap<Long, double[]> percentiles = new TreeMap<>();
		okBySecond.forEach((second, histogram) -> {
			if (histogram.getTotalCount() > 0) {
				percentiles.put(second, new double[] { histogram.getValueAtPercentile(50) / 1000.0, histogram.getValueAtPercentile(99) / 1000.0 });
			}
		});
		return new LevelFiles(dir, resultsRoot, facts, window, List.copyOf(parts), Samples.read(dir.resolve(LevelDir.METRICS)), percentiles);
	}

	/** Each named request's successes and failures in the window, every injector's merged, by its place in the mix. */
	public java.util.Map<Integer, Latency> byRequest() {
		java.util.Map<Integer, List<Latency>> parts = new TreeMap<>();
		this.parts.forEach(part -> part.byRequest().forEach((index, latency) -> parts.computeIfAbsent(index, k -> new ArrayList<>()).add(latency)));
		java.util.Map<Integer, Latency> merged = new TreeMap<>();
		parts.forEach((index, latencies) -> merged.put(index, Latency.merge(latencies)));
		return merged;
	}

	/**
	 * Every Gatling report of the level, relative to the results directory: when several injectors drove it,
	 * Gatling's one report over all their records first ({@link LevelDir#GATLING_MERGED}), then each injector's own.
	 */
	public List<String> gatlingReports() throws IOException {
		List<String> reports = new ArrayList<>();
		boolean one = this.parts.size() == 1 && this.parts.get(0).dir().equals(this.dir);
		Path merged = this.dir.resolve(LevelDir.GATLING).resolve(LevelDir.GATLING_MERGED).resolve(LevelDir.GATLING_REPORT);
		if (!one && Files.isRegularFile(merged)) {
			reports.add(this.resultsRoot.relativize(merged).toString());
		}
		this.parts.forEach(part -> reports.addAll(part.gatlingReports()));
		return reports;
	}

	/** The requests rows of every injector. */
	public List<RequestCounts.Rows> requests() {
		return this.parts.stream().map(Part::requests).toList();
	}

	/**
	 * Answers per wall-clock second (responses with any status), summed over the injectors, keyed by the second the
	 * row was stamped in (ms, rounded down); a second no injector wrote is absent.
	 */
	public TreeMap<Long, Long> answeredPerSecond() {
		return LoadFiles.answeredPerSecond(this.parts.stream().map(Part::completions).toList());
	}

	/** Per send second, requests sent and failed (4xx, 5xx, timeouts, refused, checks), over every injector. */
	public TreeMap<Long, long[]> sentAndFailedBySecond() {
		TreeMap<Long, long[]> perSecond = new TreeMap<>();
		for (Part part : this.parts) {
			part.requests().bySendSecond().forEach((second, row) -> {
				long[] sums = perSecond.computeIfAbsent(second, k -> new long[2]);
				sums[0] += row[0];
				sums[1] += row[2] + row[3] + row[4] + row[5] + row[6];
			});
		}
		return perSecond;
	}

	/** The window to draw: the level's, else the one the first injector planned (a level cut short); null if neither. */
	public LoadWindow drawnWindow() throws IOException {
		boolean one = this.parts.size() == 1 && this.parts.get(0).dir().equals(this.dir);
		LoadWindow own = one ? this.parts.get(0).window() : LoadFiles.window(this.dir);
		return (own != null) ? own : LoadFiles.plan(this.dir);
	}

	/** Whether the level's directory holds {@code file} (evidence a page links to). */
	public boolean has(String file) {
		return Files.isRegularFile(this.dir.resolve(file));
	}

	private static List<String> gatlingReports(Path dir, Path resultsRoot) throws IOException {
		Path gatling = dir.resolve(LevelDir.GATLING);
		if (!Files.isDirectory(gatling)) {
			return List.of();
		}
		List<String> reports = new ArrayList<>();
		try (Stream<Path> runs = Files.list(gatling)) {
			runs.map(run -> run.resolve(LevelDir.GATLING_REPORT)).filter(Files::isRegularFile).sorted()
				.forEach(index -> reports.add(resultsRoot.relativize(index).toString()));
		}
		return reports;
	}

	/** Every level directory of a run (those holding a {@code level.json}), in path order. */
	public static List<Path> levelDirs(Path results) throws IOException {
		try (Stream<Path> files = Files.find(results, 4, (path, attributes) -> path.getFileName().toString().equals(LevelDir.FACTS))) {
			return files.map(Path::getParent).sorted().toList();
		}
	}

}
