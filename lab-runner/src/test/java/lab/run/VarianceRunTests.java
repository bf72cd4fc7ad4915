package lab.run;

import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a variance study keeps of a JVM's perf counters. */
class VarianceRunTests {

	@Test
	void aJvmsCountersAreReadFromJcmdsTextAndItsGcTicksBecomeSeconds() {
		// As jcmd PerfCounter.print writes them (JDK 25, Serial GC), among many others.
		String text = """
				12345:
				java.ci.totalTime=1234567
				sun.ci.nmethodCodeSize=18737008
				sun.ci.totalCompiles=11928
				sun.gc.collector.0.invocations=101
				sun.gc.collector.0.time=1000000000
				sun.gc.collector.1.invocations=7
				sun.gc.collector.1.time=565663242
				sun.gc.generation.0.capacity=87687168
				sun.gc.generation.1.capacity=175308800
				sun.gc.policy.name="Copy:MSC"
				sun.os.hrt.frequency=1000000000
				""";
		Map<String, Number> counters = VarianceRun.counters(text);
		assertThat(counters).containsEntry("compiles", 11928L).containsEntry("nmethodCodeBytes", 18737008L).containsEntry("youngGcs", 101L)
			.containsEntry("fullGcs", 7L).containsEntry("youngCapacityBytes", 87687168L).containsEntry("oldCapacityBytes", 175308800L);
		assertThat(counters.get("gcSeconds").doubleValue()).isEqualTo(1.565663242);
		assertThat(VarianceRun.counters("jcmd: could not attach")).isEmpty();
	}

}
