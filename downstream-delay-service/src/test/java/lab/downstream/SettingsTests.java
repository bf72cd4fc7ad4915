package lab.downstream;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SettingsTests {

	@Test
	void defaultsToPort7000AndOneEventLoop() {
		Settings settings = Settings.parse(new String[0], Map.of());
		assertThat(settings).isEqualTo(new Settings(7000, null, null, 0, 1));
	}

	@Test
	void readsSpringsEnvironmentSpellingAndLetsArgumentsWin() {
		Settings settings = Settings.parse(new String[] { "--server.port=0", "--lab.port-file=/tmp/x/port", "--management.server.port=0" },
				Map.of("SERVER_PORT", "7001", "LAB_FAULT_HANGEVERY", "10", "LAB_EVENTLOOPS", "2"));
		assertThat(settings).isEqualTo(new Settings(0, 0, Path.of("/tmp/x/port"), 10, 2));
		assertThat(settings.managementPortFile()).isEqualTo(Path.of("/tmp/x/port-management"));
		assertThat(Settings.parse(new String[] { "--lab.port-file=app.port" }, Map.of()).managementPortFile()).isEqualTo(Path.of("app-management.port"));
	}

	@Test
	void namesTheBadSettingAndWhatIsAllowed() {
		assertThatIllegalArgumentException().isThrownBy(() -> Settings.parse(new String[] { "--server.port=http" }, Map.of()))
			.withMessage("server.port must be an integer from 0 to 65535, got 'http'");
		assertThatIllegalArgumentException().isThrownBy(() -> Settings.parse(new String[] { "--lab.event-loops=0" }, Map.of()))
			.withMessageContaining("lab.event-loops must be an integer from 1 to 64");
		assertThatIllegalArgumentException().isThrownBy(() -> Settings.parse(new String[] { "-Dx=1" }, Map.of()))
			.withMessageStartingWith("unknown argument '-Dx=1'; the downstream takes --server.port=..., --management.server.port=...");
	}

}
