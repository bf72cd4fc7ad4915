import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each named request of a --service run against Gatling's own pages and records, over all of a level's requests as
 * Gatling counts them: the count and p50 and p99 of the lab's per-request histograms (latency-by-request.hlog, every
 * interval); the exact p99 of the response times in Gatling's own simulation.log (read with Gatling's parser through
 * lab.gatling.MergedReport, one millisecond resolution); Gatling's statistics table (index.html) and the bucket of its response-time distribution (the
 * request's page) where the 99th percentile falls; and the same response times put through the estimator Gatling's
 * table uses (a t-digest: since Gatling 3.16 Elastic's MergingDigest with compression 100, as gatling-charts'
 * GeneralStatsBuffer builds it; 3.15's AVLTreeDigest broke ties at random and was up to 168 ms off here). Run from the
 * repository after ./lab build:
 *
 *   java --add-opens java.base/java.lang=ALL-UNNAMED -cp lab-runner/target/classes:lab-layout/target/classes:gatling/target/classes:$(cat gatling/target/classpath.txt) \
 *     scripts/GatlingPercentiles.java results/<run>
 */
public class GatlingPercentiles {

	public static void main(String[] args) throws Exception {
		if (args.length != 1 || !Files.isRegularFile(Path.of(args[0], "requests.tsv"))) {
			System.err.println("usage: GatlingPercentiles <results of a --service run with named requests>");
			System.exit(2);
		}
		Path run = Path.of(args[0]);
		var mix = lab.layout.RequestMix.read(run.resolve("requests.tsv"));
		List<Path> levels;
		try (var walk = Files.walk(run, 3)) {
			levels = walk.filter(p -> Files.isRegularFile(p.resolve("latency-by-request.hlog"))).sorted().toList();
		}
		Map<String, Integer> tally = new java.util.TreeMap<>();
		Map<String, Integer> tallyRecords = new java.util.TreeMap<>();
		// The lab's mean less the mean of Gatling's records, over the measured request-levels: the two clocks' offset.
		List<Double> offsets = new ArrayList<>();
		for (Path level : levels) {
			var byRequest = lab.analyse.read.Latency.byRequest(level.resolve("latency-by-request.hlog"), null);
			Path report;
			try (var reports = Files.list(level.resolve("gatling"))) {
				report = reports.filter(Files::isDirectory).findFirst().orElseThrow();
			}
			String index = Files.readString(report.resolve("index.html"));
			Map<String, List<Integer>> records = lab.gatling.MergedReport.responseTimes(report.resolve("simulation.log"));
			for (int i = 0; i < mix.size(); i++) {
				String name = mix.get(i).name();
				var all = byRequest.get(i).all(0, 0);
				Matcher row = Pattern.compile("<a href=\"(req_[^\"]+\\.html)\" class=\"withTooltip\">\\s*<span[^>]*>\\s*<span[^>]*class=\"ellipsed-name\">"
						+ Pattern.quote(name) + "</span>(.*?)</tr>", Pattern.DOTALL).matcher(index);
				if (!row.find()) {
					System.out.println(run.relativize(level) + " " + name + ": not in Gatling's report");
					continue;
				}
				Map<Integer, String> cells = new HashMap<>();
				Matcher cell = Pattern.compile("col-(\\d+)\">([0-9.]+)</td>").matcher(row.group(2));
				while (cell.find()) {
					cells.put(Integer.parseInt(cell.group(1)), cell.group(2));
				}
				int[] bucket = p99Bucket(Files.readString(report.resolve(row.group(1))));
				int[] times = records.getOrDefault(name, List.of()).stream().mapToInt(Integer::intValue).sorted().toArray();
				double labP99 = all.getValueAtPercentile(99) / 1000.0;
				boolean within = cells.get(11) != null && withinBound(labP99, Double.parseDouble(cells.get(11)));
				// The exact p99 of Gatling's own records, which its table estimates; null when it has none.
				Integer exact = (times.length == 0) ? null : times[(int) Math.ceil(0.99 * times.length) - 1];
				String kind = level.getFileName().toString().startsWith("warmup") ? "warm-up" : "measured";
				if (kind.equals("measured") && exact != null) {
					offsets.add(all.getMean() / 1000.0 - java.util.Arrays.stream(times).average().orElse(0));
				}
				tally.merge(kind + (within ? " within" : " outside"), 1, Integer::sum);
				if (exact != null) {
					tallyRecords.merge(kind + (withinBound(labP99, exact) ? " within" : " outside"), 1, Integer::sum);
				}
				System.out.printf("%s %s: count lab %d, Gatling %s, its log %d; p50 lab %.1f, Gatling %s ms; p99 lab %.1f, Gatling's log %s, its table %s,"
						+ " its distribution %d-%d, a t-digest of its log %s ms; the lab's p99 %s 1 ms or 1%% of the table's%n",
						run.relativize(level), name, all.getTotalCount(), cells.get(2), times.length, all.getValueAtPercentile(50) / 1000.0, cells.get(8),
						labP99, (exact == null) ? "-" : exact, cells.get(11), bucket[0], bucket[1], digests(times), within ? "within" : "NOT within");
			}
		}
		System.out.println("request-levels, the lab's p99 against Gatling's table: " + tally);
		System.out.println("request-levels, the lab's p99 against the exact p99 of Gatling's records: " + tallyRecords);
		System.out.printf("the lab's mean less Gatling's records' mean, measured request-levels: %s ms%n",
				offsets.stream().map(o -> String.format("%.2f", o)).toList());
	}

	/** The bound: {@code lab} within 1 ms or 1% of {@code gatling}, whichever is larger. */
	static boolean withinBound(double lab, double gatling) {
		return Math.abs(lab - gatling) <= Math.max(1, 0.01 * gatling);
	}

	/** The t-digest estimate of the 99th percentile, as Gatling's statistics table computes it. */
	static String digests(int[] times) {
		if (times.length == 0) {
			return "-";
		}
		var digest = new org.elasticsearch.tdigest.MergingDigest(100);
		for (int t : times) {
			digest.add(t);
		}
		return String.format("%.0f", (double) Math.round(digest.quantile(0.99)));
	}

	/** The bucket of the page's response-time distribution (ok and ko, in % of requests) where 99% is reached. */
	static int[] p99Bucket(String page) {
		String chart = page.substring(page.indexOf("renderTo: 'responseTimeDistributionContainerId'"));
		Matcher categories = Pattern.compile("categories: \\[(.*?)\\]", Pattern.DOTALL).matcher(chart);
		categories.find();
		List<Integer> bounds = new ArrayList<>();
		Matcher bound = Pattern.compile("'(\\d+)'").matcher(categories.group(1));
		while (bound.find()) {
			bounds.add(Integer.parseInt(bound.group(1)));
		}
		Matcher data = Pattern.compile("data: \\[(.*?)\\]", Pattern.DOTALL).matcher(chart);
		List<double[]> series = new ArrayList<>();
		while (series.size() < 2 && data.find()) {
			series.add(java.util.Arrays.stream(data.group(1).split(",")).map(String::strip).filter(v -> !v.isEmpty()).mapToDouble(Double::parseDouble).toArray());
		}
		double total = 0;
		for (double[] values : series) {
			total += java.util.Arrays.stream(values).sum();
		}
		double sum = 0;
		int lower = 0;
		for (int k = 0; k < bounds.size(); k++) {
			for (double[] values : series) {
				sum += (k < values.length) ? values[k] : 0;
			}
			if (sum >= 0.99 * total) {
				return new int[] { lower, bounds.get(k) };
			}
			lower = bounds.get(k);
		}
		return new int[] { lower, lower };
	}

}
