package lab.report;

import java.util.Locale;

import lab.analyse.judge.LevelResult;
import lab.layout.LatencyTarget;
import lab.layout.Level;

/** The one line printed per finished level, and number formats shared by the report's writers. */
public final class Summaries {

	private Summaries() {
	}

	/** The level's console line with its latency target's judgment beside the verdict: "OK, target missed: p99 1,034 > 1,000 ms". */
	public static String line(LevelResult r, LatencyTarget target) {
		String judged = r.targetText(target);
		return line(r, r.verdict() + (judged.isEmpty() ? "" : ", " + judged));
	}

	public static String line(LevelResult r) {
		return line(r, r.verdict().toString());
	}

	private static String line(LevelResult r, String verdict) {
		String level = switch (r.level()) {
			case Level.Closed closed -> closed.users() + " users";
			case Level.Open open -> open.ratePerSecond() + "/s";
		};
		String limit = r.limit();
		return String.format(Locale.ROOT, "  %-20s %-12s %8s rps (%s of %s)  p99 %s ms (ok %s)  errors %d of %d  CPU %s%%  injector %s%%  %s%s%s",
				r.variant(), level, number(r.rps()), percent(r.efficiency()), number(r.ceilingRps()), number(r.p99AllMs()),
				number(r.p99OkMs()), r.errors(), r.requests(), number(r.serviceCpuPercent()), number(r.injectorCpuPercent()), verdict,
				r.reasons().isEmpty() ? "" : ": " + r.reasons().get(0) + ((r.reasons().size() > 1) ? " (" + (r.reasons().size() - 1)
						+ " more in the report)" : ""), limit.isEmpty() ? "" : "; limit: " + limit);
	}

	/** Whole numbers with thousands separators; a dash where the data was missing. */
	public static String number(double value) {
		return Double.isNaN(value) || Double.isInfinite(value) ? "-" : String.format(Locale.ROOT, "%,.0f", value);
	}

	public static String decimal(double value) {
		return Double.isNaN(value) || Double.isInfinite(value) ? "-" : String.format(Locale.ROOT, "%,.2f", value);
	}

	/** Three decimals: CPU ms per request of the harness, where 0.02 and 0.09 differ. */
	public static String decimal3(double value) {
		return Double.isNaN(value) || Double.isInfinite(value) ? "-" : String.format(Locale.ROOT, "%,.3f", value);
	}

	public static String percent(double ratio) {
		return Double.isNaN(ratio) || Double.isInfinite(ratio) ? "-" : String.format(Locale.ROOT, "%.0f%%", 100 * ratio);
	}

}
