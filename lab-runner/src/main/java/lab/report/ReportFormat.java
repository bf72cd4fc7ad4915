package lab.report;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import lab.analyse.RunAnalysis;

/**
 * One output of a run's report, written from its analysis alone into its results directory (as JMH writes each
 * result format through one interface): adding a format is a class and its place in {@link #ALL}.
 */
interface ReportFormat {

	/**
	 * Writes this format of the run; reads no file.
	 *
	 * @param scope the templates' model of the run ({@link ReportScope#of}), built once for every format; read-only
	 */
	void write(RunAnalysis analysis, Map<String, Object> scope) throws IOException;

	/** What the lab writes for every run, in this order. */
	List<ReportFormat> ALL = List.of(new SummaryJson(), new Timelines(), new SummaryMarkdown(), new ReportHtml());

}
