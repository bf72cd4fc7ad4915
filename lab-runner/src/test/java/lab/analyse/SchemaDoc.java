package lab.analyse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.judge.Rule;
import lab.analyse.measure.Metric;

import static org.assertj.core.api.Assertions.assertThat;

/** docs/summary-schema.md, against the rows a declaration ({@link Metric}, {@link Rule}) writes of itself. */
public final class SchemaDoc {

	private SchemaDoc() {
	}

	/** Fails unless the schema doc holds {@code rows}, in this order, as one block. */
	public static void holds(List<String> rows) throws IOException {
		Path schema = Path.of(System.getProperty("lab.root", "..")).resolve("docs/summary-schema.md");
		String block = String.join("\n", rows);
		assertThat(Files.readString(schema))
			.as("docs/summary-schema.md must hold these rows, in this order, as the declarations write them:%n%s", block)
			.contains(block);
	}

}
