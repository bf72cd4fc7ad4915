package lab.analyse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import lab.layout.Level;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

import static org.assertj.core.api.Assertions.assertThat;

class MetricTests {

	@Test
	void theSchemaDocumentsEveryDeclaredMetricAsDeclared() throws Exception {
		SchemaDoc.holds(Metric.schemaRows());
	}

	@Test
	void everyMetricIsAFieldOfItsOwnInSummaryRows() {
		List<String> fields = Arrays.stream(Metric.values()).map(Metric::field).toList();
		assertThat(fields).doesNotHaveDuplicates();
		double[] values = Arrays.stream(Metric.values()).mapToDouble(m -> m.ordinal() + 0.5).toArray();
		LevelResult row = new LevelResult("v", new Level.Closed(100), 1, 200, 200, 200, 200, 1, 1, 1, 500, 1, 1, 1, 500, 1, 1000, 0, 0, 0,
				0, 0, 0, 0, 0, 50, 0.2, 0.2, TestMetrics.of(values), 10, 40, 1, 1, null, LevelResult.Verdict.OK, List.of(), List.of(),
				List.of(), List.of(), List.of());
		ObjectNode json = LevelJson.row(row);
		for (Metric metric : Metric.values()) {
			assertThat(json.path(metric.field()).asDouble()).as(metric.field()).isEqualTo(metric.ordinal() + 0.5);
		}
		assertThat(json.has("sampled")).isFalse();
	}

	@Test
	void everyShownMetricHasAColumnAndEveryChartAUnit() {
		for (Metric metric : Metric.values()) {
			if (metric.shown().table() != Metric.Table.NONE) {
				assertThat(metric.shown().column()).as(metric.field()).isNotBlank();
			}
			assertThat(metric.unit()).as(metric.field()).isNotBlank();
		}
	}

}
