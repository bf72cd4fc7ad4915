package lab.run.search;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import lab.analyse.search.Interval;
import lab.analyse.search.SearchSettings;
import lab.analyse.search.SearchSummary;
import lab.layout.LatencyTarget;
import lab.plan.VariancePrior;
import lab.run.search.SyntheticLab.Shape;
import lab.run.search.SyntheticLab.Truth;
import lab.run.search.SyntheticLab.World;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The capacity search's stated precision, checked against known truths: a synthetic lab with the noise measured here,
 * run 1,000 times (seeded), and the fraction of runs whose 95% intervals hold the true capacity and the true ratio,
 * per knee shape. The lab: five entries with known capacities (knees shaped like the lab's variants': flat like
 * WebFlux's, medium, sharp like the platform pool's, and a cliff where the heap runs out just past the knee); each JVM
 * an offset drawn afresh (log-normal, SD drawn per run from 2-8%, as measured between runs here); each round a drift
 * of the host shared by every entry (SD 2%); each probe's p99 a sampling wobble (SD 8%, as measured at one load over
 * 15 s); every probe 35 s and every start 90 s of a 28-minute budget, 5 starts spent before the search. Half the runs
 * start their bracket from an earlier run's crossings (the truth off by up to 25%), half from 1,000 users. The
 * procedure of commit 0ffeb39 (one JVM per entry, crossings borrowed across rounds) covered 32-66% for capacities and
 * 58-74% for ratios on this lab, and 62% of its "resolved to ±5%" claims were off by more than 5%.
 */
class CoverageTests {

	static final List<SyntheticLab.Truth> TRUTHS = List.of(new SyntheticLab.Truth("webflux", 3100, SyntheticLab.Shape.FLAT),
			new SyntheticLab.Truth("tomcat", 1050, SyntheticLab.Shape.MEDIUM), new SyntheticLab.Truth("platform", 390, SyntheticLab.Shape.SHARP),
			new SyntheticLab.Truth("webflux-loom", 2300, SyntheticLab.Shape.CLIFF), new SyntheticLab.Truth("jetty", 1400, SyntheticLab.Shape.FLAT));

	static final String BASELINE = "webflux";

	/** Covered / had an interval, per row of the table. */
	static final class Tally {

		int covered;

		int stated;

		int none;

		/** Misses whose interval lay wholly below the truth (the rest lay above it). */
		int below;

		void add(Interval interval, double truth) {
			if (!interval.hasSpread()) {
				this.none++;
				return;
			}
			this.stated++;
			if (interval.low() <= truth && truth <= interval.high()) {
				this.covered++;
			}
			else if (interval.high() < truth) {
				this.below++;
			}
		}

		double percent() {
			return 100.0 * this.covered / Math.max(1, this.stated);
		}

		/** Covered of every run, a run without an interval a miss. */
		double percentOfRuns() {
			return 100.0 * this.covered / Math.max(1, this.stated + this.none);
		}

	}

	@Test
	void statedNinetyFivePercentIntervalsHoldTheTruthAtLeastNinetyPercentOfTheTimeForEveryKnee() throws Exception {
		Map<String, Tally> capacities = new LinkedHashMap<>();
		Map<String, Tally> ratios = new LinkedHashMap<>();
		Map<String, Tally> byLevel = new java.util.TreeMap<>();
		int claims = 0;
		int wrongClaims = 0;
		List<Double> minutes = new ArrayList<>();
		for (int run = 0; run < 1000; run++) {
			SyntheticLab lab = new SyntheticLab(TRUTHS, run, 28 * 60);
			Map<String, Integer> starts = new LinkedHashMap<>();
			if (run % 2 == 0) {
				// An earlier run's crossings on this host: the truth, off by up to 25%.
				TRUTHS.forEach(t -> starts.put(t.name(), (int) Math.round(t.capacity() * Math.exp(0.25 * (2 * lab.random.nextDouble() - 1)))));
			}
			SearchSettings settings = new SearchSettings(1000, 16_000, 50, 4, 5, 10, 2, run, LatencyTarget.DEFAULT, 500, 2, starts.isEmpty() ? 2 : 1.5, starts);
			InterleavedSearch search = new InterleavedSearch(TRUTHS.stream().map(SyntheticLab.Truth::name).toList(), settings);
			search.run(lab);
			minutes.add(lab.elapsed / 60);
			SearchSummary summary = SearchSummary.of(search.record("default", BASELINE, null));
			for (SearchSummary.EntryResult entry : summary.entries()) {
				SyntheticLab.Truth truth = lab.truth(entry.entry());
				capacities.computeIfAbsent(truth.shape() + " " + truth.name(), k -> new Tally()).add(entry.capacity(), truth.capacity());
				byLevel.computeIfAbsent(entry.capacity().jvmLevel() + ", " + entry.capacity().jvms() + " JVM(s)", k -> new Tally()).add(entry.capacity(),
						truth.capacity());
			}
			for (SearchSummary.Ratio ratio : summary.ratios()) {
				SyntheticLab.Truth truth = lab.truth(ratio.entry());
				double trueRatio = truth.capacity() / lab.truth(BASELINE).capacity();
				ratios.computeIfAbsent(truth.shape() + " " + truth.name() + " / " + BASELINE, k -> new Tally()).add(ratio.interval(), trueRatio);
				if (ratio.resolvedWithin(5)) {
					claims++;
					if (Math.abs(ratio.interval().estimate() / trueRatio - 1) > 0.05) {
						wrongClaims++;
					}
				}
			}
		}
		StringBuilder table = new StringBuilder("coverage of the stated 95% intervals over 1,000 synthetic runs\n");
		capacities.forEach((row, t) -> table.append(String.format(Locale.ROOT, "  capacity %-34s %5.1f%% of %4d (no interval: %d)%n", row, t.percent(), t.stated, t.none)));
		byLevel.forEach((row, t) -> table.append(String.format(Locale.ROOT, "  capacity, JVM level %-23s %5.1f%% of %4d%n", row, t.percent(), t.stated)));
		ratios.forEach((row, t) -> table.append(String.format(Locale.ROOT, "  ratio    %-34s %5.1f%% of %4d (no interval: %d)%n", row, t.percent(), t.stated, t.none)));
		table.append(String.format(Locale.ROOT, "  \"resolved to ±5%%\": %d claims, %d off by more than 5%% (%.1f%%)%n", claims, wrongClaims,
				100.0 * wrongClaims / Math.max(1, claims)));
		table.append(String.format(Locale.ROOT, "  minutes per run: median %.1f, max %.1f%n", minutes.stream().sorted().toList().get(minutes.size() / 2),
				minutes.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
		System.out.print(table);
		capacities.forEach((row, t) -> assertThat(t.percent()).as("capacity %s\n%s", row, table).isGreaterThanOrEqualTo(90));
		ratios.forEach((row, t) -> assertThat(t.percent()).as("ratio %s\n%s", row, table).isGreaterThanOrEqualTo(90));
		assertThat(100.0 * wrongClaims / Math.max(1, claims)).as("resolved claims off by more than 5%%\n%s", table).isLessThanOrEqualTo(5);
		assertThat(minutes).allSatisfy(m -> assertThat(m).isLessThanOrEqualTo(30));
	}


	/** The lab's variants as the harder world has them: their names, so that the shipped prior knows them. */
	static final List<Truth> VARIANTS = List.of(new Truth("app-webflux", 3100, Shape.FLAT), new Truth("app-tomcat-loom", 1050, Shape.MEDIUM),
			new Truth("app-tomcat-platform", 390, Shape.SHARP), new Truth("app-webflux-loom", 2300, Shape.CLIFF), new Truth("app-jetty-loom", 1400, Shape.FLAT));

	/**
	 * A harder world than the measured one: each variant's own JVM-to-JVM spread, from 1% to 18% (the spread of its crossing
	 * between five whole runs here); one variant per run shifted as a whole (SD 8%: the fifth run's WebFlux at 2,130 users
	 * against 2,340-2,640); the p99 wobble drawn per run from 8% to 15%; one round in ten on a host 12% slower, which the
	 * CPU reference times.
	 */
	static final World HARDER = new World(Map.of("app-webflux", 0.091, "app-webflux-loom", 0.175, "app-jetty-loom", 0.126, "app-tomcat-loom", 0.069,
			"app-tomcat-platform", 0.01), 0.08, 0.08, 0.15, 0.10, 0.12);

	/** A study's coverage per row: fresh host or with history, capacity or ratio; a run without an interval is a miss. */
	record Study(Map<String, Tally> rows, Map<String, List<Double>> halfWidths, double maxMinutes) {

		double lowest() {
			return this.rows.values().stream().mapToDouble(Tally::percentOfRuns).min().orElseThrow();
		}

		double highest() {
			return this.rows.values().stream().mapToDouble(Tally::percentOfRuns).max().orElseThrow();
		}

		String table(String title) {
			StringBuilder table = new StringBuilder(title + "\n");
			this.rows.forEach((row, t) -> table.append(String.format(Locale.ROOT, "  %-52s %5.1f%% of %4d (no interval: %d; misses below/above %d/%d), mean half-width ±%.0f%%%n", row,
					t.percentOfRuns(), t.stated + t.none, t.none, t.below, t.stated - t.covered - t.below, this.halfWidths.get(row).stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN))));
			return table.append(String.format(Locale.ROOT, "  minutes per run: max %.1f%n", this.maxMinutes)).toString();
		}

	}

	/**
	 * {@code runs} searches of {@code truths} on hosts of {@code world}, their intervals stated with {@code prior}: half on a
	 * fresh host (bracketing from the lab's shipped crossings, which miss this host by a factor of up to 1.35 for all and
	 * 1.1 for each), half with history (the host's last crossings, off by up to 10%).
	 */
	static Study study(List<Truth> truths, World world, VariancePrior prior, int runs) throws Exception {
		Map<String, Tally> rows = new LinkedHashMap<>();
		Map<String, List<Double>> halfWidths = new LinkedHashMap<>();
		double maxMinutes = 0;
		String baseline = truths.get(0).name();
		for (int run = 0; run < runs; run++) {
			SyntheticLab lab = new SyntheticLab(truths, 7_000 + run, 28 * 60, world);
			boolean fresh = run % 2 == 0;
			double host = fresh ? Math.exp(0.3 * (2 * lab.random.nextDouble() - 1)) : 1;
			Map<String, Integer> starts = new LinkedHashMap<>();
			truths.forEach(t -> starts.put(t.name(), (int) Math.round(t.capacity() * host * Math.exp(0.1 * (2 * lab.random.nextDouble() - 1)))));
			SearchSettings settings = new SearchSettings(1000, 16_000, 50, 4, 5, 10, 2, run, LatencyTarget.DEFAULT, 500, 2, SearchSettings.STEP_NEAR_KNEE, starts, prior);
			InterleavedSearch search = new InterleavedSearch(truths.stream().map(Truth::name).toList(), settings);
			search.run(lab);
			maxMinutes = Math.max(maxMinutes, lab.elapsed / 60);
			SearchSummary summary = SearchSummary.of(search.record("default", baseline, null));
			String host_ = fresh ? "fresh host" : "with history";
			for (Truth truth : truths) {
				SearchSummary.EntryResult entry = summary.entry(truth.name());
				String row = host_ + ", capacity " + truth.shape() + " " + truth.name();
				add(rows, halfWidths, row, (entry == null) ? Interval.NONE : entry.capacity(), truth.capacity());
				if (!truth.name().equals(baseline)) {
					SearchSummary.Ratio ratio = summary.ratios().stream().filter(r -> r.entry().equals(truth.name())).findFirst().orElse(null);
					add(rows, halfWidths, host_ + ", ratio " + truth.name() + " / " + baseline, (ratio == null) ? Interval.NONE : ratio.interval(),
							truth.capacity() / truths.get(0).capacity());
				}
			}
		}
		return new Study(rows, halfWidths, maxMinutes);
	}

	private static void add(Map<String, Tally> rows, Map<String, List<Double>> halfWidths, String row, Interval interval, double truth) {
		rows.computeIfAbsent(row, k -> new Tally()).add(interval, truth);
		if (interval.hasSpread()) {
			halfWidths.computeIfAbsent(row, k -> new ArrayList<>()).add(100 * (Math.sqrt(interval.high() / interval.low()) - 1));
		}
		else {
			halfWidths.computeIfAbsent(row, k -> new ArrayList<>());
		}
	}


	@Test
	void inAHarderWorldTheShippedPriorsIntervalsHoldTheTruthNeitherTooRarelyNorTooOften() throws Exception {
		Study shipped = study(VARIANTS, HARDER, VariancePrior.SHIPPED, 2000);
		Study uniform = study(VARIANTS, HARDER, VariancePrior.UNIFORM, 600);
		String tables = shipped.table("the harder world, the shipped per-variant prior with its run level (2,000 runs)")
				+ uniform.table("the harder world, one prior for all, 7.5% (the lab's before it shipped per-variant ones; 600 runs)");
		System.out.print(tables);
		// 93-98% for every row. Rows resting on a flat knee (WebFlux's and Jetty's, elasticity 0.45) held 91.9-94.7% while
		// the elasticity was fitted as the probes fell: the bracket's last two probes straddle the target because their p99
		// wobbled apart, so their slope read the knee at about 0.65, the crossings spread less than the knee moves, and the
		// round level was understated. With that selection taken out (Elasticity.unselected) they hold 93.3-96.2%. Tomcat +
		// VT's capacity rests on one JVM (JvmPlan) and the prior's JVM level: while that was 2 × its spread between runs
		// (9.8%), the run level inside it counted a second time beside it, and the row held 97.9-98.8%; derived net of the
		// run level (VariancePrior.jvmVariance, 8.4%) it holds 97.2-98.0%. 1,000 runs a row move a row by about 0.4 points.
		shipped.rows().forEach((row, t) -> {
			assertThat(t.percentOfRuns()).as("%s: wider than it needs to be\n%s", row, tables).isLessThanOrEqualTo(98);
			assertThat(t.percentOfRuns()).as("%s\n%s", row, tables).isGreaterThanOrEqualTo(93);
		});
		assertThat(shipped.lowest()).as(tables).isGreaterThan(uniform.lowest());
		assertThat(shipped.maxMinutes()).isLessThanOrEqualTo(30);
	}

	@Test
	void negativeControlsFallShort() throws Exception {
		// No run level: a variant's whole run shifted (one in five here) is seen by no JVM of that run, and the quiet platform
		// pool's interval, on its one JVM, misses it.
		Study noRun = study(VARIANTS, HARDER, VariancePrior.SHIPPED.withoutRunLevel(), 600);
		System.out.print(noRun.table("control: no run level (600 runs)"));
		assertThat(noRun.lowest()).as(noRun.table("")).isLessThan(93);
		assertThat(noRun.rows().get("fresh host, capacity SHARP app-tomcat-platform").percentOfRuns()).isLessThan(93);
		// No JVM level: rounds alone cannot see how far one JVM lies from another.
		Study noJvm = study(VARIANTS, HARDER, VariancePrior.SHIPPED.withoutJvmTerm(), 300);
		System.out.print(noJvm.table("control: no JVM level (300 runs)"));
		assertThat(noJvm.lowest()).as(noJvm.table("")).isLessThan(93);
		// A prior of 2% for every variant where every variant's JVMs spread 15%.
		World wide = new World(Map.of("app-webflux", 0.15, "app-webflux-loom", 0.15, "app-jetty-loom", 0.15, "app-tomcat-loom", 0.15,
				"app-tomcat-platform", 0.15), 0, 0.08, 0.08, 0, 0);
		Study narrow = study(VARIANTS, wide, VariancePrior.SHIPPED.everyVariant(0.02), 300);
		System.out.print(narrow.table("control: a 2% prior where the truth is 15% (300 runs)"));
		assertThat(narrow.lowest()).as(narrow.table("")).isLessThan(93);
	}

}
