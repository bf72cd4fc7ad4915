package lab.layout;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LevelTests {

	@Test
	void aShapeMakesItsKindOfLevel() {
		assertThat(LoadShape.OPEN.level(500)).isEqualTo(new Level.Open(500));
		assertThat(LoadShape.CLOSED.level(2000)).isEqualTo(new Level.Closed(2000));
		assertThat(LoadShape.SPIKE.level(2000)).isEqualTo(new Level.Closed(2000));
		assertThat(LoadShape.SOAK.level(20)).isEqualTo(new Level.Closed(20));
	}

	@Test
	void readsBackTheTwoFieldsTheFilesRecord() {
		Level closed = new Level.Closed(2000);
		Level open = new Level.Open(500);
		assertThat(Level.fromFields(closed.usersField(), closed.ratePerSecondField())).isEqualTo(closed);
		assertThat(Level.fromFields(open.usersField(), open.ratePerSecondField())).isEqualTo(open);
		assertThat(closed.ratePerSecondField()).isZero();
		assertThat(open.usersField()).isZero();
	}

	@Test
	void refusesLevelsThatCannotRun() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Level.Closed(0)).withMessageContaining("at least 1 user");
		assertThatIllegalArgumentException().isThrownBy(() -> new Level.Open(-5)).withMessageContaining("at least 1 request");
		assertThatIllegalArgumentException().isThrownBy(() -> Level.fromFields(0, 0)).withMessageContaining("not both and not neither");
		assertThatIllegalArgumentException().isThrownBy(() -> Level.fromFields(10, 10)).withMessageContaining("not both and not neither");
	}

	@Test
	void parsesShapesInAnyCaseAndNamesTheValidOnes() {
		assertThat(LoadShape.parse(" Spike ")).isEqualTo(LoadShape.SPIKE);
		// A tenth of a spike's users ramp for 10 s, nothing for 10 s, then the rest at once: full load from 20 s.
		assertThat(LoadShape.SPIKE.steadyAfterSeconds(10)).isEqualTo(20);
		assertThat(LoadShape.CLOSED.steadyAfterSeconds(10)).isEqualTo(10);
		assertThat(LoadShape.OPEN.steadyAfterSeconds(10)).isEqualTo(10);
		assertThatIllegalArgumentException().isThrownBy(() -> LoadShape.parse("burst"))
			.withMessage("unknown load shape 'burst': valid shapes are closed, open, spike, soak");
	}

}
