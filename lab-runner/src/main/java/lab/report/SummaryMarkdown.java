package lab.report;

import java.io.IOException;
import java.util.Map;

import lab.analyse.RunAnalysis;
import lab.layout.RunDir;

/** {@code summary.md}: the report's tables and reasons as Markdown, for a pull request or a terminal. */
final class SummaryMarkdown implements ReportFormat {

	@Override
	public void write(RunAnalysis analysis, Map<String, Object> scope) throws IOException {
		Templates.render("summary.md.mustache", scope, analysis.results().resolve(RunDir.SUMMARY_MD));
	}

}
