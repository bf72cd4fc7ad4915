package lab.report;

import java.io.IOException;
import java.util.Map;

import lab.analyse.LevelJson;
import lab.analyse.RunAnalysis;
import lab.layout.RunDir;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** {@code summary.json}: the manifest as written, the thresholds, each variant's verdict, every level, memory. */
final class SummaryJson implements ReportFormat {

	static final String SCHEMA = "loom-lab/summary/2";

	@Override
	public void write(RunAnalysis analysis, Map<String, Object> scope) throws IOException {
		ObjectNode summary = LevelJson.json.createObjectNode();
		summary.put("schema", SCHEMA);
		summary.set("manifest", analysis.manifest());
		summary.set("thresholds", LevelJson.json.valueToTree(analysis.thresholds()));
		summary.set("verdicts", LevelJson.json.valueToTree(ReportScope.verdicts(analysis)));
		ArrayNode rows = summary.putArray("results");
		analysis.levels().forEach(level -> rows.add(LevelJson.row(level)));
		summary.set("memory", LevelJson.json.valueToTree(analysis.memory()));
		if (analysis.tune() != null) {
			// A tune run's answer: the best arm, every arm with its capacity, limit, RSS, connections and fronts, each axis's effect.
			summary.set("tune", LevelJson.json.valueToTree(analysis.tune()));
		}
		var variance = lab.analyse.search.VarianceStudy.read(analysis.results());
		if (variance.isPresent()) {
			// A variance study's record (--scenario variance): every probe and each JVM's counters; the text is in the report.
			summary.set("variance", LevelJson.json.valueToTree(variance.get()));
		}
		LevelJson.json.writeValue(analysis.results().resolve(RunDir.SUMMARY_JSON).toFile(), summary);
	}

}
