package lab.analyse.judge;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import lab.analyse.measure.Measurement;
import lab.analyse.read.LevelFacts;
import lab.analyse.read.Probes;
import lab.layout.Level;
import lab.load.LoadWindow;

/**
 * The rules {@link Rule#DOWNSTREAM_DIED}, {@link Rule#DOWNSTREAM_LATE}, {@link Rule#DOWNSTREAM_LATE_SHARE},
 * {@link Rule#HARNESS_EFFECT} and {@link Rule#SATURATED}, which combine figures: a late downstream is judged by
 * what its lateness could have changed of the service's p99 and throughput, given the load's model and how busy the
 * service's cores were.
 */
public final class DownstreamLateness {

	private final Thresholds thresholds;

	public DownstreamLateness(Thresholds thresholds) {
		this.thresholds = thresholds;
	}

	/** What made the downstream untrustworthy in this repeat (INVALID reasons); a lateness too small to matter goes to {@code notes}. */
	public List<String> judge(Measurement m, Set<String> notes) {
		LevelFacts facts = m.facts();
		List<String> invalid = new ArrayList<>();
		double limit = this.thresholds.downstreamOverheadLimitMs(facts.delayMs());
		if (facts.downstreamWatched() == null) {
			// Results from before the probe: the downstream's own overhead histogram was the figure judged.
			if (m.downstreamP99OverheadMs() > limit) {
				invalid.add(String.format(Locale.ROOT, "downstream p99 %.0f ms over its delay > %.0f ms", m.downstreamP99OverheadMs(), limit));
			}
			return invalid;
		}
		if (!facts.downstreamWatched()) {
			return invalid;
		}
		Probes probes = m.probes();
		if (Boolean.FALSE.equals(facts.downstreamAlive())) {
			invalid.add("the downstream died" + ((facts.downstreamExitCode() != null) ? " (exit code " + facts.downstreamExitCode() + ")" : "")
					+ ((probes.firstFailureEpochMs() > 0) ? LoadWindow.at(m.window(), probes.firstFailureEpochMs()) : ""));
		}
		else if (probes.failures() > 0) {
			invalid.add("the downstream stopped answering" + LoadWindow.at(m.window(), probes.firstFailureEpochMs()) + " (" + probes.failures()
					+ " of " + probes.count() + " probes failed)");
		}
		if (probes.count() == 0) {
			invalid.add("the downstream's lateness could not be computed (no probe in the window)");
		}
		else if (probes.p99LateMs() > limit) {
			lateness(m, limit).ifPresentOrElse(invalid::add, () -> notes.add(latenessBound(m)));
		}
		return invalid;
	}

	/**
	 * A late downstream judged by what it could have changed. The service's p99: every request waited at most the
	 * downstream's p99 lateness more, so that lateness over the service's own p99 bounds its share. The throughput:
	 * a closed loop of N users answers N / (delay + mean lateness + the service's time), so the mean lateness over
	 * delay + mean lateness bounds the share it took, unless the service's own cores were the limit (then the users
	 * waited on the service, not the downstream) or the load was an open arrival rate (not slowed by late answers).
	 * INVALID (the returned reason) when either bound exceeds {@link Thresholds#harnessEffectPercent}.
	 */
	private java.util.Optional<String> lateness(Measurement m, double limit) {
		double p99Share = latencyShare(m);
		double rpsShare = rpsShare(m);
		boolean latencyMoved = Double.isNaN(p99Share) || p99Share > this.thresholds.get(Rule.HARNESS_EFFECT);
		boolean rpsMoved = !Double.isNaN(rpsShare) && rpsShare > this.thresholds.get(Rule.HARNESS_EFFECT);
		if (!latencyMoved && !rpsMoved) {
			return java.util.Optional.empty();
		}
		return java.util.Optional.of(String.format(Locale.ROOT, "downstream p99 %.0f ms late > %.0f ms (probed end to end), %s", m.probes().p99LateMs(),
				limit, latencyMoved ? (Double.isNaN(p99Share) ? P99_SHARE_UNKNOWN
						: String.format(Locale.ROOT, "%.0f%% of the service's p99 > %.0f%%", p99Share, this.thresholds.get(Rule.HARNESS_EFFECT)))
						: String.format(Locale.ROOT, "mean %.0f ms late could take %.0f%% of the throughput > %.0f%%", m.probes().meanLateMs(), rpsShare,
								this.thresholds.get(Rule.HARNESS_EFFECT))));
	}

	private String latenessBound(Measurement m) {
		double rpsShare = rpsShare(m);
		double p99Share = latencyShare(m);
		String ofP99 = Double.isNaN(p99Share) ? P99_SHARE_UNKNOWN
				: String.format(Locale.ROOT, "at most %.0f%% of the service's p99 (%,.0f ms)", p99Share, m.latency().okMillis(99));
		return String.format(Locale.ROOT, "downstream p99 %.0f ms late: %s%s", m.probes().p99LateMs(), ofP99,
				Double.isNaN(rpsShare) ? ", and not of its throughput (the service's cores were the limit)"
						: String.format(Locale.ROOT, " and %.0f%% of its throughput", rpsShare));
	}

	/** What a reason says of the downstream's share of the service's p99 when that p99 is unknown: words, never NaN. */
	private static final String P99_SHARE_UNKNOWN = "its share of the service's p99 unknown (no request succeeded)";

	/** The downstream's p99 lateness in % of the service's p99 (successes); NaN when the service's is unknown. */
	private static double latencyShare(Measurement m) {
		double p99 = m.latency().okMillis(99);
		return (p99 > 0) ? 100 * m.probes().p99LateMs() / p99 : Double.NaN;
	}

	/**
	 * The share of a closed loop's throughput the downstream's mean lateness could take; NaN when it could take none
	 * (an open model, or the service's cores at the limit: {@link Rule#SATURATED} busy or more).
	 */
	private double rpsShare(Measurement m) {
		LevelFacts facts = m.facts();
		boolean saturated = m.serviceCpuPercent() >= this.thresholds.get(Rule.SATURATED) * Math.max(1, facts.serviceCpus());
		if (!(facts.level() instanceof Level.Closed) || saturated || Double.isNaN(m.probes().meanLateMs())) {
			return Double.NaN;
		}
		double late = m.probes().meanLateMs();
		return 100 * late / (facts.delayMs() + late);
	}

}
