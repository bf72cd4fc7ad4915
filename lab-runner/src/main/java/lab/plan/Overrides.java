package lab.plan;

import java.util.List;

import lab.layout.LatencyTarget;
import lab.layout.LoadShape;

/** What flags of {@code ./lab run} change in a scenario; null means keep the scenario's value. */
public record Overrides(List<String> variants, List<Integer> users, Long delayMs, Integer holdSeconds, Integer warmupSeconds,
		String profile, Integer repeat, List<String> tunings, List<String> observe, List<String> jdks, LatencyTarget latencyTarget, List<Integer> works,
		Integer responseBytes, List<String> aot, Integer warmupMaxSeconds) {

	/** The flags without a warm-up cap (the scenario's stands). */
	public Overrides(List<String> variants, List<Integer> users, Long delayMs, Integer holdSeconds, Integer warmupSeconds, String profile,
			Integer repeat, List<String> tunings, List<String> observe, List<String> jdks, LatencyTarget latencyTarget, List<Integer> works,
			Integer responseBytes, List<String> aot) {
		this(variants, users, delayMs, holdSeconds, warmupSeconds, profile, repeat, tunings, observe, jdks, latencyTarget, works, responseBytes, aot, null);
	}

	/** The flags without a work per request (the scenario's stands). */
	public Overrides(List<String> variants, List<Integer> users, Long delayMs, Integer holdSeconds, Integer warmupSeconds, String profile,
			Integer repeat, List<String> tunings, List<String> observe, List<String> jdks, LatencyTarget latencyTarget) {
		this(variants, users, delayMs, holdSeconds, warmupSeconds, profile, repeat, tunings, observe, jdks, latencyTarget, null, null, null, null);
	}

	public Scenario applyTo(Scenario s) {
		return new Scenario(s.name(), s.description(), s.model(), (this.variants != null) ? this.variants : s.variants(),
				(this.users != null && s.model() != LoadShape.OPEN) ? this.users : s.users(),
				(this.users != null && s.model() == LoadShape.OPEN) ? this.users : s.ratesPerSecond(),
				(this.delayMs != null) ? this.delayMs : s.delayMs(), s.rampSeconds(),
				(this.holdSeconds != null) ? this.holdSeconds : s.holdSeconds(),
				// --warmup-seconds is a fixed warm-up: not extended while the JIT compiles.
				(this.warmupSeconds != null) ? this.warmupSeconds : s.warmupSeconds(), s.warmupUsers(),
				(this.warmupMaxSeconds != null) ? this.warmupMaxSeconds : (this.warmupSeconds != null) ? this.warmupSeconds : s.warmupMaxSeconds(),
				s.requestTimeoutMs(), (this.profile != null) ? this.profile : s.profile(),
				(this.repeat != null) ? this.repeat : s.repeat(), (this.tunings != null) ? this.tunings : s.tunings(),
				(this.observe != null) ? this.observe : s.observe(), (this.jdks != null) ? this.jdks : s.jdks(),
				(this.latencyTarget != null) ? this.latencyTarget : s.latencyTarget(), s.searchMax(), s.searchResolutionPercent(),
				(this.works != null) ? this.works : s.works(), (this.responseBytes != null) ? this.responseBytes : s.responseBytes(), s.coldStart(),
				(this.aot != null) ? this.aot : s.aot(), s.aotTrainingSeconds(), s.rounds(), s.baseline(), s.aa(), s.referenceMovedPercent(), s.searchMinutes(), s.jvms(), s.halvingSteps(), s.service(), s.probesPerJvm(), s.preloadFactor(),
				s.holdArmSeconds());
	}

}
