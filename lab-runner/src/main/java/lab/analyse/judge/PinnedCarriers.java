package lab.analyse.judge;

import java.util.Locale;
import java.util.Optional;

import lab.analyse.evidence.PinnedSite;
import lab.analyse.measure.Measurement;

/**
 * {@link Rule#PINNED}: the pinned time of the level's sites over the carriers' time in the window (the service's
 * cores), named with the frame that pinned most.
 */
final class PinnedCarriers implements Rule.Check {

	@Override
	public Optional<String> reason(Measurement m, double bound, String boundText) {
		double totalMs = PinnedSite.totalMs(m.pinnedSites());
		double carrierMs = (m.window() == null) ? Double.NaN : m.window().steadySeconds() * 1000 * Math.max(1, m.facts().serviceCpus());
		double percent = 100 * totalMs / carrierMs;
		if (!(percent > bound)) {
			return Optional.empty();
		}
		PinnedSite top = m.pinnedSites().get(0);
		return Optional.of(String.format(Locale.ROOT,
				"pinning stalled users: carriers held pinned %,.0f ms of %,.0f (%.1f%% > %s), %,d events; most at %s (%,d events, %,.0f ms)",
				totalMs, carrierMs, percent, boundText, m.pinnedSites().stream().mapToLong(PinnedSite::events).sum(), top.frame(),
				top.events(), top.totalMs()));
	}

}
