package lab.analyse;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import lab.analyse.judge.Figure;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.analyse.search.BetweenRuns;
import lab.analyse.search.SearchSummary;
import lab.analyse.search.TuneSummary;

/**
 * Several runs side by side: per variant and load, each run's figures, and with a baseline each other run's change
 * against it, called beyond noise only when it exceeds both the stated noise bound and the spread the two runs'
 * own repeats showed. Changes are computed only between levels both runs judged OK: an INVALID level did not
 * measure the service and a FAILED one measured its failure. The runs' capacity searches compared between runs are
 * computed here too, once: {@code between} each ratio to its baseline, {@code pairs} every pair of variants
 * ({@link BetweenRuns}); the writer only renders them.
 */
public record Comparison(List<Run> runs, int baseline, double noisePercent, List<Row> rows,
		List<BetweenRuns> between, List<BetweenRuns> pairs) {

	/**
	 * One results directory, analysed; its interleaved capacity searches, summarised (none for a run without); a tune
	 * run's answer (null for another run); the downstream clients its services read back ({@link Analyser#clients}).
	 */
	public record Run(String name, Path dir, Manifest manifest, List<LevelResult> levels, List<SearchSummary> searches,
			TuneSummary tune, Map<String, String> clients) {

		public Run(String name, Path dir, Manifest manifest, List<LevelResult> levels) {
			this(name, dir, manifest, levels, List.of(), null, Map.of());
		}

	}

	/** One variant at one load: each run's level (null where a run did not measure it) and the changes. */
	public record Row(String variant, int load, List<LevelResult> levels, List<Change> changes) {
	}

	/**
	 * One run's change against the baseline at a row, in % of the baseline's figure, for each figure declared as
	 * compared with a change ({@link Figure.Compared#isChanged}; NaN where not comparable). {@code bound}: the change a
	 * figure must exceed to count, the larger of the noise bound and the two runs' repeat spread. {@code note}: why
	 * nothing was compared, or that the verdict changed.
	 */
	public record Change(Map<Figure, Double> percents, double bound, String note) {

		public Change {
			percents = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(percents));
		}

		/** The change of {@code figure}, NaN where none was computed. */
		public double percent(Figure figure) {
			return this.percents.getOrDefault(figure, Double.NaN);
		}

		public boolean beyond(double percent) {
			return Double.isFinite(percent) && Math.abs(percent) > this.bound;
		}

		/** Whether {@code figure} changed beyond the bound in its worse direction (a fall in throughput, a rise in latency). */
		public boolean worse(Figure figure) {
			double percent = percent(figure);
			return beyond(percent) && ((figure.compared().higherIsBetter()) ? percent < 0 : percent > 0);
		}

		static final Change NONE = new Change(Map.of(), Double.NaN, "");

	}

	/**
	 * @param baseline index of the baseline run, or -1 for none
	 * @param noisePercent the smallest change called beyond noise where repeats give no larger spread
	 */
	public static Comparison of(List<Run> runs, int baseline, double noisePercent) {
		Map<String, Map<Integer, LevelResult[]>> byVariant = new LinkedHashMap<>();
		for (int i = 0; i < runs.size(); i++) {
			for (LevelResult level : runs.get(i).levels()) {
				byVariant.computeIfAbsent(level.variant(), k -> new java.util.TreeMap<>())
					.computeIfAbsent(level.load(), k -> new LevelResult[runs.size()])[i] = level;
			}
		}
		List<Row> rows = new ArrayList<>();
		byVariant.forEach((variant, byLoad) -> byLoad.forEach((load, levels) -> {
			List<Change> changes = new ArrayList<>();
			for (int i = 0; i < levels.length; i++) {
				changes.add((baseline < 0 || i == baseline) ? Change.NONE : change(levels[baseline], levels[i], noisePercent));
			}
			rows.add(new Row(variant, load, java.util.Arrays.asList(levels), changes));
		}));
		Map<String, List<SearchSummary>> searches = new LinkedHashMap<>();
		runs.forEach(run -> searches.put(run.name(), run.searches()));
		return new Comparison(List.copyOf(runs), baseline, noisePercent, rows, BetweenRuns.of(searches, false), BetweenRuns.of(searches, true));
	}

	public static Change change(LevelResult base, LevelResult other, double noisePercent) {
		if (base == null || other == null) {
			return new Change(Map.of(), Double.NaN, (base == null) ? "not in the baseline" : "not measured");
		}
		if (base.verdict() != Verdict.OK || other.verdict() != Verdict.OK) {
			String note = (base.verdict() != other.verdict()) ? "verdict " + base.verdict() + " → " + other.verdict()
					: "not compared: " + other.verdict() + " in both";
			return new Change(Map.of(), Double.NaN, note);
		}
		double bound = Math.max(noisePercent, Math.max(spreadPercent(base), spreadPercent(other)));
		Map<Figure, Double> percents = new LinkedHashMap<>();
		for (Figure figure : changed(List.of(base))) {
			percents.put(figure, percent(base, other, r -> r.value(figure)));
		}
		return new Change(percents, bound, "");
	}

	/** The figures compared side by side, in declaration order (those of the levels given, else the lab's). */
	public static List<Figure> compared(List<LevelResult> levels) {
		return Figures.of(levels).stream().filter(f -> f.compared().isShown()).toList();
	}

	/** The compared figures whose change against a baseline is computed. */
	public static List<Figure> changed(List<LevelResult> levels) {
		return compared(levels).stream().filter(f -> f.compared().isChanged()).toList();
	}

	/** The range of a level's repeats in % of their median rps, 0 for a single run. */
	static double spreadPercent(LevelResult level) {
		return (level.repeats() > 1 && level.rps() > 0) ? 100 * (level.rpsMax() - level.rpsMin()) / level.rps() : 0;
	}

	private static double percent(LevelResult base, LevelResult other, ToDoubleFunction<LevelResult> metric) {
		double a = metric.applyAsDouble(base);
		double b = metric.applyAsDouble(other);
		return (Double.isFinite(a) && Double.isFinite(b) && a > 0) ? 100 * (b - a) / a : Double.NaN;
	}

	/** A change as the report prints it: signed whole percent, a dash where not comparable. */
	public static String signed(double percent) {
		if (!Double.isFinite(percent)) {
			return "-";
		}
		long whole = Math.round(percent);
		return ((whole > 0) ? "+" : "") + whole + "%";
	}

	/**
	 * What got worse against the baseline, one entry per run and row: a compared figure beyond the bound in its worse
	 * direction, or a level the baseline judged OK that is not OK (or not measured) in the run. Empty without a baseline.
	 */
	public List<String> worse() {
		List<String> worse = new ArrayList<>();
		if (!hasBaseline()) {
			return worse;
		}
		for (Row row : this.rows) {
			LevelResult base = row.levels().get(this.baseline);
			for (int i = 0; i < this.runs.size(); i++) {
				if (i == this.baseline || base == null || base.verdict() != Verdict.OK) {
					continue;
				}
				LevelResult other = row.levels().get(i);
				Change change = row.changes().get(i);
				String where = this.runs.get(i).name() + ": " + row.variant() + " at " + row.load();
				if (other == null || other.verdict() != Verdict.OK) {
					worse.add(where + " " + ((other == null) ? "not measured" : other.verdict().name()) + " (OK in the baseline)");
					continue;
				}
				for (Figure figure : change.percents().keySet()) {
					if (change.worse(figure)) {
						worse.add(where + " " + figure.field() + " " + signed(change.percent(figure)) + " (bound " + Math.round(change.bound()) + "%)");
					}
				}
			}
		}
		return worse;
	}

	public boolean hasBaseline() {
		return this.baseline >= 0;
	}

	public Run baselineRun() {
		return hasBaseline() ? this.runs.get(this.baseline) : null;
	}

}
