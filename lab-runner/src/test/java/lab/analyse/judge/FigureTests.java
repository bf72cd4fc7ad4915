package lab.analyse.judge;

import java.util.Arrays;
import java.util.List;

import lab.analyse.GoldenFixtures;
import lab.analyse.LevelJson;
import lab.analyse.SchemaDoc;
import lab.analyse.TestRows;
import lab.analyse.measure.Measurement;
import lab.analyse.measure.Metric;
import lab.layout.Level;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

class FigureTests {

	@Test
	void theSchemaDocumentsEveryDeclaredFigureAsDeclared() throws Exception {
		SchemaDoc.holds(Figures.schemaRows(Figures.ALL));
	}

	@Test
	void everyFigureIsAFieldOfItsOwnInSummaryRowsAndEveryMetricAFigure() {
		List<String> fields = Figures.ALL.stream().map(Figure::field).toList();
		assertThat(fields).doesNotHaveDuplicates();
		assertThat(fields).containsAll(Arrays.stream(Metric.values()).map(Metric::field).toList());
		TestRows builder = TestRows.row("v", new Level.Closed(100));
		for (int i = 0; i < Figures.ALL.size(); i++) {
			builder.set(Figures.ALL.get(i), i + 0.5);
		}
		ObjectNode json = LevelJson.row(builder.build());
		for (int i = 0; i < Figures.ALL.size(); i++) {
			Figure figure = Figures.ALL.get(i);
			// A count is written whole (0.5 rounds down to 0, 1.5 to 1...).
			assertThat(json.path(figure.field()).asDouble()).as(figure.field()).isEqualTo(figure.count() ? (double) (long) (i + 0.5) : i + 0.5);
		}
		assertThat(json.has("sampled")).isFalse();
		assertThat(json.has("figures")).isFalse();
	}

	@Test
	void everyShownFigureHasAColumnOrJoinsOneAndEveryFigureAUnitOrAMeaning() {
		java.util.Set<Figure.Table> opened = java.util.EnumSet.noneOf(Figure.Table.class);
		for (Figure figure : Figures.ALL) {
			if (figure.shown().table() != Figure.Table.NONE) {
				if (figure.shown().column() == null) {
					assertThat(opened).as(figure.field() + " joins a column its table has before it").contains(figure.shown().table());
				}
				opened.add(figure.shown().table());
			}
			assertThat(figure.meaning()).as(figure.field()).isNotBlank();
		}
	}

	@org.junit.jupiter.api.io.TempDir
	java.nio.file.Path results;

	@Test
	void aDerivedFigureReadsOnlyFiguresDeclaredBeforeIt() throws Exception {
		GoldenFixtures.write(this.results);
		Measurement ok = Measurement.of(this.results.resolve("app-webflux/users-100"), this.results);
		Figure late = Figure.of("late", "", "reads a figure declared after it", r -> r.value(Figures.RPS));
		Catalogue wrong = new Catalogue(List.of(late, Figures.RPS), List.of());
		assertThat(org.assertj.core.api.Assertions.catchThrowable(() -> Repeats.compute(List.of(ok), Thresholds.DEFAULT,
				wrong.figures()))).hasMessageContaining("declare it earlier");
	}

}
