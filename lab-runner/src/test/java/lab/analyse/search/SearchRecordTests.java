package lab.analyse.search;

import java.util.List;
import java.util.Map;

import lab.analyse.judge.LevelResult.Verdict;
import lab.layout.LatencyTarget;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A search's record as a re-rendered report reads it: each probe's limit as today's analysis words its level's. */
class SearchRecordTests {

	@Test
	void aProbesLimitIsReplacedByItsLevelsAndAProbeWithoutOneKeepsItsOwn() {
		RoundProbe written = new RoundProbe(1, 1, "a", 100, Verdict.OK, true, 80.0, "", "a/users-100-round1", 1,
				"the database (PostgreSQL 1769% of a core, 8.0 backends active)");
		RoundProbe other = new RoundProbe(1, 2, "b", 100, Verdict.OK, true, 70.0, "", "b/users-100-round1", 1, "the core (97% busy)");
		SearchRecord record = new SearchRecord("default", LatencyTarget.DEFAULT, "a", null, List.of("a", "b"), null, List.of(), List.of(written, other),
				Map.of(), Map.of(), null);
		SearchRecord read = record.withLimits(Map.of("a/users-100-round1", "a connection pool (10 of 10 in use, 133 waiting)"));
		assertThat(read.probes()).extracting(RoundProbe::limit).containsExactly("a connection pool (10 of 10 in use, 133 waiting)", "the core (97% busy)");
		assertThat(read.probes().get(0).withLimit(written.limit())).isEqualTo(written);
	}

}
