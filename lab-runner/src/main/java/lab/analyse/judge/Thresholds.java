package lab.analyse.judge;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonValue;
import tools.jackson.databind.JsonNode;

/**
 * The value of every {@link Rule}'s threshold a run is judged by. Printed in every report and recorded in the
 * manifest as {@code thresholds}, one field per rule ({@link Rule#key}).
 */
public final class Thresholds {

	public static final Thresholds DEFAULT = new Thresholds(defaults());

	private final Map<Rule, Double> values;

	private Thresholds(Map<Rule, Double> values) {
		this.values = Collections.unmodifiableMap(new EnumMap<>(values));
	}

	private static Map<Rule, Double> defaults() {
		Map<Rule, Double> values = new EnumMap<>(Rule.class);
		Rule.withThresholds().forEach(rule -> values.put(rule, rule.defaultValue()));
		return values;
	}

	/** The threshold of {@code rule} (a rule without one has none). */
	public double get(Rule rule) {
		Double value = this.values.get(rule);
		if (value == null) {
			throw new IllegalArgumentException(rule + " has no threshold");
		}
		return value;
	}

	/** The threshold named {@code key} (a rule's {@link Rule#key}); {@code fallback} for a key no rule of the lab declares. */
	public double value(String key, double fallback) {
		return Rule.byKey(key).map(this::get).orElse(fallback);
	}

	/** These thresholds with {@code rule}'s set to {@code value}. */
	public Thresholds with(Rule rule, double value) {
		get(rule);
		Map<Rule, Double> changed = new EnumMap<>(this.values);
		changed.put(rule, value);
		return new Thresholds(changed);
	}

	/** The manifest's {@code thresholds}: each rule's key and value, in declaration order. */
	@JsonValue
	public Map<String, Number> asMap() {
		Map<String, Number> map = new LinkedHashMap<>();
		this.values.forEach((rule, value) -> map.put(rule.key(), (value == Math.rint(value)) ? (Number) value.longValue() : value));
		return map;
	}

	/**
	 * The thresholds a run recorded in its manifest ({@code thresholds}), so a report rendered again judges old data
	 * by the rules it was measured under; a threshold the run did not record (one newer than the run) takes today's
	 * default, and {@link #defaultedIn} names it.
	 */
	public static Thresholds recordedIn(JsonNode manifest) {
		JsonNode recorded = manifest.path("thresholds");
		Map<Rule, Double> values = defaults();
		for (Rule rule : Rule.withThresholds()) {
			if (recorded.path(rule.key()).isNumber()) {
				values.put(rule, recorded.path(rule.key()).asDouble());
			}
		}
		return new Thresholds(values);
	}

	/** The thresholds a run did not record, each with the default it is judged by now ("notWarmJitPercent 10"). */
	public static List<String> defaultedIn(JsonNode manifest) {
		JsonNode recorded = manifest.path("thresholds");
		List<String> missing = new ArrayList<>();
		for (Rule rule : Rule.withThresholds()) {
			if (!recorded.path(rule.key()).isNumber()) {
				missing.add(rule.key() + " " + DEFAULT.asMap().get(rule.key()));
			}
		}
		return missing;
	}

	public double downstreamOverheadLimitMs(long delayMs) {
		return Math.max(get(Rule.DOWNSTREAM_LATE), delayMs * get(Rule.DOWNSTREAM_LATE_SHARE) / 100.0);
	}

	/** The shortest run of silent seconds judged a stall at this delay. */
	public int stallSeconds(long delayMs) {
		return (int) Math.max(get(Rule.STALL_MIN), Math.ceil(get(Rule.STALL) * delayMs / 1000.0));
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Thresholds that && this.values.equals(that.values);
	}

	@Override
	public int hashCode() {
		return this.values.hashCode();
	}

	@Override
	public String toString() {
		return asMap().toString();
	}

}
