package lab.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

import lab.analyse.LevelJson;
import lab.analyse.search.Interval;
import lab.analyse.search.SearchRecord;
import lab.analyse.search.SearchSummary;
import lab.layout.LatencyTarget;
import lab.layout.LoadShape;
import lab.layout.ServiceDir;
import lab.report.SearchPrecision;
import lab.run.search.InterleavedSearch;

/**
 * What a capacity search says and writes when it ends: each entry's capacity within the target with its interval and
 * the limit at its knee (on the console and in its {@link ServiceDir#CAPACITY}), each ratio to the baseline, the
 * precision's sizing, where the minutes went, the rounds marked; the crossings to {@link CapacityHistory}, where the
 * next run on this host starts.
 */
final class SearchEnd {

	private final InterleavedSearch search;

	private final SearchSummary summary;

	private final LatencyTarget target;

	private final LoadShape shape;

	private final String twin;

	private final Consumer<String> say;

	SearchEnd(InterleavedSearch search, SearchRecord record, LatencyTarget target, LoadShape shape, String twin, Consumer<String> say) {
		this.search = search;
		this.summary = SearchSummary.of(record);
		this.target = target;
		this.shape = shape;
		this.twin = twin;
		this.say = say;
	}

	/**
	 * @param dirs an entry's directory by its label
	 * @param history where the crossings are recorded for this host
	 */
	void write(Function<String, Path> dirs, CapacityHistory history, String scenario, String arm, String commit) throws IOException {
		String unit = (this.shape == LoadShape.OPEN) ? "requests/s" : "users";
		for (SearchSummary.EntryResult result : this.summary.entries()) {
			this.say.accept(String.format(Locale.ROOT, "lab: %s within %s: %s%s", result.entry(), this.target.describe(), result.describe(unit),
					result.limit().isEmpty() ? "" : "; bound at its knee by " + result.limit()));
			Map<String, Object> file = new LinkedHashMap<>();
			file.put("target", this.target.text());
			file.put("found", result.bracket());
			file.put("crossing", result.capacity());
			file.put("probes", this.search.probes().stream().filter(p -> p.entry().equals(result.entry())).toList());
			file.put("limit", result.limit());
			LevelJson.json.writeValue(dirs.apply(result.entry()).resolve(ServiceDir.CAPACITY).toFile(), file);
		}
		Map<String, Double> crossings = new LinkedHashMap<>();
		this.summary.entries().stream().filter(e -> e.capacity().n() > 0 && Double.isFinite(e.capacity().estimate()))
			.forEach(e -> crossings.put(e.entry(), e.capacity().estimate()));
		if (!crossings.isEmpty()) {
			Map<String, Interval> ratios = new LinkedHashMap<>();
			this.summary.ratios().forEach(r -> ratios.put(r.entry(), r.interval()));
			history.record(scenario, arm, this.target, crossings, commit, this.summary.record().baseline(), ratios);
		}
		for (SearchSummary.Ratio ratio : this.summary.ratios()) {
			this.say.accept(String.format(Locale.ROOT, "lab: %s / %s: %s%s", ratio.entry(), ratio.baseline(), ratio.describe(),
					ratio.entry().equals(this.twin) ? " (A/A: the run's noise floor)" : ""));
		}
		String precision = SearchPrecision.of(this.summary);
		if (precision != null) {
			this.say.accept("lab: " + precision);
		}
		String minutes = this.search.costs().describe();
		if (minutes != null) {
			this.say.accept("lab: the search, " + minutes);
		}
		List<String> moved = new ArrayList<>();
		this.search.rounds().stream().filter(r -> r.moved()).forEach(r -> moved.add(Integer.toString(r.index())));
		if (!moved.isEmpty()) {
			this.say.accept("lab: rounds " + String.join(", ", moved) + " were marked (their CPU reference moved) and not used");
		}
	}

}
