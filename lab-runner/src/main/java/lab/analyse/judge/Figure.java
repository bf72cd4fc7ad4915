package lab.analyse.judge;

import java.util.Objects;
import java.util.function.Function;


/**
 * A figure of a level, declared once: its field in {@code summary.json} (also its name in the code), its unit, what it
 * means, how it is computed from the level's repeats ({@link Repeats}), how the report shows it and whether
 * {@code ./lab compare} compares it. {@code summary.json}'s rows ({@code LevelJson.row}), the report's results and
 * details tables, {@code ./lab compare}'s table and compare.json, and the rows of docs/summary-schema.md follow from
 * the declarations in {@link Figures} (in their order); adding a figure is a declaration there and its computation.
 *
 * @param field the field in summary.json's rows
 * @param unit its unit ("" for a count or a ratio named in {@code meaning})
 * @param meaning what it measures, as the schema doc and the column's tooltip say it
 * @param count written as a whole number (a count of requests), else as a decimal ({@code "NaN"} when unknown)
 * @param compute its value for a level from its repeats; NaN where the data was missing
 * @param shown where and how the report shows it
 * @param compared whether and how {@code ./lab compare} sets runs side by side on it
 */
public record Figure(String field, String unit, String meaning, boolean count, Compute compute, Shown shown, Compared compared) {

	public Figure {
		Objects.requireNonNull(field);
		Objects.requireNonNull(compute);
		shown = (shown != null) ? shown : Shown.NOWHERE;
		compared = (compared != null) ? compared : Compared.NOT;
	}

	/** A decimal figure, shown nowhere but in summary.json and not compared. */
	public static Figure of(String field, String unit, String meaning, Compute compute) {
		return new Figure(field, unit, meaning, false, compute, Shown.NOWHERE, Compared.NOT);
	}

	/** This figure shown in {@code table} under {@code column}, cells as {@code format} writes them. */
	public Figure shown(Table table, String column, Format format) {
		return new Figure(this.field, this.unit, this.meaning, this.count, this.compute, new Shown(table, column, format, null, null), this.compared);
	}

	/** This figure shown with {@code shown}. */
	public Figure shown(Shown shown) {
		return new Figure(this.field, this.unit, this.meaning, this.count, this.compute, shown, this.compared);
	}

	/** This figure written as a whole number. */
	public Figure counted() {
		return new Figure(this.field, this.unit, this.meaning, true, this.compute, this.shown, this.compared);
	}

	/** This figure compared between runs as {@code compared} says. */
	public Figure compared(Compared compared) {
		return new Figure(this.field, this.unit, this.meaning, this.count, this.compute, this.shown, compared);
	}

	/** The value of a level from its repeats. */
	@FunctionalInterface
	public interface Compute {

		double of(Repeats repeats);

	}

	/** Which of the report's per-level tables shows a figure: the results table, the details table, or neither. */
	public enum Table {
		MAIN, DETAIL, NONE
	}

	/** How a cell writes a figure. */
	public enum Format {
		/** Whole numbers with thousands separators. */
		NUMBER,
		/** Two decimals. */
		DECIMAL,
		/** Three decimals: CPU ms per request, where 0.02 and 0.09 differ. */
		DECIMAL3,
		/** A ratio as a whole percent: 0.5 is "50%". */
		PERCENT;

		/** A value as a cell writes it; a dash where it is unknown. */
		public String write(double value) {
			if (Double.isNaN(value) || Double.isInfinite(value)) {
				return "-";
			}
			return switch (this) {
				case NUMBER -> String.format(java.util.Locale.ROOT, "%,.0f", value);
				case DECIMAL -> String.format(java.util.Locale.ROOT, "%,.2f", value);
				case DECIMAL3 -> String.format(java.util.Locale.ROOT, "%,.3f", value);
				case PERCENT -> String.format(java.util.Locale.ROOT, "%.0f%%", 100 * value);
			};
		}
	}

	/**
	 * How the report shows a figure.
	 *
	 * @param table the table with a column for it
	 * @param column the column's header; null for a figure written into the previous column, after " / " (p50 / p99)
	 * @param format how its cell is written
	 * @param chart the title of its chart over the load levels, or null for none
	 * @param cell what its cell says instead of the formatted value (the repeats' range after a median), or null
	 */
	public record Shown(Table table, String column, Format format, String chart, Function<LevelResult, String> cell) {

		static final Shown NOWHERE = new Shown(Table.NONE, null, Format.NUMBER, null, null);

		/** Shown in the previous column of the same table, after " / ". */
		public static Shown joined(Table table, Format format) {
			return new Shown(table, null, format, null, null);
		}

		public Shown charted(String title) {
			return new Shown(this.table, this.column, this.format, title, this.cell);
		}

		public Shown cell(Function<LevelResult, String> cell) {
			return new Shown(this.table, this.column, this.format, this.chart, cell);
		}

	}

	/**
	 * Whether {@code ./lab compare} shows a figure: not at all, side by side, or side by side with each run's change
	 * against the baseline in % (called beyond noise past the comparison's bound), with the direction that is better.
	 *
	 * @param column the compare table's header, null when not compared
	 * @param change the short name of its change ("rps" gives "Δ rps" and compare.json's {@code rpsChangePercent}), null
	 *        when only shown
	 * @param higherIsBetter for a changed figure: whether a rise is an improvement (throughput) or a regression (latency)
	 */
	public record Compared(String column, String change, boolean higherIsBetter) {

		public static final Compared NOT = new Compared(null, null, false);

		public static Compared shown(String column) {
			return new Compared(column, null, false);
		}

		public static Compared changed(String column, String change, boolean higherIsBetter) {
			return new Compared(column, change, higherIsBetter);
		}

		public boolean isShown() {
			return this.column != null;
		}

		public boolean isChanged() {
			return this.change != null;
		}

	}

	@Override
	public String toString() {
		return this.field;
	}

}
