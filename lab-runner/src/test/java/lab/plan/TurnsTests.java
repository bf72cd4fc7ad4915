package lab.plan;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Which arms share the machine: each arm's heap ceiling read as the JVM reads its options, and the first fit of the arms into turns. */
class TurnsTests {

	static final long GIB = 1L << 30;

	static final long MIB = 1L << 20;

	@Test
	void theHeapCeilingIsReadAsTheJvmReadsItsOptions() {
		long ram = 24 * GIB;
		assertThat(Turns.heapCeiling(List.of(), ram)).as("the JVM's default: a quarter of the box").isEqualTo(6 * GIB);
		assertThat(Turns.heapCeiling(List.of("-Xmx512m"), ram)).isEqualTo(512 * MIB);
		assertThat(Turns.heapCeiling(List.of("-Xmx2g", "-XX:+UseZGC", "-Xmx1g"), ram)).as("the last -Xmx counts").isEqualTo(GIB);
		assertThat(Turns.heapCeiling(List.of("-XX:MaxHeapSize=768m"), ram)).isEqualTo(768 * MIB);
		// The t2-micro profile's MaxRAM with the tuned fixture's percentages: 68% and 25% of 1 GiB.
		assertThat(Turns.heapCeiling(List.of("-XX:ActiveProcessorCount=1", "-XX:MaxRAM=1g", "-XX:MaxRAMPercentage=68"), ram))
			.isEqualTo((long) (GIB * 0.68));
		assertThat(Turns.heapCeiling(List.of("-XX:MaxRAM=1g"), ram)).isEqualTo(GIB / 4);
		assertThat(Turns.heapCeiling(List.of("-XX:MaxRAMPercentage=50"), ram)).isEqualTo(12 * GIB);
		assertThat(Turns.heapCeiling(List.of("-XX:MaxRAM=1g", "-Xmx300m"), ram)).as("-Xmx wins over the percentage").isEqualTo(300 * MIB);
		assertThat(Turns.needBytes(List.of("-Xmx512m"), ram)).as("and 256 MiB beyond the heap").isEqualTo(768 * MIB);
	}

	@Test
	void armsThatFitTogetherShareOneTurn() {
		Map<String, Long> needs = Map.of("a", GIB, "b", GIB, "c", 2 * GIB);
		assertThat(Turns.of(List.of("a", "b", "c"), needs, 4 * GIB)).containsExactly(List.of("a", "b", "c"));
	}

	@Test
	void armsThatDoNotFitRunInTurnsEachFilledFirstFitInTheArmsOrder() {
		Map<String, Long> needs = Map.of("a", 3 * GIB, "b", 3 * GIB, "c", GIB, "d", 2 * GIB, "huge", 9 * GIB);
		assertThat(Turns.of(List.of("a", "b", "c", "d", "huge"), needs, 4 * GIB))
			.as("a and c fill the first turn, b the second, d joins none of them, the one larger than the budget runs alone")
			.containsExactly(List.of("a", "c"), List.of("b"), List.of("d"), List.of("huge"));
	}

}
