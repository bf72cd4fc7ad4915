package lab.analyse.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.function.ToDoubleFunction;

import lab.analyse.evidence.ClassHistogram;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.read.LevelFiles;
import lab.layout.LevelDir;
import lab.load.LoadFiles;
import lab.sample.HeapSnapshot;

/**
 * Memory per request in flight, for one variant: live heap (after a full GC) and RSS against the requests the server
 * held, at rest before the warm-up, under the warm-up's load, and at the end of every level's window. A straight
 * line through them gives a base and a cost per request in flight; the warm-up's two points alone, taken before any
 * level ran, predict the load at which the live heap would reach the heap the JVM may use, and the levels then say
 * whether that came true. The top classes per request in flight are the histogram of the highest level whose requests
 * were being served minus the idle one, divided by the requests it held.
 * <p>
 * A saturated service holds requests it has not begun to serve (accepted, or waiting for a thread or the event loop):
 * those cost little more than their connection, so a line through saturated levels reads a request as cheaper than
 * one being served, by how far each level happened to saturate. The line is therefore drawn through the points where
 * at least {@value #SERVED_SHARE} of the requests in flight were being served ({@link #beingServed}); the others are
 * named as left out. When fewer than two loads qualify, it is drawn through every point and says so.
 *
 * @param variant the variant (its label, tuning included)
 * @param points every snapshot, in the order idle, loaded, levels by load
 * @param heap live heap over requests in flight (MiB, KB per request), through the points in {@code fitOver}
 * @param rss resident set over requests in flight, through every point
 * @param fitOver which points the heap line goes through, and which it leaves out, in words
 * @param heapMaxMiB the heap the JVM may grow to
 * @param predictedBreak requests in flight at which the live heap reaches {@code heapMaxMiB}, from the warm-up alone
 *     (NaN when the warm-up's snapshots are missing or the slope is not positive)
 * @param observedBreak the first level the service failed, in words ("none" when every level held)
 * @param bornOut whether the levels bore the prediction out, in words
 * @param highestHeld the highest load with verdict OK and errors under 1%, 0 when none
 * @param topClasses the largest per-request classes at {@code topClassesAt}
 * @param topClassesAt the level those classes come from
 */
public record MemoryProfile(String variant, List<Point> points, Fit heap, Fit rss, String fitOver, double heapMaxMiB, double predictedBreak,
		String observedBreak, String bornOut, int highestHeld, List<ClassHistogram.Share> topClasses, String topClassesAt) {

	private static final double MIB = 1024.0 * 1024.0;

	/** The share of the requests in flight that must have been being served for a snapshot to be in the fit. */
	public static final double SERVED_SHARE = 0.9;

	/**
	 * One snapshot: where it was taken, requests in flight, how many of them were being served ({@link #beingServed},
	 * NaN when unknown), live heap and RSS in MiB.
	 */
	public record Point(String label, int load, double inFlight, double served, double liveHeapMiB, double rssMiB) {

		/** Whether it was taken after a level's window (not at rest, not at the warm-up's end). */
		boolean isLevel() {
			return !this.label.startsWith("at rest") && !this.label.startsWith("end of warm-up");
		}

		/** Whether (nearly) every request in flight was being served: at rest, and when it could not be told, too. */
		public boolean allServed() {
			return !(this.inFlight > 0) || !Double.isFinite(this.served) || this.served >= SERVED_SHARE * this.inFlight;
		}

	}

	/**
	 * Requests being served when a snapshot was taken, by Little's law: the answers per second over the
	 * {@code max(5 s, 2 × delay)} before it (the injector's {@code completions.csv}, the second the snapshot fell in
	 * left out) times the downstream's delay, which every request being served spends waiting on it. Requests that
	 * wait to be served are not counted: they are answered no faster than the service serves. NaN when the delay is 0
	 * or fewer than two seconds were written.
	 */
	public static double beingServed(Path dir, long atEpochMs, long delayMs) throws IOException {
		return beingServed(LoadFiles.answeredPerSecond(dir), atEpochMs, delayMs);
	}

	/** The same from a level's answers per wall-clock second, already read ({@link LevelSeries#answered()}). */
	static double beingServed(SortedMap<Long, Long> answered, long atEpochMs, long delayMs) {
		if (delayMs <= 0) {
			return Double.NaN;
		}
		long span = Math.max(5_000, 2 * delayMs);
		long second = atEpochMs / 1000 * 1000;
		SortedMap<Long, Long> before = answered.subMap(second - span, second);
		if (before.size() < 2) {
			return Double.NaN;
		}
		double perSecond = before.values().stream().mapToLong(Long::longValue).sum() / (double) before.size();
		return perSecond * delayMs / 1000.0;
	}

	/**
	 * A least-squares line {@code y = baseMiB + kbPerRequest × x / 1024}, its coefficient of determination and the
	 * number of points (fewer than 2 distinct loads: NaN).
	 */
	public record Fit(double baseMiB, double kbPerRequest, double r2, int points) {

		public static Fit of(List<double[]> xy) {
			List<double[]> usable = xy.stream().filter(p -> Double.isFinite(p[0]) && Double.isFinite(p[1])).toList();
			int n = usable.size();
			if (n < 2) {
				return new Fit(Double.NaN, Double.NaN, Double.NaN, n);
			}
			double mx = usable.stream().mapToDouble(p -> p[0]).average().orElseThrow();
			double my = usable.stream().mapToDouble(p -> p[1]).average().orElseThrow();
			double sxx = 0;
			double sxy = 0;
			double syy = 0;
			for (double[] p : usable) {
				sxx += (p[0] - mx) * (p[0] - mx);
				sxy += (p[0] - mx) * (p[1] - my);
				syy += (p[1] - my) * (p[1] - my);
			}
			if (sxx == 0) {
				return new Fit(Double.NaN, Double.NaN, Double.NaN, n);
			}
			double slope = sxy / sxx;
			double r2 = (syy == 0) ? 1 : (sxy * sxy) / (sxx * syy);
			return new Fit(my - slope * mx, slope * 1024, r2, n);
		}

	}

	/** Every variant's profile, from the snapshots under {@code results} and the judged levels (reads every level's files). */
	public static List<MemoryProfile> analyse(Path results, List<LevelResult> levels) throws IOException {
		List<LevelSeries> series = new ArrayList<>();
		for (Path dir : LevelFiles.levelDirs(results)) {
			series.add(LevelSeries.of(LevelFiles.read(dir, results)));
		}
		return analyse(results, levels, series);
	}

	/**
	 * Every variant's profile from the judged levels and the levels' series, already read: only the snapshots (and
	 * each class histogram, once) are read here.
	 */
	public static List<MemoryProfile> analyse(Path results, List<LevelResult> levels, List<LevelSeries> series) throws IOException {
		Map<String, List<LevelSeries>> byVariant = new LinkedHashMap<>();
		for (LevelSeries level : series) {
			byVariant.computeIfAbsent(level.facts().variant(), k -> new ArrayList<>()).add(level);
		}
		Map<Path, ClassHistogram> histograms = new HashMap<>();
		List<MemoryProfile> profiles = new ArrayList<>();
		for (String variant : levels.stream().map(LevelResult::variant).distinct().toList()) {
			MemoryProfile profile = of(variant, results, byVariant.getOrDefault(variant, List.of()),
					levels.stream().filter(level -> level.variant().equals(variant)).toList(), histograms);
			if (profile != null) {
				profiles.add(profile);
			}
		}
		return profiles;
	}

	/** A level with its steady snapshot and the point drawn from it. */
	private record SteadyLevel(Path dir, HeapSnapshot snapshot, Point point) {
	}

	/** One variant's profile, or null when it has no snapshot at all (results from before snapshots, remote services). */
	private static MemoryProfile of(String variant, Path results, List<LevelSeries> levelDirs, List<LevelResult> levels,
			Map<Path, ClassHistogram> histograms) throws IOException {
		List<LevelSeries> sorted = levelDirs.stream().sorted(Comparator.comparingInt(level -> level.facts().load())).toList();
		LevelSeries first = sorted.stream().filter(level -> level.facts().warmupDir() != null).findFirst().orElse(null);
		Path warmup = (first != null) ? results.resolve(first.facts().warmupDir()) : null;
		Optional<HeapSnapshot> idle = (warmup != null) ? HeapSnapshot.read(warmup, LevelDir.HEAP_IDLE).map(s -> relive(warmup, s, histograms)) : Optional.empty();
		Optional<HeapSnapshot> loaded = (warmup != null) ? HeapSnapshot.read(warmup, LevelDir.HEAP_LOADED).map(s -> relive(warmup, s, histograms)) : Optional.empty();
		long delayMs = sorted.isEmpty() ? 0 : sorted.get(0).facts().delayMs();
		List<Point> points = new ArrayList<>();
		// At rest nothing waits: what the server counts then (the runner's own scrape) is served.
		idle.ifPresent(s -> points.add(point("at rest before the warm-up", 0, s.inFlight(), s)));
		if (loaded.isPresent()) {
			points.add(point("end of warm-up", (int) Math.round(loaded.get().inFlight()), beingServed(warmup, loaded.get().epochMs(), delayMs), loaded.get()));
		}
		List<SteadyLevel> steadies = new ArrayList<>();
		for (LevelSeries level : sorted) {
			Optional<HeapSnapshot> steady = HeapSnapshot.read(level.dir(), LevelDir.HEAP_STEADY).map(s -> relive(level.dir(), s, histograms));
			if (steady.isPresent()) {
				Point point = point(results.relativize(level.dir()).toString(), level.facts().load(),
						beingServed(level.answered(), steady.get().epochMs(), level.facts().delayMs()), steady.get());
				points.add(point);
				steadies.add(new SteadyLevel(level.dir(), steady.get(), point));
			}
		}
		// The top classes come from the highest level whose requests were being served (else the highest) and whose
		// histogram differs from the one at rest.
		String topAt = null;
		List<ClassHistogram.Share> top = List.of();
		if (idle.isPresent()) {
			ClassHistogram base = histogram(warmup.resolve(idle.get().histogram()), histograms);
			for (boolean servedOnly : new boolean[] { true, false }) {
				for (int i = steadies.size() - 1; i >= 0 && top.isEmpty(); i--) {
					SteadyLevel level = steadies.get(i);
					if (Double.isFinite(level.snapshot().liveBytes()) && (!servedOnly || level.point().allServed())) {
						top = histogram(level.dir().resolve(level.snapshot().histogram()), histograms).perRequestOver(base, level.snapshot().inFlight(), 8);
						topAt = top.isEmpty() ? null : results.relativize(level.dir()).toString();
					}
				}
			}
		}
		if (points.isEmpty()) {
			return null;
		}
		List<Point> leftOut = points.stream().filter(p -> !p.allServed()).toList();
		Fit heap = Fit.of(xy(points.stream().filter(Point::allServed).toList(), Point::liveHeapMiB));
		String fitOver;
		if (Double.isNaN(heap.kbPerRequest()) && !leftOut.isEmpty()) {
			heap = Fit.of(xy(points, Point::liveHeapMiB));
			fitOver = String.format(Locale.ROOT, "line through every point: fewer than two loads had %.0f%% of their requests in flight being served, so "
					+ "waiting requests count as requests in flight and the line reads low", 100 * SERVED_SHARE);
		}
		else {
			fitOver = leftOut.isEmpty() ? String.format(Locale.ROOT, "line through every point (at each, at least %.0f%% of the requests in flight were being served)",
					100 * SERVED_SHARE)
					: String.format(Locale.ROOT, "line through the points where at least %.0f%% of the requests in flight were being served; left out: %s",
							100 * SERVED_SHARE, String.join(", ", leftOut.stream()
								.map(p -> String.format(Locale.ROOT, "%s (%.0f%% being served)", p.label(), 100 * p.served() / p.inFlight()))
								.toList()));
		}
		if (Double.isNaN(heap.kbPerRequest())) {
			fitOver = "no line: the snapshots held fewer than two different numbers of requests in flight";
		}
		// RSS follows the heap the JVM has committed (it grows in steps and rarely shrinks), not the requests of the
		// moment: its line goes through every point, over the whole range of loads.
		Fit rss = Fit.of(xy(points, Point::rssMiB));
		HeapSnapshot any = idle.or(() -> loaded).orElse(steadies.isEmpty() ? null : steadies.get(0).snapshot());
		double heapMax = (any != null) ? any.heapMaxBytes() / MIB : Double.NaN;
		double predicted = Double.NaN;
		String noPrediction = (idle.isEmpty() || loaded.isEmpty()) ? "no prediction: the warm-up's heap snapshots are missing"
				: "no prediction: the warm-up's end held no more requests, or no more live heap, than the rest after it";
		if (idle.isPresent() && loaded.isPresent()) {
			double slope = (loaded.get().liveBytes() - idle.get().liveBytes()) / (loaded.get().inFlight() - idle.get().inFlight());
			if (slope > 0 && Double.isFinite(slope)) {
				predicted = idle.get().inFlight() + (idle.get().heapMaxBytes() - idle.get().liveBytes()) / slope;
			}
		}
		return judge(variant, points, heap, rss, fitOver, heapMax, predicted, noPrediction, levels, top, topAt);
	}

	private static List<double[]> xy(List<Point> points, ToDoubleFunction<Point> y) {
		return points.stream().map(p -> new double[] { p.inFlight(), y.applyAsDouble(p) }).toList();
	}

	private static MemoryProfile judge(String variant, List<Point> points, Fit heap, Fit rss, String fitOver, double heapMax, double predicted,
			String noPrediction, List<LevelResult> levels, List<ClassHistogram.Share> top, String topAt) {
		List<LevelResult> ranked = levels.stream()
			.filter(level -> level.verdict() == Verdict.OK || level.verdict() == Verdict.FAILED)
			.sorted(Comparator.comparingInt(LevelResult::load))
			.toList();
		int held = ranked.stream()
			.filter(level -> level.verdict() == Verdict.OK && level.errorPercent() < 1)
			.mapToInt(LevelResult::load)
			.max()
			.orElse(0);
		LevelResult failed = ranked.stream().filter(level -> level.verdict() == Verdict.FAILED).findFirst().orElse(null);
		boolean thrown = failed != null && failed.reasons().stream().anyMatch(reason -> reason.contains("OutOfMemoryError"));
		// A heap 90% full of live objects after a full GC is out of memory in all but name: the JVM spends its time
		// collecting (GC-bound) before it ever throws.
		Point full = (failed == null) ? null : points.stream()
			.filter(p -> p.load() == failed.load() && p.isLevel())
			.filter(p -> Double.isFinite(p.liveHeapMiB()) && p.liveHeapMiB() >= 0.9 * heapMax)
			.findFirst().orElse(null);
		boolean outOfMemory = thrown || full != null;
		String observed = (failed == null) ? "none"
				: failed.load() + " (" + (thrown ? "out of memory"
						: (full != null) ? String.format(Locale.ROOT, "heap full: %.0f of %.0f MiB live after a full GC", full.liveHeapMiB(), heapMax)
								: String.join("; ", failed.reasons().subList(0, Math.min(1, failed.reasons().size())))) + ")";
		// The highest level that ran to its end without failing (an INVALID one held too, it was just not trusted).
		int lastOk = levels.stream()
			.filter(level -> level.verdict() != Verdict.FAILED && level.verdict() != Verdict.INTERRUPTED && level.requests() > 0)
			.mapToInt(LevelResult::load).max().orElse(0);
		// The prediction is in requests in flight; a saturated event loop holds fewer than its users (the rest wait
		// unread in socket buffers), so a level is compared by what the server held, its users when unknown.
		double heldInFlight = inFlightAt(points, lastOk);
		String bornOut;
		if (!Double.isFinite(predicted)) {
			bornOut = noPrediction;
		}
		else if (failed == null) {
			bornOut = (heldInFlight >= predicted)
					? String.format(Locale.ROOT, "no: %,d users (%,.0f in flight) held without running out of heap", lastOk, heldInFlight)
					: String.format(Locale.ROOT, "not reached: at most %,.0f in flight (%,d users)", heldInFlight, lastOk);
		}
		else if (outOfMemory) {
			// The highest level below it that ran to its end without failing (an INVALID one counts: it held).
			int belowFailed = levels.stream()
				.filter(level -> level.load() < failed.load() && level.verdict() != Verdict.FAILED && level.verdict() != Verdict.INTERRUPTED
						&& level.requests() > 0)
				.mapToInt(LevelResult::load).max().orElse(0);
			bornOut = (predicted <= failed.load() && predicted > inFlightAt(points, belowFailed)) ? "yes: out of memory between " + belowFailed + " and " + failed.load()
					: (predicted > failed.load()) ? String.format(Locale.ROOT, "no: out of memory earlier, at %,d", failed.load())
							: String.format(Locale.ROOT, "no: %,d held, out of memory only at %,d", belowFailed, failed.load());
		}
		else {
			bornOut = (predicted <= failed.load()) ? "open: it failed at " + failed.load() + " for another reason first"
					: "not reached: it failed at " + failed.load() + " for another reason";
		}
		return new MemoryProfile(variant, points, heap, rss, fitOver, heapMax, predicted, observed, bornOut, held, top, topAt);
	}

	/** Requests in flight the server held at a level (its snapshot), else the level's load. */
	private static double inFlightAt(List<Point> points, int load) {
		return points.stream()
			.filter(p -> p.load() == load && p.isLevel())
			.mapToDouble(Point::inFlight)
			.filter(Double::isFinite)
			.findFirst()
			.orElse(load);
	}

	/**
	 * The snapshot with its live heap read again from its histogram, so results recorded before heap fillers were
	 * left out are judged by the same rule; as recorded when the histogram is gone.
	 */
	private static HeapSnapshot relive(Path dir, HeapSnapshot snapshot, Map<Path, ClassHistogram> histograms) {
		Path histogram = dir.resolve(snapshot.histogram());
		if (!Double.isFinite(snapshot.liveBytes()) || !Files.isRegularFile(histogram)) {
			return snapshot;
		}
		try {
			return new HeapSnapshot(snapshot.epochMs(), snapshot.inFlight(), histogram(histogram, histograms).liveBytes(), snapshot.heapMaxBytes(),
					snapshot.rssBytes(), snapshot.histogram());
		}
		catch (IOException ex) {
			return snapshot;
		}
	}

	/** A class histogram, read once per analysis ({@code read}: those read so far). */
	private static ClassHistogram histogram(Path file, Map<Path, ClassHistogram> read) throws IOException {
		ClassHistogram histogram = read.get(file);
		if (histogram == null) {
			histogram = ClassHistogram.read(file);
			read.put(file, histogram);
		}
		return histogram;
	}

	private static Point point(String label, int load, double served, HeapSnapshot snapshot) {
		return new Point(label, load, snapshot.inFlight(), Math.min(served, snapshot.inFlight()), snapshot.liveBytes() / MIB, snapshot.rssBytes() / MIB);
	}

}
