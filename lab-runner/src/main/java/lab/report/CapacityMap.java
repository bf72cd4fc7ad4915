package lab.report;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import lab.analyse.Manifest;
import lab.analyse.judge.Figures;
import lab.analyse.judge.LevelResult;
import lab.analyse.search.SearchSummary;
import lab.plan.Arm;
import lab.plan.Variants;
import lab.plan.Work;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The capacity map of a run that ran each variant under several works per request ({@code works}): per variant, what it
 * serves within the latency target at each work (its capacity search's result, or the highest level that met it), with
 * the CPU per request measured there. Built from the verdicts alone; empty for a run with one work.
 *
 * @param works the works compared, in the run's order
 * @param rows one per variant (in each arm apart from the work), its cells in the order of {@code works}
 */
record CapacityMap(List<Work> works, List<Row> rows) {

	/**
	 * What a variant serves within the target under one work.
	 *
	 * @param load the highest load that met the target (0: none did)
	 * @param rps its throughput
	 * @param cpuMsPerRequest the service's CPU per request at that load (NaN: not measured)
	 * @param missedAt the lowest load that missed it (0: none did, so the capacity is at least {@code load})
	 * @param crossing an interleaved search's crossing with its interval and its ratio to the baseline, in words (null: none)
	 */
	record Cell(int load, double rps, double cpuMsPerRequest, int missedAt, String crossing) {

		Cell(int load, double rps, double cpuMsPerRequest, int missedAt) {
			this(load, rps, cpuMsPerRequest, missedAt, null);
		}

		String text(String loadUnit) {
			if (this.crossing != null) {
				return this.crossing + ((this.load > 0) ? " (met at " + Summaries.number(this.load) + ": " + Summaries.number(this.rps) + " rps, "
						+ Summaries.decimal(this.cpuMsPerRequest) + " ms CPU/req)" : "");
			}
			if (this.load == 0) {
				return (this.missedAt > 0) ? "none (missed at " + Summaries.number(this.missedAt) + ")" : "-";
			}
			return ((this.missedAt == 0) ? "≥ " : "") + Summaries.number(this.load) + " " + loadUnit + " (" + Summaries.number(this.rps) + " rps, "
					+ Summaries.decimal(this.cpuMsPerRequest) + " ms CPU/req)";
		}

	}

	/** One variant's capacities, one cell per work. */
	record Row(String variant, String model, List<Cell> cells) {
	}

	static CapacityMap of(List<VariantVerdict> verdicts, List<LevelResult> levels, Manifest manifest) {
		return of(verdicts, levels, manifest, List.of(), Variants.LAB);
	}

	/** The map, each cell with its interleaved search's crossing and ratio where the run had one. */
	static CapacityMap of(List<VariantVerdict> verdicts, List<LevelResult> levels, Manifest manifest, List<SearchSummary> searches,
			Variants variants) {
		List<Work> works = (manifest.scenario() != null) ? manifest.scenario().requestWorks() : List.of(Work.NONE);
		if (works.size() < 2) {
			return new CapacityMap(works, List.of());
		}
		Map<String, Map<Work, Cell>> byVariant = new LinkedHashMap<>();
		for (VariantVerdict verdict : verdicts) {
			Work work = manifest.work(verdict.variant());
			double cpu = levels.stream()
				.filter(r -> r.variant().equals(verdict.variant()) && r.load() == verdict.withinTargetLoad() && Boolean.TRUE.equals(r.meetsTarget()))
				.mapToDouble(r -> r.value(Figures.CPU_MS_PER_REQUEST))
				.findFirst()
				.orElse(Double.NaN);
			byVariant.computeIfAbsent(Arm.withoutWork(verdict.variant()), k -> new LinkedHashMap<>())
				.put(work, new Cell(verdict.withinTargetLoad(), verdict.withinTargetRps(), cpu, verdict.missesTargetAt(), SearchSection.cell(searches, verdict.variant())));
		}
		List<Row> rows = new ArrayList<>();
		byVariant.forEach((variant, cells) -> rows.add(new Row(variant, variants.modelOf(variant),
				works.stream().map(work -> cells.getOrDefault(work, new Cell(0, Double.NaN, Double.NaN, 0))).toList())));
		return new CapacityMap(works, rows);
	}

	boolean isEmpty() {
		return this.rows.isEmpty();
	}

	/** The templates' scope: a header per work, a row per variant with its cells in words. */
	Map<String, Object> scope(String loadUnit) {
		Map<String, Object> scope = new LinkedHashMap<>();
		scope.put("works", this.works.stream().map(work -> Map.of("label", work.label(), "describe", work.describe())).toList());
		scope.put("rows", this.rows.stream()
			.map(row -> Map.of("variant", row.variant(), "model", Objects.toString(row.model(), ""), "cells",
					row.cells().stream().map(cell -> cell.text(loadUnit)).toList()))
			.toList());
		return scope;
	}

	/** The map as a chart: per variant, its capacity against the work per request (log scale: capacities span decades). */
	Charts.Chart chart(String loadUnit) throws IOException {
		XYChart chart = new XYChartBuilder().width(560).height(400).title("Capacity within the target by work per request")
			.xAxisTitle("work per request (serialise-and-hash rounds)")
			.yAxisTitle(loadUnit + " within the target")
			.build();
		chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
		chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
		chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
		chart.getStyler().setYAxisLogarithmic(true);
		chart.getStyler().setDecimalPattern("#,##0");
		for (Row row : this.rows) {
			List<double[]> points = new ArrayList<>();
			for (int i = 0; i < this.works.size(); i++) {
				if (row.cells().get(i).load() > 0) {
					points.add(new double[] { this.works.get(i).rounds(), row.cells().get(i).load() });
				}
			}
			if (!points.isEmpty()) {
				chart.addSeries(row.variant(), points.stream().mapToDouble(p -> p[0]).toArray(), points.stream().mapToDouble(p -> p[1]).toArray());
			}
		}
		return Charts.encoded(chart);
	}

}
