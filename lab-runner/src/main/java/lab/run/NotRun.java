package lab.run;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import lab.analyse.read.LevelFacts;
import lab.plan.PlannedLevel;

/**
 * Why a variant's levels are not run: each gets a row with whose fault it was (the analysis gives the verdict), reasons
 * and evidence; a null blame when the person interrupted the run (nothing to record).
 */
record NotRun(LevelFacts.Blame blame, List<String> reasons, List<String> evidence) {

	static final NotRun INTERRUPTED = new NotRun(null, List.of(), List.of());

	/** What the runner records for levels of {@code variant} (its directory {@code dir}) that were never run. */
	@FunctionalInterface
	interface Recorder {

		void record(String variant, Path dir, List<PlannedLevel> levels, NotRun why) throws IOException;

	}

}
