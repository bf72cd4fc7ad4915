package lab.analyse.search;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import lab.json.Json;
import org.apache.commons.statistics.distribution.FDistribution;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * A variance study's numbers ({@code --scenario variance}, docs/variance.md): fresh JVMs of each entry (a variant under
 * an arm) probed several times each at one load, and what of a probe's p99 (and throughput) varies between JVMs and
 * what within one. On the log scale, so a spread reads as a percentage: a one-way random-effects analysis of variance
 * per entry (JVMs as groups; unequal probes per JVM allowed through the usual n0), and, for each arm beside the default
 * arm of the same variant, the ratio of the variances of a JVM's mean with its F interval: what share of the spread
 * between JVMs the arm's cause explains.
 */
public final class VarianceStudy {

	private VarianceStudy() {
	}

	/** The study's raw record in its results directory, rewritten after every probe. */
	public static final String FILE = lab.layout.RunDir.VARIANCE;

	/** The study's text in its results directory. */
	public static final String TEXT = lab.layout.RunDir.VARIANCE_TEXT;

	/**
	 * One probe of a study.
	 *
	 * @param entry the entry's label (variant under an arm)
	 * @param variant the variant's module
	 * @param arm the arm's name ({@code default} without a cause)
	 * @param jvm which JVM of the entry, from 1
	 * @param probe which probe of that JVM, from 1
	 * @param users the load
	 * @param p99Ms the probe's p99 (the latency target's percentile), null when it had none
	 * @param rps requests a second in its window
	 * @param ok whether its verdict was OK (INVALID, FAILED or INTERRUPTED probes are kept, left out of the figures)
	 * @param dir its level directory, relative to the results directory
	 * @param cpuMsPerRequest the service's CPU per request, null when not measured
	 * @param gcPercent GC pause time per second of the window
	 * @param jitPercent the JIT's CPU per second of the window
	 * @param peakHeapMiB the most heap used in the window
	 * @param limit what bound the probe, in words
	 */
	public record Probe(String entry, String variant, String arm, int jvm, int probe, int users, Double p99Ms, double rps, boolean ok, String dir,
			Double cpuMsPerRequest, Double gcPercent, Double jitPercent, Double peakHeapMiB, String limit) {
	}

	/**
	 * What one JVM chose and did, read after its last probe ({@code jcmd PerfCounter.print}).
	 *
	 * @param entry its entry
	 * @param jvm which JVM of the entry
	 * @param dir its directory, relative to the results directory
	 * @param counters the counters kept by name (youngCapacityBytes, oldCapacityBytes, compiles, nmethodCodeBytes,
	 *        youngGcs, fullGcs, gcSeconds); empty when jcmd could not read them
	 */
	public record Jvm(String entry, int jvm, String dir, Map<String, Number> counters) {
	}

	/**
	 * A study as its file keeps it.
	 *
	 * @param about what the file is
	 * @param jvms fresh JVMs per entry
	 * @param probesPerJvm probes of each
	 * @param seed the random orders' seed
	 * @param users each entry's load
	 * @param referenceMs the CPU reference timed on the service's core before each batch
	 * @param jvmEvidence each JVM's counters, as its batch ended
	 * @param probes every probe, in the order run
	 * @param stopped why the study ended before its last batch, else null
	 * @param baseArm the arm each cause is compared with: the run's first ({@code default}, or {@code aot-none} with an AOT
	 *        axis); null in a record older than it: {@code default}
	 * @param preloads the history arm's probes at a multiple of its load, one on each of its JVMs before its counted ones
	 *        (probe 0; not in the figures): what the JVM went through; empty without a history arm
	 */
	public record Record(String about, int jvms, int probesPerJvm, long seed, Map<String, Integer> users, List<Double> referenceMs, List<Jvm> jvmEvidence,
			List<Probe> probes, String stopped, String baseArm, List<Probe> preloads) {

		public Record {
			baseArm = (baseArm != null) ? baseArm : "default";
			preloads = (preloads != null) ? List.copyOf(preloads) : List.of();
		}

		/** A record without a history arm. */
		public Record(String about, int jvms, int probesPerJvm, long seed, Map<String, Integer> users, List<Double> referenceMs, List<Jvm> jvmEvidence,
				List<Probe> probes, String stopped, String baseArm) {
			this(about, jvms, probesPerJvm, seed, users, referenceMs, jvmEvidence, probes, stopped, baseArm, null);
		}

	}

	/** The study in a results directory, when it holds one. */
	public static Optional<Record> read(Path results) throws IOException {
		Path file = results.resolve(FILE);
		if (!Files.isRegularFile(file)) {
			return Optional.empty();
		}
		try {
			return Optional.of(Json.MAPPER.readValue(file.toFile(), Record.class));
		}
		catch (RuntimeException ex) {
			throw new IOException(file + " is not a variance study's record: " + ex.getMessage(), ex);
		}
	}

	/**
	 * One variable's spread for one entry, on the log scale.
	 *
	 * @param jvms JVMs with at least one probe counted
	 * @param probes probes counted
	 * @param mean the geometric mean (ms for p99, requests a second for throughput)
	 * @param betweenSd the spread between JVMs (√ of the variance component), as a fraction; 0 where the mean squares
	 *        say less than nothing
	 * @param withinSd the spread of one JVM's probes about its own mean (√ of the mean square within)
	 * @param jvmMeanVariance the variance of a JVM's mean (the mean square between over n0): what one JVM's estimate
	 *        carries, both levels in it
	 * @param n0 the probes per JVM the analysis weighs by (their count when all JVMs had as many)
	 * @param betweenSdHigh the upper end of the between-JVM spread's 95% interval: the ratio of the components bounded by
	 *        F with (JVMs - 1, probes - JVMs) degrees of freedom, times the mean square within (exact for equal probes per
	 *        JVM, approximate otherwise); what the study cannot rule out when it sees no spread between JVMs
	 */
	public record Spread(int jvms, int probes, double mean, double betweenSd, double withinSd, double jvmMeanVariance, double n0, double betweenSdHigh) {

		/** The degrees of freedom between JVMs. */
		public int dfBetween() {
			return this.jvms - 1;
		}

	}

	/** The one-way random-effects components of {@code values} grouped by JVM (log scale); null with fewer than two JVMs or no repeat. */
	public static Spread spread(Map<Integer, List<Double>> byJvm) {
		Map<Integer, List<Double>> logs = new TreeMap<>();
		byJvm.forEach((jvm, values) -> {
			List<Double> ok = values.stream().filter(v -> v != null && v > 0 && Double.isFinite(v)).map(Math::log).toList();
			if (!ok.isEmpty()) {
				logs.put(jvm, ok);
			}
		});
		int k = logs.size();
		int n = logs.values().stream().mapToInt(List::size).sum();
		if (k < 2 || n <= k) {
			return null;
		}
		double grand = logs.values().stream().flatMap(List::stream).mapToDouble(Double::doubleValue).sum() / n;
		double ssb = 0;
		double ssw = 0;
		double sumSquares = 0;
		for (List<Double> values : logs.values()) {
			double mean = values.stream().mapToDouble(Double::doubleValue).sum() / values.size();
			ssb += values.size() * (mean - grand) * (mean - grand);
			for (double v : values) {
				ssw += (v - mean) * (v - mean);
			}
			sumSquares += (double) values.size() * values.size();
		}
		double msb = ssb / (k - 1);
		double msw = ssw / (n - k);
		double n0 = (n - sumSquares / n) / (k - 1);
		double between = Math.max(0, (msb - msw) / n0);
		double high = Double.NaN;
		if (msw > 0) {
			double ratioHigh = (msb / msw) / FDistribution.of(k - 1, n - k).inverseCumulativeProbability(0.025);
			high = Math.sqrt(Math.max(0, (ratioHigh - 1) / n0) * msw);
		}
		return new Spread(k, n, Math.exp(grand), Math.sqrt(between), Math.sqrt(msw), msb / n0, n0, high);
	}

	/**
	 * An arm's spread between JVMs beside the default arm's, for one variant.
	 *
	 * @param ratio the variance of a JVM's mean under the arm over the default's (1: the same)
	 * @param low its 95% interval's low end (F with each arm's JVMs - 1 degrees of freedom)
	 * @param high its high end
	 * @param shareExplained 1 - the ratio of the between-JVM components: the share of the default's spread between JVMs
	 *        the arm removed (negative: it added spread), NaN where the default showed none
	 * @param shift the arm's geometric mean over the default's (p99: above 1 is slower)
	 * @param shiftLow the low end of the shift's 95% interval (the two arms' JVM means, Welch's t)
	 * @param shiftHigh its high end
	 */
	public record Cause(double ratio, double low, double high, double shareExplained, double shift, double shiftLow, double shiftHigh) {

		/** Whether the interval of the ratio lies wholly below 1 (the arm narrowed the spread) or above (widened it). */
		public String verdict() {
			return (this.high < 1) ? "narrower" : (this.low > 1) ? "wider" : "not told apart";
		}

	}

	/** {@code arm} against {@code base} (the default arm of the same variant); null when either has no spread. */
	public static Cause cause(Spread arm, Spread base) {
		if (arm == null || base == null || base.jvmMeanVariance() <= 0 || arm.jvmMeanVariance() <= 0) {
			return null;
		}
		double ratio = arm.jvmMeanVariance() / base.jvmMeanVariance();
		FDistribution f = FDistribution.of(arm.dfBetween(), base.dfBetween());
		double low = ratio / f.inverseCumulativeProbability(0.975);
		double high = ratio / f.inverseCumulativeProbability(0.025);
		double share = (base.betweenSd() > 0) ? 1 - (arm.betweenSd() * arm.betweenSd()) / (base.betweenSd() * base.betweenSd()) : Double.NaN;
		// The shift from the JVMs' means: each arm's variance of a JVM's mean over its JVMs, Welch's degrees of freedom.
		double a = arm.jvmMeanVariance() / arm.jvms();
		double b = base.jvmMeanVariance() / base.jvms();
		double df = (a + b) * (a + b) / (a * a / arm.dfBetween() + b * b / base.dfBetween());
		double t = TDistribution.of(df).inverseCumulativeProbability(0.975) * Math.sqrt(a + b);
		double shift = arm.mean() / base.mean();
		return new Cause(ratio, low, high, share, shift, shift * Math.exp(-t), shift * Math.exp(t));
	}

	/**
	 * The study's text (Markdown): per variant, each arm's spread of p99 and of throughput between and within JVMs; each
	 * cause beside the default arm; each JVM's evidence beside its probes.
	 *
	 * @param record the study
	 */
	public static String text(Record record) {
		String defaultArm = record.baseArm();
		StringBuilder text = new StringBuilder();
		if (record.stopped() != null) {
			text.append("Stopped before its end (").append(record.stopped()).append("): the figures are of the probes it ran.\n\n");
		}
		text.append(String.format(Locale.ROOT, "%d fresh JVMs of each entry, each probed %d times; CPU reference on the service's core before each batch: %s ms.%n%n",
				record.jvms(), record.probesPerJvm(), String.join(", ", record.referenceMs().stream().map(ms -> String.format(Locale.ROOT, "%.1f", ms)).toList())));
		Map<String, Map<String, List<Probe>>> byVariant = new LinkedHashMap<>();
		for (Probe p : record.probes()) {
			// The default arm first in each variant, the causes in the order they ran.
			byVariant.computeIfAbsent(p.variant(), v -> {
				Map<String, List<Probe>> arms = new LinkedHashMap<>();
				arms.put(defaultArm, new ArrayList<>());
				return arms;
			}).computeIfAbsent(p.arm(), a -> new ArrayList<>()).add(p);
		}
		byVariant.values().forEach(arms -> arms.values().removeIf(List::isEmpty));
		text.append("| variant | arm | JVMs | probes OK | users | p99 (geometric mean) | p99 between JVMs (95% upper) | p99 within a JVM | rps between JVMs | rps within a JVM |\n");
		text.append("|---|---|---|---|---|---|---|---|---|---|\n");
		Map<String, Map<String, Spread>> p99s = new LinkedHashMap<>();
		Map<String, Map<String, Spread>> rpss = new LinkedHashMap<>();
		byVariant.forEach((variant, arms) -> arms.forEach((arm, list) -> {
			Spread p99 = spread(grouped(list, true));
			Spread rps = spread(grouped(list, false));
			p99s.computeIfAbsent(variant, v -> new LinkedHashMap<>()).put(arm, p99);
			rpss.computeIfAbsent(variant, v -> new LinkedHashMap<>()).put(arm, rps);
			long ok = list.stream().filter(Probe::ok).count();
			text.append(String.format(Locale.ROOT, "| %s | %s | %s | %d of %d | %d | %s | %s | %s | %s | %s |%n", variant, arm,
					(p99 != null) ? Integer.toString(p99.jvms()) : "-", ok, list.size(), list.get(0).users(),
					(p99 != null) ? String.format(Locale.ROOT, "%.0f ms", p99.mean()) : "-", withHigh(p99), percent(p99, false),
					percent(rps, true), percent(rps, false)));
		}));
		text.append("\nSpreads are standard deviations on the log scale (a one-way random-effects analysis per entry, JVMs as groups): between JVMs the "
				+ "component a fresh JVM adds (with the upper end of its 95% interval: what the study cannot rule out), within a JVM the spread of its own "
				+ "probes.\n");
		List<String> causes = new ArrayList<>();
		p99s.forEach((variant, arms) -> {
			Spread base = arms.get(defaultArm);
			arms.forEach((arm, spread) -> {
				if (arm.equals(defaultArm)) {
					return;
				}
				Cause cause = cause(spread, base);
				Cause rps = cause(rpss.get(variant).get(arm), rpss.get(variant).get(defaultArm));
				causes.add((cause == null) ? String.format(Locale.ROOT, "- %s, %s: too few JVMs with probes to compare", variant, arm)
						: String.format(Locale.ROOT, "- %s, %s against %s: a JVM's mean p99 varies %.2f times as much (95%%: %.2f-%.2f, %s); "
								+ "share of the spread between JVMs it explains %s; p99 %+.0f%% (95%%: %+.0f%% to %+.0f%%)%s", variant, arm, defaultArm,
								cause.ratio(), cause.low(),
								cause.high(), cause.verdict(), Double.isFinite(cause.shareExplained())
										? String.format(Locale.ROOT, "%.0f%%", 100 * cause.shareExplained()) : "- (none between the default's JVMs)",
								100 * (cause.shift() - 1), 100 * (cause.shiftLow() - 1), 100 * (cause.shiftHigh() - 1), (rps == null) ? ""
										: String.format(Locale.ROOT, ", throughput %+.1f%% (%+.1f%% to %+.1f%%)", 100 * (rps.shift() - 1), 100 * (rps.shiftLow() - 1),
												100 * (rps.shiftHigh() - 1))));
			});
		});
		if (!causes.isEmpty()) {
			text.append("\nEach cause beside the default arm (the ratio of the variances of a JVM's mean p99 with its F interval, each arm's JVMs - 1 "
					+ "degrees of freedom; the share it explains is 1 - the ratio of the between-JVM components, a point estimate):\n\n");
			causes.forEach(line -> text.append(line).append('\n'));
		}
		List<String> shares = new ArrayList<>();
		byVariant.forEach((variant, arms) -> {
			Map<String, Map<Integer, Double>> means = new LinkedHashMap<>();
			arms.forEach((arm, list) -> {
				Map<Integer, Double> byBatch = new TreeMap<>();
				grouped(list, true).forEach((jvm, values) -> byBatch.put(jvm, values.stream().mapToDouble(Math::log).average().orElseThrow()));
				means.put(arm, byBatch);
			});
			BatchShare share = BatchShare.of(means);
			if (share != null) {
				shares.add(share.line(variant));
			}
		});
		if (!shares.isEmpty()) {
			text.append("\nBatch by batch (every arm's JVM j of a variant runs in batch j; the correlation of the arms' JVM means across the batches, "
					+ "Fisher's interval, and the square root of their covariance):\n\n");
			shares.forEach(line -> text.append(line).append('\n'));
		}
		text.append("\nEach JVM beside its probes (counters after its last probe; per probe: p99 ms, CPU ms per request, GC % of the window; "
				+ "* a probe not counted, its verdict not OK):\n\n");
		text.append("| entry | JVM | p99 ms | CPU ms/req | GC % | heap young / old MiB | young / full GCs | GC s | compiles | code MiB |\n");
		text.append("|---|---|---|---|---|---|---|---|---|---|\n");
		Map<String, Jvm> jvms = new LinkedHashMap<>();
		record.jvmEvidence().forEach(j -> jvms.put(j.entry() + "#" + j.jvm(), j));
		Map<String, List<Probe>> byJvm = new LinkedHashMap<>();
		record.probes().stream().sorted(java.util.Comparator.comparing(Probe::entry).thenComparingInt(Probe::jvm).thenComparingInt(Probe::probe))
			.forEach(p -> byJvm.computeIfAbsent(p.entry() + "#" + p.jvm(), k -> new ArrayList<>()).add(p));
		byJvm.forEach((key, list) -> {
			Map<String, Number> c = (jvms.get(key) != null) ? jvms.get(key).counters() : Map.of();
			text.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s / %s | %s / %s | %s | %s | %s |%n", list.get(0).entry(), list.get(0).jvm(),
					String.join(", ", list.stream().map(p -> ((p.p99Ms() == null) ? "-" : String.format(Locale.ROOT, "%.0f", p.p99Ms())) + (p.ok() ? "" : "*")).toList()), joined(list, Probe::cpuMsPerRequest, "%.3f"), joined(list, Probe::gcPercent, "%.1f"),
					mib(c.get("youngCapacityBytes")), mib(c.get("oldCapacityBytes")), number(c.get("youngGcs")), number(c.get("fullGcs")),
					(c.get("gcSeconds") != null) ? String.format(Locale.ROOT, "%.2f", c.get("gcSeconds").doubleValue()) : "-", number(c.get("compiles")),
					mib(c.get("nmethodCodeBytes"))));
		});
		if (!record.preloads().isEmpty()) {
			text.append("\nThe history arm's JVMs, each probed first at a multiple of its load (not counted; then its probes above; * its verdict not OK):\n\n");
			text.append("| entry | JVM | users | p99 ms | rps | GC % | peak heap MiB | verdict, limit |\n|---|---|---|---|---|---|---|---|\n");
			record.preloads().forEach(p -> text.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %.0f | %s | %s | %s |%n", p.entry(), p.jvm(), p.users(),
					((p.p99Ms() == null) ? "-" : String.format(Locale.ROOT, "%.0f", p.p99Ms())) + (p.ok() ? "" : "*"), p.rps(),
					(p.gcPercent() == null) ? "-" : String.format(Locale.ROOT, "%.1f", p.gcPercent()),
					(p.peakHeapMiB() == null) ? "-" : String.format(Locale.ROOT, "%.0f", p.peakHeapMiB()),
					(p.ok() ? "OK" : "not OK") + ((p.limit() == null || p.limit().isBlank()) ? "" : ", " + p.limit()))));
		}
		return text.toString();
	}

	private static String joined(List<Probe> probes, java.util.function.Function<Probe, Double> value, String format) {
		return String.join(", ", probes.stream().map(p -> (value.apply(p) == null) ? "-" : String.format(Locale.ROOT, format, value.apply(p))).toList());
	}

	private static String mib(Number bytes) {
		return (bytes == null) ? "-" : String.format(Locale.ROOT, "%.1f", bytes.doubleValue() / (1 << 20));
	}

	private static String number(Number n) {
		return (n == null) ? "-" : String.format(Locale.ROOT, "%,d", n.longValue());
	}

	private static Map<Integer, List<Double>> grouped(List<Probe> probes, boolean p99) {
		Map<Integer, List<Double>> byJvm = new TreeMap<>();
		for (Probe p : probes) {
			if (p.ok()) {
				byJvm.computeIfAbsent(p.jvm(), j -> new ArrayList<>()).add(p99 ? p.p99Ms() : p.rps());
			}
		}
		return byJvm;
	}

	private static String percent(Spread spread, boolean between) {
		if (spread == null) {
			return "-";
		}
		return String.format(Locale.ROOT, "±%.1f%%", 100 * (between ? spread.betweenSd() : spread.withinSd()));
	}

	private static String withHigh(Spread spread) {
		return (spread == null || !Double.isFinite(spread.betweenSdHigh())) ? percent(spread, true)
				: percent(spread, true) + String.format(Locale.ROOT, " (≤ %.1f%%)", 100 * spread.betweenSdHigh());
	}

}
