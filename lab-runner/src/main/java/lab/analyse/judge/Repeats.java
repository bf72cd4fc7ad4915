package lab.analyse.judge;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import lab.analyse.measure.Measurement;
import lab.analyse.read.Latency;
import lab.analyse.read.LevelFacts;
import lab.analyse.read.RequestCounts;
import lab.analyse.stat.Stats;
import org.HdrHistogram.Histogram;

/**
 * A level's repeats as its figures are computed from them ({@link Figure.Compute}): each repeat's measurement, their
 * merged latencies and summed request counts, the histogram of every request sent, the thresholds the run is judged
 * by, and the figures computed so far (in declaration order: a derived figure reads the ones declared before it).
 */
public final class Repeats {

	private final List<Measurement> each;

	private final Latency latency;

	private final RequestCounts counts;

	private final Histogram all;

	private final Thresholds thresholds;

	private final Map<Figure, Double> computed = new LinkedHashMap<>();

	Repeats(List<Measurement> each, Thresholds thresholds) {
		this.each = List.copyOf(each);
		this.latency = Latency.merge(each.stream().map(Measurement::latency).toList());
		this.counts = RequestCounts.sum(each.stream().map(Measurement::counts).toList());
		LevelFacts facts = each.get(0).facts();
		this.all = this.latency.all(this.counts.unanswered(), facts.requestTimeoutMicros());
		this.thresholds = thresholds;
	}

	/** The figures of {@code each}, in the order declared. */
	public static Map<Figure, Double> compute(List<Measurement> each, Thresholds thresholds, List<Figure> figures) {
		Repeats repeats = new Repeats(each, thresholds);
		for (Figure figure : figures) {
			repeats.computed.put(figure, figure.compute().of(repeats));
		}
		return Collections.unmodifiableMap(repeats.computed);
	}

	public LevelFacts facts() {
		return this.each.get(0).facts();
	}

	public List<Measurement> each() {
		return this.each;
	}

	/** Every repeat's latencies, merged. */
	public Latency latency() {
		return this.latency;
	}

	/** Every repeat's requests by outcome, summed. */
	public RequestCounts counts() {
		return this.counts;
	}

	/** Every request sent: successes, failures at their time to fail, unanswered ones at the request timeout. */
	public Histogram all() {
		return this.all;
	}

	public Thresholds thresholds() {
		return this.thresholds;
	}

	/** A figure declared before the one being computed. */
	public double value(Figure figure) {
		Double value = this.computed.get(figure);
		if (value == null) {
			throw new IllegalStateException(figure + " is read before it is computed: declare it earlier");
		}
		return value;
	}

	/** The median of the repeats' values, NaN ones left out; NaN when none. */
	public double median(ToDoubleFunction<Measurement> value) {
		return Stats.median(this.each, value);
	}

	/** The largest of the repeats' values, NaN ones left out; NaN when none. */
	public double max(ToDoubleFunction<Measurement> value) {
		return Stats.max(this.each, value);
	}

	/** The smallest of the repeats' values, NaN ones left out; NaN when none. */
	public double min(ToDoubleFunction<Measurement> value) {
		return this.each.stream().mapToDouble(value).filter(v -> !Double.isNaN(v)).min().orElse(Double.NaN);
	}

}
