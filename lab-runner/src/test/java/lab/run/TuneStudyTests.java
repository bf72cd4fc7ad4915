package lab.run;

import java.util.List;
import java.util.Map;

import lab.analyse.search.Interval;
import lab.layout.TuneAnswer;
import lab.run.search.Halving;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TuneStudyTests {

	@Test
	void aStudyInterruptedBeforeItNamedABestHasNoConfirmationAndNoCrash() {
		// Interrupted in step 1 (SIGTERM): no best, and the confirmations are an immutable empty map, whose get(null) throws.
		Halving.Answer interrupted = new Halving.Answer(null, Interval.NONE, List.of(), Map.of(), List.of(), true, Map.of());
		assertThat(TuneStudy.confirmation(Map.of(), interrupted)).isNull();
	}

	@Test
	void aNamedBestHasItsConfirmation() {
		TuneAnswer.Confirmation confirmed = new TuneAnswer.Confirmation(TuneAnswer.Bounds.NONE, true);
		Halving.Answer named = new Halving.Answer("arm-a", Interval.NONE, List.of(), Map.of(), List.of(), false, Map.of());
		assertThat(TuneStudy.confirmation(Map.of("arm-a", confirmed), named)).isSameAs(confirmed);
	}

}
