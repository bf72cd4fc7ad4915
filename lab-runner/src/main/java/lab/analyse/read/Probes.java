package lab.analyse.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import lab.load.LoadWindow;

/**
 * The downstream as a client sees it, end to end: the runner's probe sends requests straight to the downstream
 * ({@code probe.csv}: send time, response time, status; status -1 when it failed) throughout each level. Its lateness
 * is the response time beyond the requested delay, so event-loop backlog on arrival and the write count too.
 *
 * @param count probes sent in the window
 * @param p99LateMs p99 of (response time - delay) over the probes that answered 200, nearest rank; NaN without any
 * @param failures probes in the window that failed or answered other than 200
 * @param firstFailureEpochMs send time of the first of them, 0 when none failed
 * @param meanLateMs mean of (response time - delay) over the probes that answered 200: what a closed loop's
 *        throughput feels; NaN without any
 */
public record Probes(int count, double p99LateMs, int failures, long firstFailureEpochMs, double meanLateMs) {

	public static final Probes NONE = new Probes(0, Double.NaN, 0, 0, Double.NaN);

	public static Probes read(Path csv, LoadWindow window, long delayMs) throws IOException {
		if (window == null || !Files.isRegularFile(csv)) {
			return NONE;
		}
		List<Double> late = new ArrayList<>();
		int count = 0;
		int failures = 0;
		long firstFailure = 0;
		List<String> lines = Files.readAllLines(csv);
		for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
			String[] f = line.split(",");
			if (f.length != 3) {
				continue;
			}
			long sent;
			double millis;
			int status;
			try {
				sent = Long.parseLong(f[0]);
				millis = Double.parseDouble(f[1]);
				status = Integer.parseInt(f[2]);
			}
			catch (NumberFormatException ex) {
				continue;
			}
			if (!window.contains(sent)) {
				continue;
			}
			count++;
			if (status == 200) {
				late.add(Math.max(0, millis - delayMs));
			}
			else {
				failures++;
				firstFailure = (firstFailure == 0) ? sent : Math.min(firstFailure, sent);
			}
		}
		double p99 = Double.NaN;
		double mean = Double.NaN;
		if (!late.isEmpty()) {
			late.sort(null);
			p99 = late.get((int) Math.ceil(0.99 * late.size()) - 1);
			mean = late.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
		}
		return new Probes(count, p99, failures, firstFailure, mean);
	}

}
