package lab.analyse.judge;

import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A rule that compares one figure with its threshold, judged by {@link #judge} from its declaration alone: the
 * figure (times {@code factor}) above or below the threshold makes the level what {@code effect} says, with the
 * reason {@code reason} renders. Its threshold is read from the run's {@link Thresholds} by {@code key} (a rule
 * without a key compares with {@code defaultValue}, fixed). A figure that could not be computed gives {@code unknown}
 * as an INVALID reason when the rule declares one ("could not be computed"), else nothing.
 * <p>
 * {@code reason} names {@code {value}} (the figure as {@code valueFormat} writes it), {@code {bound}} (the threshold
 * with its unit) and any figure of the level as {@code {field}} (as its column writes it).
 *
 * @param name the rule's name in the docs and the code
 * @param key its threshold's name in the manifest's {@code thresholds}, or null for a fixed bound
 * @param scope judged on each repeat (a verdict), or once on the level's combined figures (a note only)
 */
public record FigureRule(String name, String key, double defaultValue, String unit, Rule.Effect effect, Figure figure, Op op, double factor,
		String valueFormat, String reason, String unknown, Scope scope) {

	public FigureRule {
		Objects.requireNonNull(figure);
		Objects.requireNonNull(reason);
		if (scope == Scope.LEVEL && effect != Rule.Effect.NOTE) {
			throw new IllegalArgumentException(name + ": a rule judged on the combined level only names a note");
		}
		if (effect == Rule.Effect.INTERRUPTED) {
			throw new IllegalArgumentException(name + ": only the person interrupts a run");
		}
	}

	/** How the figure is compared with the threshold. */
	public enum Op {

		ABOVE(">"), BELOW("<");

		private final String sign;

		Op(String sign) {
			this.sign = sign;
		}

		boolean holds(double value, double bound) {
			return (this == ABOVE) ? value > bound : value < bound;
		}

		public String sign() {
			return this.sign;
		}

	}

	/** What a rule is judged on. */
	public enum Scope {
		/** Each repeat's own figures: any repeat that breaks it sets the level's verdict. */
		EACH_REPEAT,
		/** The level's figures, its repeats combined: a note on the row. */
		LEVEL
	}

	/** A rule's finding for one repeat or level: what it makes the level, and why. */
	public record Finding(FigureRule rule, Rule.Effect effect, String reason) {
	}

	/** A rule comparing {@code figure} with a threshold named {@code key}. */
	public static FigureRule of(String name, String key, double defaultValue, String unit, Rule.Effect effect, Figure figure, Op op, String reason) {
		return new FigureRule(name, key, defaultValue, unit, effect, figure, op, 1, "%.0f", reason, null, Scope.EACH_REPEAT);
	}

	/** The same rule, the figure multiplied by {@code factor} before it is compared (a ratio judged in %). */
	public FigureRule times(double factor) {
		return new FigureRule(this.name, this.key, this.defaultValue, this.unit, this.effect, this.figure, this.op, factor, this.valueFormat,
				this.reason, this.unknown, this.scope);
	}

	/** The same rule, its figure written by {@code valueFormat} in the reason. */
	public FigureRule writing(String valueFormat) {
		return new FigureRule(this.name, this.key, this.defaultValue, this.unit, this.effect, this.figure, this.op, this.factor, valueFormat,
				this.reason, this.unknown, this.scope);
	}

	/** The same rule, an INVALID reason when its figure could not be computed. */
	public FigureRule unknown(String unknown) {
		return new FigureRule(this.name, this.key, this.defaultValue, this.unit, this.effect, this.figure, this.op, this.factor, this.valueFormat,
				this.reason, unknown, this.scope);
	}

	/** The threshold this rule is judged by in a run. */
	public double bound(Thresholds thresholds) {
		return (this.key == null) ? this.defaultValue : thresholds.value(this.key, this.defaultValue);
	}

	/** The rule judged on one repeat's or level's figures: its finding, if it holds. */
	public Optional<Finding> judge(Map<Figure, Double> figures, Thresholds thresholds) {
		double value = figures.getOrDefault(this.figure, Double.NaN) * this.factor;
		if (Double.isNaN(value)) {
			return Optional.ofNullable(this.unknown).map(text -> new Finding(this, Rule.Effect.INVALID, text));
		}
		double bound = bound(thresholds);
		if (!this.op.holds(value, bound)) {
			return Optional.empty();
		}
		return Optional.of(new Finding(this, this.effect, render(value, bound, figures)));
	}

	private static final Pattern PLACEHOLDER = Pattern.compile("\\{(\\w+)}");

	private String render(double value, double bound, Map<Figure, Double> figures) {
		Matcher matcher = PLACEHOLDER.matcher(this.reason);
		StringBuilder out = new StringBuilder();
		while (matcher.find()) {
			String name = matcher.group(1);
			String text = switch (name) {
				case "value" -> String.format(Locale.ROOT, this.valueFormat, value);
				case "bound" -> Rule.format(bound, this.unit);
				default -> figures.entrySet().stream().filter(e -> e.getKey().field().equals(name)).findFirst()
					.map(e -> e.getKey().shown().format().write(e.getValue()))
					.orElseThrow(() -> new IllegalStateException(this.name + "'s reason names an unknown figure {" + name + "}"));
			};
			matcher.appendReplacement(out, Matcher.quoteReplacement(text));
		}
		matcher.appendTail(out);
		return out.toString();
	}

}
