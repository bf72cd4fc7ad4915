package lab.report;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import lab.analyse.RunAnalysis;
import lab.layout.RunDir;

/** {@code report.html}: the same scope as summary.md, with the charts against load, one self-contained page. */
final class ReportHtml implements ReportFormat {

	@Override
	public void write(RunAnalysis analysis, Map<String, Object> scope) throws IOException {
		Map<String, Object> page = new LinkedHashMap<>(scope);
		page.put("charts", Charts.all(analysis.levels(), ReportScope.loadUnit(analysis.levels())));
		Templates.render("report.html.mustache", page, analysis.results().resolve(RunDir.REPORT));
	}

}
