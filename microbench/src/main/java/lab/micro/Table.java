package lab.micro;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One experiment's result: each row sets the article's figure, this machine's figure and the ideal side by side.
 *
 * @param id experiment id ({@code ./lab micro <id>})
 * @param title what it shows
 * @param source the article it reproduces
 * @param rows the measurements
 * @param notes how it was measured, sizes, caps
 */
record Table(String id, String title, String source, List<Row> rows, List<String> notes) {

	/** Figures as text: the article's as printed there, "-" where the article gave none. */
	record Row(String measure, String article, String here, String ideal) {
	}

	static Builder of(String id, String title, String source) {
		return new Builder(id, title, source);
	}

	Row row(String measure) {
		return this.rows.stream().filter(r -> r.measure().equals(measure)).findFirst().orElseThrow();
	}

	String markdown() {
		StringBuilder text = new StringBuilder("### ").append(this.title).append(" (`").append(this.id).append("`)\n\n");
		text.append("Source: ").append(this.source).append("\n\n| measure | article | this machine | ideal |\n|---|---|---|---|\n");
		for (Row row : this.rows) {
			text.append("| ").append(row.measure()).append(" | ").append(row.article()).append(" | ").append(row.here())
				.append(" | ").append(row.ideal()).append(" |\n");
		}
		this.notes.forEach(note -> text.append("\n- ").append(note));
		return text.append("\n").toString();
	}

	static String ms(double millis) {
		return String.format(Locale.ROOT, "%,.0f ms", millis);
	}

	static String count(double value) {
		return String.format(Locale.ROOT, "%,.0f", value);
	}

	static final class Builder {

		private final String id;

		private final String title;

		private final String source;

		private final List<Row> rows = new ArrayList<>();

		private final List<String> notes = new ArrayList<>();

		Builder(String id, String title, String source) {
			this.id = id;
			this.title = title;
			this.source = source;
		}

		Builder row(String measure, String article, String here, String ideal) {
			this.rows.add(new Row(measure, article, here, ideal));
			return this;
		}

		Builder note(String note) {
			this.notes.add(note);
			return this;
		}

		Table build() {
			return new Table(this.id, this.title, this.source, List.copyOf(this.rows), List.copyOf(this.notes));
		}

	}

}
