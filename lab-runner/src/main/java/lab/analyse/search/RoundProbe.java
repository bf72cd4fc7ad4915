package lab.analyse.search;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import lab.analyse.judge.LevelResult;
import lab.analyse.judge.LevelResult.Verdict;
import lab.layout.ServiceDir;

/**
 * One probe as it ran: the round and its place in the round's order, the entry (a variant in its arm), the JVM it
 * probed, the load, and its judgment. The bracket, the crossings and a report's "within the target" line all read this
 * one record.
 *
 * @param round the round that ran it (1 first; 0 for a level of a plain run)
 * @param position its place in that round's shuffled order (1 first)
 * @param entry the variant's label in the run
 * @param load users (closed) or arrivals per second (open)
 * @param verdict the level's verdict
 * @param meets whether it met the latency target (null: not judged)
 * @param latencyMs the target's percentile over every request sent, ms (null: not measured)
 * @param reason the level's first reason, "" when none
 * @param level the level's directory, relative to the results directory
 * @param jvm which of the entry's JVMs it probed (1 first; null in older records: read from the level's directory)
 * @param limit what bound the level, as {@link lab.analyse.judge.Limit} names it ("" or null: not read)
 */
public record RoundProbe(int round, int position, String entry, int load, Verdict verdict, Boolean meets, Double latencyMs, String reason,
		String level, Integer jvm, String limit) {

	private static final Pattern RESTART = Pattern.compile("(?:^|/)" + Pattern.quote(ServiceDir.RESTART_PREFIX) + "(\\d+)/");

	/** A probe of an older record, without its JVM. */
	public RoundProbe(int round, int position, String entry, int load, Verdict verdict, Boolean meets, Double latencyMs, String reason, String level) {
		this(round, position, entry, load, verdict, meets, latencyMs, reason, level, null, null);
	}

	/** This probe of the entry's {@code jvm}th JVM. */
	public RoundProbe ofJvm(int jvm) {
		return new RoundProbe(this.round, this.position, this.entry, this.load, this.verdict, this.meets, this.latencyMs, this.reason, this.level, jvm,
				this.limit);
	}

	/** This probe with {@code limit} as what bound it. */
	public RoundProbe withLimit(String limit) {
		return new RoundProbe(this.round, this.position, this.entry, this.load, this.verdict, this.meets, this.latencyMs, this.reason, this.level, this.jvm,
				limit);
	}

	/** A plain run's level as the same judgment. */
	public static RoundProbe of(LevelResult level) {
		return new RoundProbe(0, 0, level.variant(), level.load(), level.verdict(), level.meetsTarget(), null,
				level.reasons().isEmpty() ? "" : level.reasons().get(0), "", 1,
				level.limit());
	}

	/** Which of the entry's JVMs it probed: recorded, else the fresh JVM's directory in its level's path, else the first. */
	public int jvmNumber() {
		if (this.jvm != null) {
			return this.jvm;
		}
		Matcher m = RESTART.matcher((this.level == null) ? "" : this.level);
		return m.find() ? Integer.parseInt(m.group(1)) : 1;
	}

	/** Whether its latency can place a crossing: an OK level with a positive, finite percentile. */
	public boolean measured() {
		return this.verdict == Verdict.OK && this.latencyMs != null && this.latencyMs > 0 && Double.isFinite(this.latencyMs);
	}

	/** Whether it missed the target: FAILED, or OK outside it. INVALID and INTERRUPTED probes bound nothing. */
	public boolean missed() {
		return this.verdict == Verdict.FAILED || (this.verdict == Verdict.OK && Boolean.FALSE.equals(this.meets));
	}

	/**
	 * The highest load that met the target below every load that did not (OK and within it): the capacity, for a
	 * search and for a report's "within the target" line alike.
	 */
	public static int highestMet(List<RoundProbe> probes) {
		int hi = lowestMissed(probes);
		return probes.stream().filter(p -> Boolean.TRUE.equals(p.meets()) && (hi == 0 || p.load() < hi)).mapToInt(RoundProbe::load).max().orElse(0);
	}

	/** The lowest load that did not meet it (0: none). */
	public static int lowestMissed(List<RoundProbe> probes) {
		return probes.stream().filter(RoundProbe::missed).mapToInt(RoundProbe::load).min().orElse(0);
	}

}
