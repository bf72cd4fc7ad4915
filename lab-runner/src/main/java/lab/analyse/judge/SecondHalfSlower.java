package lab.analyse.judge;

import java.util.Locale;
import java.util.Optional;

import lab.analyse.measure.Measurement;

/** {@link Rule#SECOND_HALF_SLOWER}: the window's halves' send rates compared, for a service that kept answering. */
final class SecondHalfSlower implements Rule.Check {

	@Override
	public Optional<String> reason(Measurement m, double bound, String boundText) {
		// A service that died, ran out of memory or stopped answering (a second half of nothing sent: a stall)
		// slowed down because it failed: FAILED says that already.
		double slower = (m.facts().serviceAlive() && !m.facts().outOfMemory() && m.halves().secondRps() > 0)
				? m.halves().secondHalfSlowerPercent() : Double.NaN;
		return (slower > bound) ? Optional.of(String.format(Locale.ROOT,
				"the window's second half sent %.0f%% fewer requests per second than its first (%,.0f → %,.0f rps > %s): "
						+ "its throughput is the mean of two rates",
				slower, m.halves().firstRps(), m.halves().secondRps(), boundText)) : Optional.empty();
	}

}
