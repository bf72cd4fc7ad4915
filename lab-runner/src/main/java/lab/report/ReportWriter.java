package lab.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

import lab.analyse.RunAnalysis;
import lab.layout.RunDir;

/**
 * Writes every format of one run's report ({@link ReportFormat#ALL}: {@code summary.json}, every level's
 * {@code timeline.html}, {@code summary.md}, {@code report.html}) from its analysis ({@link RunAnalysis}) alone:
 * rendering reads no file, so any results directory can be re-rendered without a re-run by analysing it again.
 */
public final class ReportWriter {

	/** The schema {@code summary.json} declares. */
	public static final String SCHEMA = SummaryJson.SCHEMA;

	/**
	 * Renders one analysed run ({@link lab.analyse.Analyser#run}) and returns the path of report.html.
	 */
	public Path write(RunAnalysis analysis) throws IOException {
		Map<String, Object> scope = ReportScope.of(analysis);
		for (ReportFormat format : ReportFormat.ALL) {
			format.write(analysis, scope);
		}
		if (scope.get("variance") instanceof String variance) {
			// A variance study's own text, re-rendered from its record as the report is.
			java.nio.file.Files.writeString(analysis.results().resolve(lab.analyse.search.VarianceStudy.TEXT), "# Variance study\n\n" + variance);
		}
		return analysis.results().resolve(RunDir.REPORT);
	}

}
