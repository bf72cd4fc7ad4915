package lab.layout;

import java.util.Optional;

/**
 * The line the load generator prints on its console once a second and the runner reads for its progress bar:
 * {@code LAB-PROGRESS ok=<n> ko=<n>}, the requests answered well and badly in the last second.
 */
public record ProgressLine(long ok, long ko) {

	static final String PREFIX = "LAB-PROGRESS";

	/** The line as printed. */
	public String format() {
		return PREFIX + " ok=" + this.ok + " ko=" + this.ko;
	}

	/** The counts of a progress line; empty for any other console line. */
	public static Optional<ProgressLine> parse(String line) {
		if (line == null || !line.startsWith(PREFIX + " ")) {
			return Optional.empty();
		}
		long ok = -1;
		long ko = -1;
		for (String field : line.substring(PREFIX.length() + 1).trim().split(" ")) {
			try {
				if (field.startsWith("ok=")) {
					ok = Long.parseLong(field.substring(3));
				}
				else if (field.startsWith("ko=")) {
					ko = Long.parseLong(field.substring(3));
				}
			}
			catch (NumberFormatException ex) {
				return Optional.empty();
			}
		}
		return (ok >= 0 && ko >= 0) ? Optional.of(new ProgressLine(ok, ko)) : Optional.empty();
	}

}
