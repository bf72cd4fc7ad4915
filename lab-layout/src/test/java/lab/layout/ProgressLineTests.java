package lab.layout;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressLineTests {

	@Test
	void readsBackWhatItPrints() {
		ProgressLine line = new ProgressLine(1234, 5);
		assertThat(line.format()).isEqualTo("LAB-PROGRESS ok=1234 ko=5");
		assertThat(ProgressLine.parse(line.format())).contains(line);
	}

	@Test
	void isEmptyForEveryOtherConsoleLine() {
		assertThat(ProgressLine.parse("Simulation lab.gatling.AddressSimulation started...")).isEmpty();
		assertThat(ProgressLine.parse("LAB-PROGRESS ok=x ko=1")).isEmpty();
		assertThat(ProgressLine.parse("LAB-PROGRESS ok=3")).isEmpty();
		assertThat(ProgressLine.parse("LAB-PROGRESSIVE ok=1 ko=1")).isEmpty();
		assertThat(ProgressLine.parse(null)).isEmpty();
	}

	@Test
	void namesLevelAndInjectorDirectoriesAsTheRunnerAndReportExpect() {
		assertThat(new Level.Closed(2000).name()).isEqualTo("users-2000");
		assertThat(new Level.Open(500).name()).isEqualTo("rate-500");
		assertThat(new Level.Closed(20).name(2)).isEqualTo("users-20-r2");
		assertThat(LevelDir.injector(3)).isEqualTo("injector-3");
		assertThat(ServiceDir.repeat(1)).isEqualTo("repeat-1");
		assertThat(LevelDir.heapJson(LevelDir.HEAP_STEADY)).isEqualTo("heap-steady.json");
	}

}
