package lab.report;

import java.io.IOException;

import lab.analyse.RunAnalysis;
import lab.layout.RunDir;

/** {@code summary.md}: the report's tables and reasons as Markdown, for a pull request or a terminal. */
final class SummaryMarkdown implements ReportFormat {

	@Override
	public void write(RunAnalysis analysis) throws IOException {
		Templates.render("summary.md.mustache", ReportScope.of(analysis), analysis.results().resolve(RunDir.SUMMARY_MD));
	}

}
