package lab.analyse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.load.LoadWindow;

/**
 * Failures by kind in the window, from the injector's per-second {@code requests.csv}. Each row counts the second
 * before its timestamp, so the row's midpoint (timestamp - 500 ms) decides whether it is in the window, the same
 * rule as for the latency intervals.
 */
public record RequestCounts(long ok, long ko4xx, long ko5xx, long koTimeout, long koConnection, long koCheck) {

	public static RequestCounts read(Path csv, LoadWindow window) throws IOException {
		long[] sums = new long[6];
		if (Files.isRegularFile(csv)) {
			var lines = Files.readAllLines(csv);
			for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
				String[] f = line.split(",");
				if (f.length != 7) {
					continue;
				}
				long midpoint = Long.parseLong(f[0]) - 500;
				if (window == null || window.contains(midpoint)) {
					for (int i = 0; i < 6; i++) {
						sums[i] += Long.parseLong(f[i + 1]);
					}
				}
			}
		}
		return new RequestCounts(sums[0], sums[1], sums[2], sums[3], sums[4], sums[5]);
	}

	public static RequestCounts sum(List<RequestCounts> parts) {
		long[] s = new long[6];
		for (RequestCounts c : parts) {
			s[0] += c.ok();
			s[1] += c.ko4xx();
			s[2] += c.ko5xx();
			s[3] += c.koTimeout();
			s[4] += c.koConnection();
			s[5] += c.koCheck();
		}
		return new RequestCounts(s[0], s[1], s[2], s[3], s[4], s[5]);
	}

	public long errors() {
		return this.ko4xx + this.ko5xx + this.koTimeout + this.koConnection + this.koCheck;
	}

	public long total() {
		return this.ok + errors();
	}

}
