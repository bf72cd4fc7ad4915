package lab.analyse.search;

import java.util.Map;

import lab.layout.TuneAnswer;

/**
 * An earlier run of the same search on this host, as the host's capacity history kept it: its ratios to the baseline,
 * each with the interval that run stated (a run recorded before the history kept intervals: its estimate alone, the
 * ratio of its crossings). Kept in the search's settings when it begins, so its report draws this run beside the
 * earlier ones, and a re-render draws the same.
 *
 * @param at when it was recorded (ISO-8601)
 * @param commit the lab's commit that measured it
 * @param baseline the entry its ratios are relative to
 * @param ratios each other entry's ratio to the baseline
 */
public record EarlierRun(String at, String commit, String baseline, Map<String, TuneAnswer.Bounds> ratios) {

	public EarlierRun {
		// In the order given (the run's entries'): the picture's rows follow it.
		ratios = (ratios == null) ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(ratios));
	}

	/** "2026-11-30 07:50, 0298234": which run, for a legend. */
	public String name() {
		String when = (this.at == null) ? "?" : this.at.replace('T', ' ').replaceFirst(":[0-9]{2}(\\.[0-9]+)?Z$", "");
		String which = (this.commit == null || this.commit.isBlank()) ? "" : ", " + this.commit.substring(0, Math.min(7, this.commit.length()));
		return "earlier: " + when + which;
	}

}
