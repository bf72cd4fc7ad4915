package lab.plan;

import java.util.ArrayList;
import java.util.List;

import lab.layout.LoadShape;

/** What a scenario must hold before anything starts: each problem in one line with its fix ({@link Scenario#problems}). */
final class ScenarioChecks {

	private ScenarioChecks() {
	}

	/** Every problem of {@code s} when {@code known} are the variants it may name; empty when it can run. */
	static List<String> of(Scenario s, Variants known) {
		List<String> problems = new ArrayList<>();
		if (s.name() == null || !s.name().matches("[a-z0-9][a-z0-9-]*")) {
			problems.add("name must be lower-case letters, digits and dashes, got '" + s.name() + "'");
		}
		for (String variant : s.variants()) {
			if (!known.names().contains(variant)) {
				problems.add("unknown variant '" + variant + "': valid variants are " + String.join(", ", known.names()));
			}
		}
		if (s.tunings().stream().distinct().count() != s.tunings().size()) {
			problems.add("tunings must not repeat a name, got " + s.tunings());
		}
		for (String mode : s.observe()) {
			if (!Observe.ids().contains(mode)) {
				problems.add("observe must list lean and/or full, got '" + mode + "'");
			}
		}
		if (s.observe().stream().distinct().count() != s.observe().size()) {
			problems.add("observe must not repeat a mode, got " + s.observe());
		}
		if (s.jdks().stream().distinct().count() != s.jdks().size()) {
			problems.add("jdks must not repeat a JDK, got " + s.jdks());
		}
		if (s.variants().isEmpty()) {
			problems.add("variants must name at least one of " + String.join(", ", known.names()));
		}
		if (s.model() == LoadShape.OPEN) {
			if (s.ratesPerSecond().isEmpty() || s.ratesPerSecond().stream().anyMatch(r -> r == null || r < 1)) {
				problems.add("the open model needs ratesPerSecond: a list of arrival rates >= 1, e.g. [500, 1000]");
			}
		}
		else if ((s.users().isEmpty() && s.probesPerJvm() == null) || s.users().stream().anyMatch(u -> u == null || u < 1)) {
			problems.add("the " + s.model().id() + " model needs users: a list of user counts >= 1, e.g. [1000, 2000]");
		}
		if (s.delayMs() == null || s.holdSeconds() == null) {
			problems.add("delayMs and holdSeconds are required, e.g. delayMs: 500 and holdSeconds: 30");
			return problems;
		}
		if (s.delayMs() < 0 || s.delayMs() > 60_000) {
			problems.add("delayMs must be between 0 and 60000, got " + s.delayMs());
		}
		if (s.rampSeconds() < 0 || s.holdSeconds() < 1 || s.warmupSeconds() < 0) {
			problems.add("rampSeconds and warmupSeconds must be >= 0 and holdSeconds >= 1");
		}
		if (s.warmupMaxSeconds() < s.warmupSeconds()) {
			problems.add("warmupMaxSeconds must be >= warmupSeconds (equal: a fixed warm-up)");
		}
		if (s.warmupSeconds() > 0 && s.warmupUsers() < 1) {
			problems.add("warmupUsers must be >= 1 when warmupSeconds > 0");
		}
		if (s.requestTimeoutMs() <= s.delayMs()) {
			problems.add("requestTimeoutMs (" + s.requestTimeoutMs() + ") must exceed delayMs (" + s.delayMs() + ")");
		}
		if (s.repeat() < 1 || s.repeat() > 20) {
			problems.add("repeat must be between 1 and 20, got " + s.repeat());
		}
		if (s.searchMax() != null) {
			List<Integer> first = (s.model() == LoadShape.OPEN) ? s.ratesPerSecond() : s.users();
			if (first.isEmpty() || s.searchMax() < first.get(0)) {
				problems.add("searchMax (" + s.searchMax() + ") must be at least the search's start, the first of "
						+ ((s.model() == LoadShape.OPEN) ? "ratesPerSecond" : "users") + " (" + (first.isEmpty() ? "none" : first.get(0)) + ")");
			}
			if (s.model() == LoadShape.SPIKE || s.model() == LoadShape.SOAK) {
				problems.add("a capacity search (searchMax) runs the closed or open model, not " + s.model().id());
			}
			if (s.rounds() < 1 || s.rounds() > 20) {
				problems.add("rounds must be between 1 and 20, got " + s.rounds());
			}
			if (s.jvms() < 1 || s.jvms() > 10) {
				problems.add("jvms must be between 1 and 10, got " + s.jvms() + " (a search uses at most one JVM per refining round)");
			}
			if (s.halvingSteps() != null && (s.halvingSteps() < 1 || s.halvingSteps() > 5)) {
				problems.add("halvingSteps must be 1 to 5 (steps of a tune search, each a search of the arms still in it), got " + s.halvingSteps());
			}
			if (s.searchMinutes() != null && !(s.searchMinutes() > 0 && s.searchMinutes() <= 24 * 60)) {
				problems.add("searchMinutes must be above 0 and at most 1440 (a day), got " + s.searchMinutes());
			}
			if (!(s.referenceMovedPercent() > 0 && s.referenceMovedPercent() <= 100)) {
				problems.add("referenceMovedPercent must be above 0 and at most 100, got " + s.referenceMovedPercent());
			}
			if (s.baseline() != null && !s.variants().contains(s.baseline())) {
				problems.add("baseline '" + s.baseline() + "' must be one of the run's variants: " + String.join(", ", s.variants()));
			}
			if (!(s.searchResolution() > 0 && s.searchResolution() <= 100)) {
				problems.add("searchResolutionPercent must be above 0 and at most 100, got " + s.searchResolutionPercent());
			}
		}
		else if (s.aa() || s.baseline() != null) {
			problems.add("baseline and aa belong to a capacity search (searchMax), e.g. --scenario capacity");
		}
		if (s.probesPerJvm() != null) {
			if (s.searchMax() != null) {
				problems.add("probesPerJvm makes a variance study, which probes one load and searches none: remove searchMax, or probesPerJvm");
			}
			if (s.model() != LoadShape.CLOSED) {
				problems.add("a variance study (probesPerJvm) probes closed users near each variant's knee, not the " + s.model().id() + " model");
			}
			if (s.probesPerJvm() < 2 || s.probesPerJvm() > 10) {
				problems.add("probesPerJvm must be 2 to 10 (two or more probes of one JVM tell its own spread from the spread between JVMs), got "
						+ s.probesPerJvm());
			}
			if (s.jvms() < 2 || s.jvms() > 20) {
				problems.add("jvms must be 2 to 20 in a variance study (fresh JVMs of each variant and arm), got " + s.jvms());
			}
			if (!s.users().isEmpty() && s.users().size() != s.variants().size()) {
				problems.add("a variance study takes one load per variant (users, in the variants' order: " + String.join(", ", s.variants()) + "), got "
						+ s.users() + "; or none, to probe each at its last capacity crossing");
			}
			if (s.users().isEmpty() && s.aot().contains(Aot.TRAINED.id())) {
				problems.add("a variance study with a trained AOT cache needs users (one per variant; the first is the cache's training load)");
			}
			if (s.holdArmSeconds() != null && (s.holdArmSeconds() < 5 || s.holdArmSeconds() > 600 || s.holdArmSeconds().equals(s.holdSeconds()))) {
				problems.add("holdArmSeconds must be 5 to 600 and differ from holdSeconds (" + s.holdSeconds() + "): the hold arm's probes hold that long, got "
						+ s.holdArmSeconds());
			}
			if (s.preloadFactor() != null && !(s.preloadFactor() > 1 && s.preloadFactor() <= 4)) {
				problems.add("preloadFactor must be above 1 and at most 4 (the load a JVM's history probe puts on it, as a multiple of the study's), got "
						+ s.preloadFactor());
			}
		}
		else if (s.preloadFactor() != null) {
			problems.add("preloadFactor is a variance study's history arm: add probesPerJvm (e.g. --scenario variance-history), or remove preloadFactor");
		}
		else if (s.holdArmSeconds() != null) {
			problems.add("holdArmSeconds is a variance study's hold arm: add probesPerJvm (e.g. --scenario variance-hold), or remove holdArmSeconds");
		}
		if (s.works().stream().anyMatch(w -> w == null || w < 0 || w > Work.MAX_ROUNDS)) {
			problems.add("works must be serialise-and-hash rounds per request between 0 and " + Work.MAX_ROUNDS + ", e.g. [0, 10, 40], got " + s.works());
		}
		else if (s.works().stream().distinct().count() != s.works().size()) {
			problems.add("works must not repeat a value, got " + s.works());
		}
		if (s.coldStart()) {
			if (s.model() != LoadShape.CLOSED || s.users().size() != 1 || s.searchMax() != null) {
				problems.add("a cold start (coldStart: true) loads each service with one closed level, e.g. model: closed and users: [300]");
			}
			if (s.warmupSeconds() > 0) {
				problems.add("a cold start has no warm-up: leave warmupSeconds out or set it to 0");
			}
		}
		for (String mode : s.aot()) {
			if (!Aot.ids().contains(mode)) {
				problems.add("aot must list none, trained and/or refresh, got '" + mode + "'");
			}
		}
		if (s.aot().stream().distinct().count() != s.aot().size()) {
			problems.add("aot must not repeat a mode, got " + s.aot());
		}
		if (s.aotTrainingSeconds() < 5 || s.aotTrainingSeconds() > 3600) {
			problems.add("aotTrainingSeconds must be between 5 and 3600, got " + s.aotTrainingSeconds());
		}
		if (s.responseBytes() < 0 || s.responseBytes() > Work.MAX_BYTES) {
			problems.add("responseBytes must be between 0 and " + Work.MAX_BYTES + ", got " + s.responseBytes());
		}
		try {
			Profile.parse(s.profile());
		}
		catch (PlanException ex) {
			problems.add(ex.getMessage());
		}
		return problems;
	}

}
