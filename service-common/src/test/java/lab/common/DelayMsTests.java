package lab.common;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class DelayMsTests {

	@ParameterizedTest
	@ValueSource(strings = { "0", "500", "60000" })
	void acceptsZeroToTheCap(String raw) {
		assertThat(DelayMs.parse(raw)).isEqualTo(Long.parseLong(raw));
	}

	@ParameterizedTest
	@ValueSource(strings = { "abc", "-1", "60001", "1.5", "", "99999999999999999999" })
	void rejectsWithAReason(String raw) {
		assertThatExceptionOfType(BadParameterException.class).isThrownBy(() -> DelayMs.parse(raw))
			.withMessageContaining("delayMs must be");
	}

}
