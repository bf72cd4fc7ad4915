package lab.analyse.read;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lab.load.LoadWindow;

/**
 * Every request sent in the window and what became of it, from the injector's {@code requests.csv}. Rows are keyed
 * by the second the requests were <em>sent</em> (a second may have several rows, added up); a row counts when the
 * middle of its second lies in the window. Requests sent but without any outcome (the injector stopped before they
 * answered or timed out) are {@link #unanswered()}.
 *
 * <p>Older results (before send-time attribution) keyed rows by the second outcomes completed, stamped at its end,
 * and had no sent column: they are read as before (midpoint = stamp - 500 ms, sent = outcomes).
 */
public record RequestCounts(long sent, long ok, long ko4xx, long ko5xx, long koTimeout, long koConnection, long koCheck) {

	public static RequestCounts read(Path csv, LoadWindow window) throws IOException {
		return rows(csv).in(window);
	}

	/**
	 * A {@code requests.csv} read once: per row the second it is keyed by (ms) and its seven counts (sent, ok, 4xx,
	 * 5xx, timeout, refused, check), and whether the rows are keyed by send time.
	 */
	public record Rows(List<long[]> rows, boolean bySendTime) {

		/** Every row whose second's middle lies in {@code window} (every row when it is null), added up. */
		public RequestCounts in(LoadWindow window) {
			long[] sums = new long[7];
			for (long[] row : this.rows) {
				long midpoint = row[0] + (this.bySendTime ? 500 : -500);
				if (window != null && !window.contains(midpoint)) {
					continue;
				}
				for (int i = 0; i < 7; i++) {
					sums[i] += row[i + 1];
				}
			}
			return new RequestCounts(sums[0], sums[1], sums[2], sums[3], sums[4], sums[5], sums[6]);
		}

		/** Rows keyed by send second, added up per second: the seven counts (empty for older results). */
		public java.util.TreeMap<Long, long[]> bySendSecond() {
			java.util.TreeMap<Long, long[]> seconds = new java.util.TreeMap<>();
			if (this.bySendTime) {
				for (long[] row : this.rows) {
					long[] sums = seconds.computeIfAbsent(row[0], k -> new long[7]);
					for (int i = 0; i < 7; i++) {
						sums[i] += row[i + 1];
					}
				}
			}
			return seconds;
		}

	}

	/** Reads a {@code requests.csv}; a line cut short by an interrupted run is skipped, a missing file has no rows. */
	public static Rows rows(Path csv) throws IOException {
		List<long[]> rows = new java.util.ArrayList<>();
		if (!Files.isRegularFile(csv)) {
			return new Rows(rows, true);
		}
		List<String> lines = Files.readAllLines(csv);
		boolean bySendTime = !lines.isEmpty() && lines.get(0).startsWith("send_second");
		for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
			String[] f = line.split(",");
			if (f.length != (bySendTime ? 8 : 7)) {
				continue;
			}
			try {
				long[] row = new long[8];
				row[0] = Long.parseLong(f[0]);
				for (int i = 1; i < f.length; i++) {
					row[bySendTime ? i : i + 1] = Long.parseLong(f[i]);
				}
				if (!bySendTime) {
					row[1] = row[2] + row[3] + row[4] + row[5] + row[6] + row[7];
				}
				rows.add(row);
			}
			catch (NumberFormatException ex) {
				// a line cut short by an interrupted run: skipped
			}
		}
		return new Rows(List.copyOf(rows), bySendTime);
	}

	public static RequestCounts sum(List<RequestCounts> parts) {
		long[] s = new long[7];
		for (RequestCounts c : parts) {
			s[0] += c.sent();
			s[1] += c.ok();
			s[2] += c.ko4xx();
			s[3] += c.ko5xx();
			s[4] += c.koTimeout();
			s[5] += c.koConnection();
			s[6] += c.koCheck();
		}
		return new RequestCounts(s[0], s[1], s[2], s[3], s[4], s[5], s[6]);
	}

	/** Sent in the window with no outcome at all: never answered, never timed out (the injector stopped first). */
	public long unanswered() {
		return Math.max(0, this.sent - outcomes());
	}

	/** Outcomes that were not a success, unanswered requests included. */
	public long errors() {
		return this.ko4xx + this.ko5xx + this.koTimeout + this.koConnection + this.koCheck + unanswered();
	}

	/** Every request of the window: the sent count, or the outcomes when more were seen (rounding at the edges). */
	public long total() {
		return Math.max(this.sent, outcomes());
	}

	private long outcomes() {
		return this.ok + this.ko4xx + this.ko5xx + this.koTimeout + this.koConnection + this.koCheck;
	}

}
