package lab.report;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import lab.analyse.Manifest;
import lab.analyse.RunAnalysis;
import lab.layout.RunDir;

/** {@code report.html}: the same scope as summary.md, with the charts against load, one self-contained page. */
final class ReportHtml implements ReportFormat {

	@Override
	public void write(RunAnalysis analysis, Map<String, Object> scope) throws IOException {
		Map<String, Object> page = new LinkedHashMap<>(scope);
		String loadUnit = ReportScope.loadUnit(analysis.levels());
		page.put("charts", Charts.all(analysis.levels(), loadUnit));
		CapacityMap map = CapacityMap.of(ReportScope.verdicts(analysis), analysis.levels(), Manifest.parse(analysis.manifest()), analysis.searches(), analysis.variants());
		page.put("capacityMapChart", map.isEmpty() ? null : map.chart(loadUnit));
		page.put("tuneChart", TuneSection.chart(analysis.tune(), loadUnit));
		Starts starts = Starts.of(analysis.series());
		page.put("startCharts", starts.isEmpty() ? List.of() : starts.charts().stream().filter(java.util.Objects::nonNull).toList());
		Templates.render("report.html.mustache", page, analysis.results().resolve(RunDir.REPORT));
	}

}
