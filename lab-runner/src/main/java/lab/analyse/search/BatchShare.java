package lab.analyse.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a variance study's arms share batch by batch. Every arm's JVM {@code j} of a variant starts and is probed in
 * batch {@code j}, minutes from the other batches, so a spread "between JVMs" holds the host's drift between batches
 * too: a JVM property moves one arm's JVM, the host moves every arm's JVM of that batch alike. The arms' JVM means
 * (log p99) set side by side across the batches they share: their correlation, with its 95% interval (Fisher's z),
 * and the covariance as the part they share (√ of it as a fraction: the batch's component, when positive).
 *
 * @param arms the arms compared (two or more)
 * @param batches the batches every one of them has a JVM mean in
 * @param r the correlation of their JVM means across those batches (the mean over pairs of arms)
 * @param rLow the low end of its 95% interval
 * @param rHigh the high end
 * @param sharedSd √ of the mean covariance, 0 where it is negative: the SD of the log p99 the batch moves every arm by
 */
public record BatchShare(List<String> arms, int batches, double r, double rLow, double rHigh, double sharedSd) {

	/** Fewer shared batches than this say nothing of a correlation (Fisher's interval needs n - 3 > 0). */
	static final int MIN_BATCHES = 4;

	/**
	 * The share of {@code byArm} (per arm, its JVM means of log p99 by batch); null with fewer than two arms or fewer
	 * than {@link #MIN_BATCHES} batches they all share.
	 */
	public static BatchShare of(Map<String, Map<Integer, Double>> byArm) {
		if (byArm.size() < 2) {
			return null;
		}
		TreeSet<Integer> shared = null;
		for (Map<Integer, Double> means : byArm.values()) {
			if (shared == null) {
				shared = new TreeSet<>(means.keySet());
			}
			else {
				shared.retainAll(means.keySet());
			}
		}
		int n = shared.size();
		if (n < MIN_BATCHES) {
			return null;
		}
		List<String> arms = new ArrayList<>(byArm.keySet());
		double covSum = 0;
		double rSum = 0;
		int pairs = 0;
		for (int i = 0; i < arms.size(); i++) {
			for (int k = i + 1; k < arms.size(); k++) {
				double[] a = shared.stream().mapToDouble(byArm.get(arms.get(i))::get).toArray();
				double[] b = shared.stream().mapToDouble(byArm.get(arms.get(k))::get).toArray();
				double ma = java.util.Arrays.stream(a).average().orElseThrow();
				double mb = java.util.Arrays.stream(b).average().orElseThrow();
				double sab = 0;
				double saa = 0;
				double sbb = 0;
				for (int j = 0; j < n; j++) {
					sab += (a[j] - ma) * (b[j] - mb);
					saa += (a[j] - ma) * (a[j] - ma);
					sbb += (b[j] - mb) * (b[j] - mb);
				}
				covSum += sab / (n - 1);
				rSum += (saa > 0 && sbb > 0) ? sab / Math.sqrt(saa * sbb) : 0;
				pairs++;
			}
		}
		double r = rSum / pairs;
		double z = 0.5 * Math.log((1 + r) / (1 - r));
		double half = 1.959964 / Math.sqrt(n - 3);
		double cov = covSum / pairs;
		return new BatchShare(List.copyOf(arms), n, r, Math.tanh(z - half), Math.tanh(z + half), Math.sqrt(Math.max(0, cov)));
	}

	/** One line of the study's text for {@code variant}. */
	public String line(String variant) {
		String head = String.format(Locale.ROOT, "- %s: the arms' JVM means (%s) across %d batches: r = %.2f (95%%: %.2f to %.2f)", variant,
				String.join(", ", this.arms), this.batches, this.r, this.rLow, this.rHigh);
		if (this.sharedSd <= 0) {
			return head + "; they do not move together: nothing the batches share";
		}
		return head + String.format(Locale.ROOT, "; they move together by ±%.1f%% of p99, %s", 100 * this.sharedSd, (this.rLow > 0)
				? "the host between batches (minutes apart), not a JVM: the spread between JVMs above holds it"
				: "which may be the host between batches (minutes apart) rather than a JVM; the interval reaches 0, so more batches would tell");
	}

}
